package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * CreateTopics, including {@code validateOnly} and manual replica assignments (which on one node may only name
 * this node). Creation writes and fsyncs a few small files, so the broker runs this handler on its disk-io
 * thread ({@link DiskBoundHandler}), never on an event loop.
 */
public final class CreateTopicsHandler implements ApiHandler {

    private final TopicRegistry topics;
    private final LocalNode node;
    private final BrokerConfig brokerConfig;

    public CreateTopicsHandler(TopicRegistry topics, LocalNode node, BrokerConfig brokerConfig) {
        this.topics = topics;
        this.node = node;
        this.brokerConfig = brokerConfig;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        boolean validateOnly = (Boolean) request.body().get("validateOnly");
        return CompletableFuture.completedFuture(eachDistinctTopic(request.body(),
                brokerConfig.get(BrokerConfig.NUM_PARTITIONS), (topic, result) -> create(topic, result, validateOnly)));
    }

    /**
     * A CreateTopics response with an entry per requested topic, filled by {@code create} for each name asked
     * once; a name that appears twice is created in none of its copies and answered INVALID_REQUEST, as Kafka does.
     * If the others ask for more partitions in all than Kafka allows ({@link PartitionsPerRequest}), none is
     * created and each is answered POLICY_VIOLATION.
     */
    public static Struct eachDistinctTopic(Struct request, int defaultPartitions, BiConsumer<Struct, Struct> create) {
        Struct response = ApiKey.CREATE_TOPICS.response().newMessage();
        Set<String> seen = new HashSet<>();
        Set<String> duplicated = new HashSet<>();
        for (Struct topic : request.getStructs("Topics")) {
            if (!seen.add(topic.getString("Name"))) {
                duplicated.add(topic.getString("Name"));
            }
        }
        List<Struct> distinct = request.getStructs("Topics").stream()
                .filter(topic -> !duplicated.contains(topic.getString("Name"))).toList();
        boolean tooMany = PartitionsPerRequest.tooManyToCreate(distinct, defaultPartitions);
        for (Struct topic : request.getStructs("Topics")) {
            String name = topic.getString("Name");
            Struct result = response.addElement("Topics").set("Name", name);
            if (duplicated.contains(name)) {
                fail(result, Errors.INVALID_REQUEST, "Create topics request from client contains a duplicate topic");
            } else if (tooMany) {
                fail(result, Errors.POLICY_VIOLATION, PartitionsPerRequest.TOO_MANY_FOR_CREATE_TOPICS);
            } else {
                create.accept(topic, result);
            }
        }
        return response;
    }

    private void create(Struct topic, Struct result, boolean validateOnly) {
        int partitions = topic.getInt32("NumPartitions");
        int replicationFactor = topic.getInt16("ReplicationFactor");
        if (!topic.getStructs("Assignments").isEmpty()) {
            if (countsAlongsideAssignments(topic, result)) {
                return;
            }
            List<List<Integer>> replicas = replicasByPartition(topic, result);
            if (replicas == null) {
                return;
            }
            for (List<Integer> brokers : replicas) {
                if (brokers.isEmpty() || brokers.stream().anyMatch(id -> id != node.nodeId())) {
                    fail(result, Errors.INVALID_REPLICA_ASSIGNMENT,
                            "Replica assignment " + brokers + " names brokers other than " + node.nodeId());
                    return;
                }
            }
            partitions = replicas.size();
            replicationFactor = replicas.get(0).size();
        }
        Map<String, String> overrides = new LinkedHashMap<>();
        for (Struct config : topic.getStructs("Configs")) {
            overrides.put(config.getString("Name"), config.getString("Value"));
        }
        TopicRegistry.Outcome outcome = topics.create(topic.getString("Name"), partitions, replicationFactor,
                overrides, validateOnly);
        if (outcome.error() != Errors.NONE) {
            fail(result, outcome.error(), outcome.message());
            return;
        }
        result.set("TopicId", outcome.topic().id())
                .set("NumPartitions", outcome.topic().partitions())
                .set("ReplicationFactor", (short) 1);
        listConfigs(result, brokerConfig, outcome.topic().configOverrides());
    }

    /** Lists a created topic's configs in its result (v5+), as Kafka does: each with its value and source. */
    public static void listConfigs(Struct result, BrokerConfig brokerConfig, Map<String, String> overrides) {
        TopicConfig.effective(brokerConfig, overrides).forEach((key, value) -> result.addElement("Configs")
                .set("Name", key)
                .set("Value", value)
                .set("ReadOnly", false)
                .set("ConfigSource", overrides.containsKey(key)
                        ? ConfigResources.DYNAMIC_TOPIC_CONFIG : ConfigResources.DEFAULT_CONFIG)
                .set("IsSensitive", false));
    }

    /** Answers INVALID_REQUEST, and true, if a topic has both counts and replica assignments, as Kafka refuses. */
    public static boolean countsAlongsideAssignments(Struct topic, Struct result) {
        boolean both = !topic.getStructs("Assignments").isEmpty()
                && (topic.getInt32("NumPartitions") != -1 || topic.getInt16("ReplicationFactor") != -1);
        if (both) {
            fail(result, Errors.INVALID_REQUEST,
                    "Both numPartitions or replicationFactor and replicasAssignments were set.");
        }
        return both;
    }

    /**
     * A topic's manual replica assignments as one replica list per partition, partition 0's first: each names its
     * partition (PartitionIndex), in whatever order the request lists them (kafka-clients lists a map's entries).
     * Answers INVALID_REPLICA_ASSIGNMENT, and null, when a partition is named twice or the partitions are not
     * 0, 1, 2, ..., with Kafka's messages.
     */
    public static List<List<Integer>> replicasByPartition(Struct topic, Struct result) {
        Map<Integer, List<Integer>> byPartition = new TreeMap<>();
        for (Struct assignment : topic.getStructs("Assignments")) {
            int partition = assignment.getInt32("PartitionIndex");
            if (byPartition.put(partition, assignment.getList("BrokerIds")) != null) {
                fail(result, Errors.INVALID_REPLICA_ASSIGNMENT,
                        "Found multiple manual partition assignments for partition " + partition);
                return null;
            }
        }
        for (int partition = 0; partition < byPartition.size(); partition++) {
            if (!byPartition.containsKey(partition)) {
                fail(result, Errors.INVALID_REPLICA_ASSIGNMENT,
                        "partitions should be a consecutive 0-based integer sequence");
                return null;
            }
        }
        return List.copyOf(byPartition.values());
    }

    public static void fail(Struct result, Errors error, String message) {
        result.set("ErrorCode", error.code()).set("ErrorMessage", message);
    }
}
