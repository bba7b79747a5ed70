package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * The partitions one OffsetCommit or TxnOffsetCommit names, as both handlers sort them before asking the
 * coordinator (Kafka's KafkaApis does the same for both): a topic this broker or the cluster does not know is
 * answered at once, UNKNOWN_TOPIC_ID when the request names topics by id, else UNKNOWN_TOPIC_OR_PARTITION, and a
 * partition a known topic does not have UNKNOWN_TOPIC_OR_PARTITION either way (as Kafka 4.3's KafkaApis, which looks
 * the partition up by the name it resolved); the others' offsets go to the coordinator and their answers wait for its
 * decision.
 *
 * @param <P> the response's partition view of the request's API
 */
final class OffsetCommitPartitions<P> {

    private final TopicRegistry topics;
    private final boolean byId;
    /** Each known partition's answer, filled in once the coordinator has decided (by identity). */
    private final Map<P, TopicPartition> awaiting = new IdentityHashMap<>();
    private final Map<TopicPartition, OffsetStore.CommittedOffset> offsets = new LinkedHashMap<>();

    /** @param byId whether the request's version names topics by id */
    OffsetCommitPartitions(TopicRegistry topics, boolean byId) {
        this.topics = topics;
        this.byId = byId;
    }

    /** The topic a request's entry names: by its id or by its name, as the version does. */
    Optional<TopicMetadata> topic(UUID id, String name) {
        return byId ? topics.known(id) : topics.known(name);
    }

    /**
     * Keeps a partition's offset for the coordinator, its answer to fill in later; or, if {@code topic} is unknown
     * or has no such partition, returns the error that answers it now.
     *
     * @return NONE when kept
     */
    Errors add(Optional<TopicMetadata> topic, int partition, P answer, OffsetStore.CommittedOffset offset) {
        if (topic.isEmpty()) {
            return byId ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        if (!topic.get().hasPartition(partition)) {
            return Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        TopicPartition topicPartition = new TopicPartition(topic.get().name(), partition);
        awaiting.put(answer, topicPartition);
        offsets.put(topicPartition, offset);
        return Errors.NONE;
    }

    /** The offsets of the known partitions, in the request's order. */
    Map<TopicPartition, OffsetStore.CommittedOffset> offsets() {
        return offsets;
    }

    /** The same error for each known partition (the whole commit refused before the coordinator). */
    Map<TopicPartition, Errors> every(Errors error) {
        Map<TopicPartition, Errors> errors = new HashMap<>();
        offsets.keySet().forEach(partition -> errors.put(partition, error));
        return errors;
    }

    /** Fills in each known partition's answer with the coordinator's error for it. */
    void answer(Map<TopicPartition, Errors> errors, BiConsumer<P, Errors> setError) {
        awaiting.forEach((answer, partition) -> setError.accept(answer, errors.get(partition)));
    }
}
