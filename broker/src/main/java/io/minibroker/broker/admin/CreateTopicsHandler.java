package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView.CreatableReplicaAssignment;
import io.minibroker.protocol.message.view.CreateTopicsRequestView.CreatableTopic;
import io.minibroker.protocol.message.view.CreateTopicsRequestView.CreatableTopicConfig;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView.CreatableTopicResult;
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
        CreateTopicsRequestView create = new CreateTopicsRequestView(request.body());
        return CompletableFuture.completedFuture(eachDistinctTopic(create, brokerConfig.get(BrokerConfig.NUM_PARTITIONS),
                (topic, result) -> create(topic, result, create.validateOnly())).struct());
    }

    /**
     * A CreateTopics response with an entry per requested topic, filled by {@code create} for each name asked
     * once; a name that appears twice is created in none of its copies and answered INVALID_REQUEST, as Kafka does.
     * If the others ask for more partitions in all than Kafka allows ({@link PartitionsPerRequest}), none is
     * created and each is answered POLICY_VIOLATION.
     */
    public static CreateTopicsResponseView eachDistinctTopic(CreateTopicsRequestView request, int defaultPartitions,
                                                             BiConsumer<CreatableTopic, CreatableTopicResult> create) {
        CreateTopicsResponseView response = new CreateTopicsResponseView();
        Set<String> seen = new HashSet<>();
        Set<String> duplicated = new HashSet<>();
        for (CreatableTopic topic : request.topics()) {
            if (!seen.add(topic.name())) {
                duplicated.add(topic.name());
            }
        }
        List<CreatableTopic> distinct = request.topics().stream()
                .filter(topic -> !duplicated.contains(topic.name())).toList();
        boolean tooMany = PartitionsPerRequest.tooManyToCreate(distinct, defaultPartitions);
        for (CreatableTopic topic : request.topics()) {
            String name = topic.name();
            CreatableTopicResult result = response.addTopic().name(name);
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

    private void create(CreatableTopic topic, CreatableTopicResult result, boolean validateOnly) {
        int partitions = topic.numPartitions();
        int replicationFactor = topic.replicationFactor();
        if (!topic.assignments().isEmpty()) {
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
        for (CreatableTopicConfig config : topic.configs()) {
            overrides.put(config.name(), config.value());
        }
        TopicRegistry.Outcome outcome = topics.create(topic.name(), partitions, replicationFactor,
                overrides, validateOnly);
        if (outcome.error() != Errors.NONE) {
            fail(result, outcome.error(), outcome.message());
            return;
        }
        result.topicId(outcome.topic().id())
                .numPartitions(outcome.topic().partitions())
                .replicationFactor((short) 1);
        listConfigs(result, brokerConfig, outcome.topic().configOverrides());
    }

    /** Lists a created topic's configs in its result (v5+), as Kafka does: each with its value and source. */
    public static void listConfigs(CreatableTopicResult result, BrokerConfig brokerConfig, Map<String, String> overrides) {
        TopicConfig.effective(brokerConfig, overrides).forEach((key, value) -> result.addConfig()
                .name(key)
                .value(value)
                .readOnly(false)
                .configSource(overrides.containsKey(key)
                        ? ConfigResources.DYNAMIC_TOPIC_CONFIG : ConfigResources.DEFAULT_CONFIG)
                .isSensitive(false));
    }

    /** Answers INVALID_REQUEST, and true, if a topic has both counts and replica assignments, as Kafka refuses. */
    public static boolean countsAlongsideAssignments(CreatableTopic topic, CreatableTopicResult result) {
        boolean both = !topic.assignments().isEmpty()
                && (topic.numPartitions() != -1 || topic.replicationFactor() != -1);
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
    public static List<List<Integer>> replicasByPartition(CreatableTopic topic, CreatableTopicResult result) {
        Map<Integer, List<Integer>> byPartition = new TreeMap<>();
        for (CreatableReplicaAssignment assignment : topic.assignments()) {
            int partition = assignment.partitionIndex();
            if (byPartition.put(partition, assignment.brokerIds()) != null) {
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

    public static void fail(CreatableTopicResult result, Errors error, String message) {
        result.errorCode(error.code()).errorMessage(message);
    }
}
