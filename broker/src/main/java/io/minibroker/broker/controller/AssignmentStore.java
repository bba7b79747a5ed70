package io.minibroker.broker.controller;

import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.broker.topic.TopicStore;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The controller's topics on disk, so that they outlive its restarts: one properties file per topic under
 * {@value #DIR} in the controller node's first log directory, with the topic id and each partition's replicas
 * (leader and ISR follow from the replicas until leadership and ISR can change).
 */
final class AssignmentStore {

    static final String DIR = ".minibroker-controller";
    private static final String SUFFIX = ".properties";

    private final Path dir;

    AssignmentStore(Path firstLogDir) throws IOException {
        this.dir = Files.createDirectories(firstLogDir.resolve(DIR));
    }

    List<TopicImage> loadAll() throws IOException {
        List<TopicImage> topics = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(SUFFIX)).sorted().toList()) {
                String name = file.getFileName().toString();
                topics.add(read(name.substring(0, name.length() - SUFFIX.length()), file));
            }
        }
        return topics;
    }

    void save(TopicImage topic) throws IOException {
        Properties properties = new Properties();
        properties.setProperty("topic.id", TopicIds.toText(topic.id()));
        properties.setProperty("partitions", Integer.toString(topic.partitions().size()));
        for (PartitionImage partition : topic.partitions()) {
            properties.setProperty("partition." + partition.index() + ".replicas", partition.replicas().stream()
                    .map(String::valueOf).reduce((a, b) -> a + "," + b).orElseThrow());
        }
        TopicStore.writeAtomically(dir.resolve(topic.name() + SUFFIX), properties);
    }

    private static TopicImage read(String name, Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        int partitions = Integer.parseInt(properties.getProperty("partitions"));
        List<PartitionImage> images = new ArrayList<>();
        for (int partition = 0; partition < partitions; partition++) {
            List<Integer> replicas = Arrays.stream(properties.getProperty("partition." + partition + ".replicas")
                    .split(",")).map(Integer::valueOf).toList();
            images.add(TopicAssignments.newPartition(partition, replicas));
        }
        return new TopicImage(name, TopicIds.fromText(properties.getProperty("topic.id")), images);
    }
}
