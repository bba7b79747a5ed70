package io.minibroker.broker.group;

import io.minibroker.broker.topic.TopicMetadata;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.UUID;
import java.util.function.Function;

/**
 * The coordinator's topic hashes ({@link MetadataHash#ofTopic}), Kafka's GroupMetadataManager topicHashCache: one per
 * topic, shared by the consumer, share and streams groups, computed again only when the topic changes. Consumer groups
 * compare theirs at every heartbeat, share and streams groups compute theirs there, and a topic's hash walks all its
 * partitions' replicas' racks: without the cache that cost grows with partitions times heartbeats.
 *
 * <p>A hash is kept with what it was computed from: the topic's id and partition count (its name is the key) and the
 * {@link ReplicaRacks#source} of its racks. A look-up that finds any of them changed (partitions added, the topic
 * deleted and created again under its name, a cluster broker's newer image, which may have moved a replica or changed
 * a broker's rack) computes it again. Kafka drops a topic's hash when an image changes that topic; a cluster broker
 * here drops them all with each image, whatever changed, so each subscribed topic is hashed once per image rather than
 * once per heartbeat. A deleted topic's hash is {@link #forget}ed, as Kafka forgets it.
 *
 * <p>Not thread-safe: read and written on the coordinator's thread only, as every heartbeat, member expiry and group
 * load runs there (a single node's start loads its groups on the thread that builds the coordinator, before that
 * thread runs anything, which the executor's hand-over orders after it).
 */
final class TopicHashCache {

    /** A topic's hash and what it was computed from. */
    private record Entry(UUID id, int partitions, Object racksSource, long hash) {
    }

    private final Function<String, Optional<TopicMetadata>> known;
    private final ReplicaRacks racks;
    private final Map<String, Entry> byName = new HashMap<>();
    /** Reused for every group's hash: only the coordinator's thread computes them. */
    private final MetadataHash.GroupHash groupHash = new MetadataHash.GroupHash();

    /**
     * @param known the topic of a name, if any (a broker's own, or one its cluster's image has)
     * @param racks the racks of the topics' replicas, which their hashes cover
     */
    TopicHashCache(Function<String, Optional<TopicMetadata>> known, ReplicaRacks racks) {
        this.known = known;
        this.racks = racks;
    }

    /** The topic's hash: kept if the topic and its racks are as they were when it was computed, else computed now. */
    long of(TopicMetadata topic) {
        Object source = racks.source(); // read before the racks: a newer one meanwhile is seen at the next look-up
        Entry entry = byName.get(topic.name());
        if (entry != null && entry.racksSource == source && entry.partitions == topic.partitions()
                && entry.id.equals(topic.id())) {
            return entry.hash;
        }
        long hash = MetadataHash.ofTopic(topic, racks.of(topic));
        byName.put(topic.name(), new Entry(topic.id(), topic.partitions(), source, hash));
        return hash;
    }

    /**
     * A group's hash over the topics of these names that exist now (a share group's subscribed topics, a streams
     * group's required ones: Kafka's ModernGroup and StreamsGroup computeMetadataHash); the names in their natural
     * order, as the group's hash takes its topics.
     */
    long ofTopicNames(SortedSet<String> names) {
        groupHash.reset();
        for (String name : names) {
            Optional<TopicMetadata> topic = known.apply(name);
            if (topic.isPresent()) {
                groupHash.add(of(topic.get()));
            }
        }
        return groupHash.value();
    }

    /** Drops the hashes of these deleted topics (one created again under a name since keeps its own). */
    void forget(Collection<TopicMetadata> deleted) {
        for (TopicMetadata topic : deleted) {
            byName.computeIfPresent(topic.name(), (name, entry) -> entry.id.equals(topic.id()) ? null : entry);
        }
    }
}
