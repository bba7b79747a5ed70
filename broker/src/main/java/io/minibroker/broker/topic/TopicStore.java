package io.minibroker.broker.topic;

import io.minibroker.broker.log.DurableFiles;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Where topic definitions survive a restart. Kafka keeps them in its cluster metadata log; a single node keeps
 * one small file per topic in a hidden directory of the first log dir (ignored by the log manager, whose
 * partition directories are {@code <topic>-<n>}):
 * <pre>
 *   .minibroker-topics/orders.properties
 *       topic.id=Jm0bqkUeSP2hTq8cXuUaNA
 *       partitions=3
 *       config.retention.ms=86400000
 * </pre>
 * Each partition directory also gets Kafka's {@code partition.metadata} naming the topic id (the registry has
 * {@link io.minibroker.broker.log.PartitionMetadataFile} write it).
 * Files are replaced atomically (write, fsync, rename), so a crash leaves the old or the new definition.
 */
public final class TopicStore {

    static final String DIR = ".minibroker-topics";
    private static final String SUFFIX = ".properties";
    private static final String CONFIG_PREFIX = "config.";

    private final Path dir;

    public TopicStore(Path firstLogDir) throws IOException {
        this.dir = Files.createDirectories(firstLogDir.resolve(DIR));
    }

    public List<TopicMetadata> loadAll() throws IOException {
        List<TopicMetadata> topics = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String fileName = file.getFileName().toString();
                if (fileName.endsWith(SUFFIX)) {
                    topics.add(read(fileName.substring(0, fileName.length() - SUFFIX.length()), file));
                }
            }
        }
        return topics;
    }

    public void save(TopicMetadata topic) throws IOException {
        Properties properties = new Properties();
        properties.setProperty("topic.id", TopicIds.toText(topic.id()));
        properties.setProperty("partitions", Integer.toString(topic.partitions()));
        topic.configOverrides().forEach((key, value) -> properties.setProperty(CONFIG_PREFIX + key, value));
        writeAtomically(dir.resolve(topic.name() + SUFFIX), properties);
    }

    /** Writes a properties file so that a crash leaves the old one or the new one whole: temporary, fsync, rename. */
    public static void writeAtomically(Path target, Properties properties) throws IOException {
        StringWriter text = new StringWriter();
        properties.store(text, null);
        DurableFiles.writeAtomically(target, text.toString());
    }

    public void delete(String topic) throws IOException {
        Files.deleteIfExists(dir.resolve(topic + SUFFIX));
    }

    private static TopicMetadata read(String name, Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        Map<String, String> overrides = new HashMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith(CONFIG_PREFIX)) {
                overrides.put(key.substring(CONFIG_PREFIX.length()), properties.getProperty(key));
            }
        }
        return new TopicMetadata(name, TopicIds.fromText(properties.getProperty("topic.id")),
                Integer.parseInt(properties.getProperty("partitions")), overrides);
    }
}
