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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The controller's topics on disk, so that they outlive its restarts: one properties file per topic under
 * {@value #DIR} in the controller node's first log directory, with the topic id and each partition's replicas,
 * ISR, leader, leader epoch and partition epoch, the replicas being added and removed while it is reassigned, and
 * its config overrides ({@code config.<key>}).
 */
public final class AssignmentStore {

    /** A topic as saved: its image and each partition's epoch (the version of its ISR). */
    record StoredTopic(TopicImage topic, int[] partitionEpochs) {
    }

    /** The controller's directory in its first log directory: its topics, the cluster's ACLs and SCRAM credentials. */
    public static final String DIR = ".minibroker-controller";
    private static final String SUFFIX = ".properties";
    private static final String CONFIG_PREFIX = "config.";

    private final Path dir;

    AssignmentStore(Path firstLogDir) throws IOException {
        this.dir = Files.createDirectories(firstLogDir.resolve(DIR));
    }

    List<StoredTopic> loadAll() throws IOException {
        List<StoredTopic> topics = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(SUFFIX)).sorted().toList()) {
                String name = file.getFileName().toString();
                topics.add(read(name.substring(0, name.length() - SUFFIX.length()), file));
            }
        }
        return topics;
    }

    void save(TopicImage topic, int[] partitionEpochs) throws IOException {
        Properties properties = new Properties();
        properties.setProperty("topic.id", TopicIds.toText(topic.id()));
        properties.setProperty("partitions", Integer.toString(topic.partitions().size()));
        for (PartitionImage partition : topic.partitions()) {
            properties.setProperty("partition." + partition.index() + ".replicas", join(partition.replicas()));
            properties.setProperty("partition." + partition.index() + ".isr", join(partition.isr()));
            properties.setProperty("partition." + partition.index() + ".leader", Integer.toString(partition.leader()));
            properties.setProperty("partition." + partition.index() + ".leader.epoch",
                    Integer.toString(partition.leaderEpoch()));
            properties.setProperty("partition." + partition.index() + ".epoch",
                    Integer.toString(partitionEpochs[partition.index()]));
            if (partition.reassigning()) {
                properties.setProperty("partition." + partition.index() + ".adding", join(partition.addingReplicas()));
                properties.setProperty("partition." + partition.index() + ".removing",
                        join(partition.removingReplicas()));
            }
        }
        topic.configs().forEach((key, value) -> properties.setProperty(CONFIG_PREFIX + key, value));
        TopicStore.writeAtomically(dir.resolve(topic.name() + SUFFIX), properties);
    }

    void delete(String name) throws IOException {
        Files.deleteIfExists(dir.resolve(name + SUFFIX));
    }

    private static String join(List<Integer> ids) {
        return ids.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElse("");
    }

    private static List<Integer> ids(String text) {
        return Arrays.stream(text.split(",")).filter(id -> !id.isEmpty()).map(Integer::valueOf).toList();
    }

    private static StoredTopic read(String name, Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        int partitions = Integer.parseInt(properties.getProperty("partitions"));
        List<PartitionImage> images = new ArrayList<>();
        int[] epochs = new int[partitions];
        for (int partition = 0; partition < partitions; partition++) {
            String prefix = "partition." + partition + ".";
            List<Integer> replicas = ids(properties.getProperty(prefix + "replicas"));
            List<Integer> isr = ids(properties.getProperty(prefix + "isr", join(replicas)));
            int leader = Integer.parseInt(properties.getProperty(prefix + "leader", replicas.get(0).toString()));
            int leaderEpoch = Integer.parseInt(properties.getProperty(prefix + "leader.epoch", "0"));
            images.add(new PartitionImage(partition, leader, leaderEpoch, replicas, isr, List.of(),
                    ids(properties.getProperty(prefix + "adding", "")),
                    ids(properties.getProperty(prefix + "removing", ""))));
            epochs[partition] = Integer.parseInt(properties.getProperty(prefix + "epoch", "0"));
        }
        Map<String, String> configs = new HashMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith(CONFIG_PREFIX)) {
                configs.put(key.substring(CONFIG_PREFIX.length()), properties.getProperty(key));
            }
        }
        return new StoredTopic(new TopicImage(name, TopicIds.fromText(properties.getProperty("topic.id")), images,
                configs), epochs);
    }
}
