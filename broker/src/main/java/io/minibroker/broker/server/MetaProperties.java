package io.minibroker.broker.server;

import io.minibroker.broker.log.DurableFiles;
import io.minibroker.broker.topic.TopicIds;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * Each log directory's {@code meta.properties}, in Kafka's version 1 (what {@code kafka-storage format} writes for a
 * KRaft node): {@code version}, {@code cluster.id}, {@code node.id} and a {@code directory.id} of its own. Kafka
 * needs a format step to write it; a minibroker writes it at its first start on a directory, from its
 * configuration, so that tools reading the file ({@code kafka-storage info}) find what a Kafka node's directory
 * has. Afterwards it is kept as it is, and a start whose {@code node.id} or {@code cluster.id} differs from the
 * file's is refused, as Kafka refuses it: the directory holds another node's data.
 */
final class MetaProperties {

    static final String FILE_NAME = "meta.properties";
    /** Kafka's version of the file for KRaft nodes (0 was ZooKeeper's). */
    private static final String VERSION = "1";

    private MetaProperties() {
    }

    /** Writes the file in each directory that has none; checks the ids of those that have one. */
    static void ensure(List<Path> logDirs, String clusterId, int nodeId) throws IOException {
        for (Path logDir : logDirs) {
            Path file = logDir.resolve(FILE_NAME);
            if (Files.exists(file)) {
                check(file, clusterId, nodeId);
            } else {
                Files.createDirectories(logDir);
                write(file, clusterId, nodeId);
            }
        }
    }

    /**
     * The directory id of {@code logDir}, which {@link #ensure} has seen to: what a KRaft quorum knows this node's
     * metadata directory by (Kafka's {@code metadata.log.dir}, which defaults to the first of {@code log.dirs}).
     */
    static UUID directoryId(Path logDir) throws IOException {
        Path file = logDir.resolve(FILE_NAME);
        String directoryId = read(file).getProperty("directory.id");
        if (directoryId == null) {
            throw new IOException(file + " has no directory.id");
        }
        return TopicIds.fromText(directoryId);
    }

    private static Properties read(Path file) throws IOException {
        Properties stored = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            stored.load(reader);
        }
        return stored;
    }

    private static void check(Path file, String clusterId, int nodeId) throws IOException {
        Properties stored = read(file);
        String storedNodeId = stored.getProperty("node.id");
        if (!String.valueOf(nodeId).equals(storedNodeId)) {
            throw new IOException(file + " belongs to node id " + storedNodeId + ", not to this node.id " + nodeId
                    + ": the directory holds another node's data (give this node its own directory, or its old id)");
        }
        String storedClusterId = stored.getProperty("cluster.id");
        if (!clusterId.equals(storedClusterId)) {
            throw new IOException(file + " belongs to cluster.id " + storedClusterId + ", not to this node's "
                    + clusterId + ": the directory holds another cluster's data");
        }
    }

    /** Written as Kafka writes it (java.util.Properties' text, an empty comment and the date first), atomically. */
    private static void write(Path file, String clusterId, int nodeId) throws IOException {
        Properties properties = new Properties();
        properties.setProperty("version", VERSION);
        properties.setProperty("cluster.id", clusterId);
        properties.setProperty("node.id", String.valueOf(nodeId));
        properties.setProperty("directory.id", TopicIds.toText(TopicIds.random()));
        StringWriter text = new StringWriter();
        properties.store(text, "");
        DurableFiles.writeAtomically(file, text.toString());
    }
}
