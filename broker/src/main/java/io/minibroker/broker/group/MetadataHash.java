package io.minibroker.broker.group;

import com.dynatrace.hash4j.hashing.HashStream64;
import com.dynatrace.hash4j.hashing.Hashing;
import io.minibroker.broker.topic.TopicMetadata;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * KIP-1101's metadata hash, the value Kafka 4.3.1 keeps in a consumer group's metadata record (Utils.computeTopicHash
 * and computeGroupHash): what tells a coordinator, at a heartbeat or after loading the group, that the subscribed
 * topics changed since the group epoch was last bumped for them, even while no coordinator ran.
 *
 * <p>A topic's hash is XXH3-64 (hash4j, seed 0) over a magic byte 0, its id's two longs, its name, its partition
 * count, then for each partition its index and its replicas' racks ({@link ReplicaRacks}), sorted, each as its length
 * then the string. A group's is XXH3-64 over the hashes of its subscribed topics that exist, in the order of their
 * names; 0 when none exists. The same bytes in the same order as Kafka, so the same values.
 */
final class MetadataHash {

    /** Kafka's TOPIC_HASH_MAGIC_BYTE: the first byte of a topic's hashed bytes, which would change with the layout. */
    private static final byte TOPIC_HASH_MAGIC_BYTE = 0;

    private MetadataHash() {
    }

    /** A topic's hash; {@code racks} holds each partition's replicas' racks, by partition index. */
    static long ofTopic(TopicMetadata topic, List<List<String>> racks) {
        HashStream64 hash = Hashing.xxh3_64().hashStream()
                .putByte(TOPIC_HASH_MAGIC_BYTE)
                .putLong(topic.id().getMostSignificantBits())
                .putLong(topic.id().getLeastSignificantBits())
                .putString(topic.name())
                .putInt(topic.partitions());
        for (int partition = 0; partition < topic.partitions(); partition++) {
            hash.putInt(partition);
            List<String> sorted = new ArrayList<>(racks.get(partition));
            sorted.sort(Comparator.naturalOrder());
            for (String rack : sorted) {
                hash.putInt(rack.length()).putString(rack);
            }
        }
        return hash.getAsLong();
    }

    /** A group's hash over its subscribed topics that exist ({@link ConsumerGroup.SubscribedTopic#hash}). */
    static long ofGroup(Collection<ConsumerGroup.SubscribedTopic> topics) {
        List<ConsumerGroup.SubscribedTopic> byName = new ArrayList<>(topics);
        byName.sort(Comparator.comparing(ConsumerGroup.SubscribedTopic::name));
        GroupHash hash = new GroupHash();
        byName.forEach(topic -> hash.add(topic.hash()));
        return hash.value();
    }

    /**
     * A group's hash taken topic by topic, in the order of their names: XXH3-64 over their hashes, 0 if none. Kept and
     * {@link #reset} for the next group by a caller that computes many, one at a time.
     */
    static final class GroupHash {

        private final HashStream64 stream = Hashing.xxh3_64().hashStream();
        private boolean empty = true;

        GroupHash reset() {
            stream.reset();
            empty = true;
            return this;
        }

        void add(long topicHash) {
            stream.putLong(topicHash);
            empty = false;
        }

        long value() {
            return empty ? 0 : stream.getAsLong();
        }
    }
}
