package io.minibroker.broker.group;

import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicAutoCreation;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;

import java.util.Optional;
import java.util.Set;

/** Where FindCoordinator sends a key's clients: a broker's endpoint on the listener they asked on, or an error. */
@FunctionalInterface
public interface CoordinatorLocator {

    /** A coordinator's address, or an error (COORDINATOR_NOT_AVAILABLE, ...) and no address. */
    record Coordinator(Errors error, int nodeId, String host, int port) {
        static Coordinator notAvailable() {
            return failed(Errors.COORDINATOR_NOT_AVAILABLE);
        }

        static Coordinator failed(Errors error) {
            return new Coordinator(error, -1, "", -1);
        }
    }

    Coordinator locate(String key, String listenerName);

    /**
     * The locators FindCoordinator asks, one per key type: groups (0), transactional ids (1) and share partitions (2,
     * KIP-932's {@code groupId:topicId:partition}, asked by share-partition leaders for the share coordinator).
     */
    record ByKeyType(CoordinatorLocator groups, CoordinatorLocator transactions, CoordinatorLocator shareStates) {
    }

    /**
     * Where the leaders of a coordinators' topic's partitions are ({@code __consumer_offsets}',
     * {@code __transaction_state}'s), as this broker knows them now.
     */
    @FunctionalInterface
    interface OffsetsTopicLeaders {
        /**
         * The leader of the key's partition at its endpoint on the listener (COORDINATOR_NOT_AVAILABLE while it
         * has none, or none on that listener), or empty while the topic does not exist.
         */
        Optional<Coordinator> leaderFor(String key, String listenerName);
    }

    /**
     * Groups' coordinators as Kafka's KafkaApis.getCoordinator finds them, on a single node and in a cluster alike:
     * a group's is the leader of its partition of {@code __consumer_offsets}; while that topic does not exist, the
     * request has it created and is answered COORDINATOR_NOT_AVAILABLE, and the client asks again.
     */
    static CoordinatorLocator forGroups(OffsetsTopicLeaders leaders, TopicAutoCreation creation) {
        return leaderOf(OffsetsTopic.NAME, leaders, creation);
    }

    /**
     * Transactional ids' coordinators, by the same rule over {@code __transaction_state}: the leader of the id's
     * partition, the topic created on the first FindCoordinator that needs it.
     */
    static CoordinatorLocator forTransactions(OffsetsTopicLeaders leaders, TopicAutoCreation creation) {
        return leaderOf(InternalTopics.TRANSACTION_STATE, leaders, creation);
    }

    /**
     * Share partitions' coordinators (the share coordinator's), by the same rule over {@code __share_group_state}; the
     * key given is the share partition's coordinator key as {@code SharePartitionKey.coordinatorKey()} writes it.
     */
    static CoordinatorLocator forShareStates(OffsetsTopicLeaders leaders, TopicAutoCreation creation) {
        return leaderOf(InternalTopics.SHARE_GROUP_STATE, leaders, creation);
    }

    private static CoordinatorLocator leaderOf(String topic, OffsetsTopicLeaders leaders, TopicAutoCreation creation) {
        return (key, listenerName) -> leaders.leaderFor(key, listenerName).orElseGet(() -> {
            creation.create(Set.of(topic)); // answered whatever comes of it: the client retries
            return Coordinator.notAvailable();
        });
    }

    /** A single node leads every partition of the offsets topic, once it has one. */
    static OffsetsTopicLeaders singleNode(LocalNode node, TopicRegistry topics) {
        return singleNode(node, topics, OffsetsTopic.NAME);
    }

    /** A single node leads every partition of a coordinators' topic ({@code topic}), once it has one. */
    static OffsetsTopicLeaders singleNode(LocalNode node, TopicRegistry topics, String topic) {
        return (key, listenerName) -> topics.get(topic).map(found -> thisNode(node, listenerName));
    }

    private static Coordinator thisNode(LocalNode node, String listenerName) {
        return node.endpointFor(listenerName)
                .map(endpoint -> new Coordinator(Errors.NONE, node.nodeId(), endpoint.host(), endpoint.port()))
                .orElseGet(Coordinator::notAvailable);
    }
}
