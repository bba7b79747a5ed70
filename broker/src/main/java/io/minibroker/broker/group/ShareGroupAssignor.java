package io.minibroker.broker.group;

import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The share groups' server-side assignor, in the spirit of Kafka's SimpleAssignor ("simple"): every partition of a
 * subscribed topic goes to at least one of the members subscribing to it, and, since share groups deliver each
 * record to one member at a time whoever holds the partition, a partition may go to several members. Topic by
 * topic, with its subscribers in member-id order: with no more members than partitions the partitions are dealt out
 * round robin; with more members than partitions each member gets one, the partitions taken round robin, so that
 * every member has work. Not sticky as Kafka's is: a change of members may move partitions, which costs a share
 * group nothing to reconcile (no revocation), only the records a member held being released when it loses a
 * partition's session.
 *
 * <p>As Kafka's group coordinator gives its assignor (withTopicAssignablePartitionsMap), only the partitions whose
 * share state the group has initialized are assigned ({@link ShareGroupStatePartitions}): a member never fetches a
 * share partition before the share coordinator holds its state.
 */
final class ShareGroupAssignor {

    static final String NAME = "simple";

    private final TopicRegistry topics;
    /** The subscribed topics' {@link MetadataHash}es, which the group's covers. */
    private final TopicHashCache hashes;

    ShareGroupAssignor(TopicRegistry topics, TopicHashCache hashes) {
        this.topics = topics;
        this.hashes = hashes;
    }

    /** The subscribed topics that exist now, by id, with their partition counts. */
    Map<UUID, Integer> subscribedPartitions(ShareGroup group) {
        Map<UUID, Integer> partitions = new TreeMap<>();
        for (String name : group.subscribedTopicNames) {
            topics.known(name).ifPresent(topic -> partitions.put(topic.id(), topic.partitions()));
        }
        return partitions;
    }

    /**
     * The {@link MetadataHash} of the topics the members subscribe to that exist now, as Kafka's share group keeps it
     * (ModernGroup.computeMetadataHash over its subscribed topic names).
     */
    long metadataHash(ShareGroup group) {
        return hashes.ofTopicNames(group.subscribedTopicNames);
    }

    /**
     * Computes the group's target assignment at its group epoch, over the subscribed partitions whose state is
     * initialized; the caller holds its lock.
     */
    void computeTarget(ShareGroup group) {
        Map<String, Set<UUID>> subscriptions = new HashMap<>();
        for (ShareGroupMember member : group.members.values()) {
            Set<UUID> ids = new TreeSet<>();
            member.subscribedTopicNames.forEach(name -> topics.known(name).map(TopicMetadata::id).ifPresent(ids::add));
            subscriptions.put(member.memberId, ids);
        }
        group.targetAssignment.clear();
        group.targetAssignment.putAll(assign(subscriptions, assignable(group)));
        group.assignmentEpoch = group.groupEpoch;
        group.assignmentPending = false;
    }

    /**
     * Whether the target assignment holds exactly the assignable partitions (a group read back from the log may have
     * had partitions initialized after its target was written); the caller holds the group's lock.
     */
    static boolean targetIsCurrent(ShareGroup group) {
        Map<UUID, Set<Integer>> assigned = new HashMap<>();
        group.targetAssignment.values().forEach(target -> target.forEach((topicId, partitions) ->
                assigned.computeIfAbsent(topicId, id -> new TreeSet<>()).addAll(partitions)));
        Map<UUID, Set<Integer>> assignable = new HashMap<>();
        assignable(group).forEach((topicId, partitions) -> assignable.put(topicId, new TreeSet<>(partitions)));
        return group.members.isEmpty() || assignable.equals(assigned);
    }

    /**
     * The subscribed topics' partitions that may be assigned, by topic id: those initialized, within the topic's
     * partition count, in order; the caller holds the group's lock.
     */
    static Map<UUID, List<Integer>> assignable(ShareGroup group) {
        Map<UUID, List<Integer>> assignable = new HashMap<>();
        if (group.statePartitions == null) {
            return assignable;
        }
        group.subscribedPartitions.forEach((topicId, count) -> {
            List<Integer> partitions = group.statePartitions.initializedOf(topicId).stream()
                    .filter(partition -> partition < count).toList(); // a sorted set: in order
            if (!partitions.isEmpty()) {
                assignable.put(topicId, partitions);
            }
        });
        return assignable;
    }

    /**
     * The assignment of {@code partitions} (the assignable ones, in order, by topic id) to members subscribing to
     * topic ids, as the class comment describes: every member listed, with nothing if it subscribes to nothing
     * assignable.
     */
    static Map<String, Map<UUID, Set<Integer>>> assign(Map<String, Set<UUID>> subscriptions,
                                                       Map<UUID, List<Integer>> partitions) {
        Map<String, Map<UUID, Set<Integer>>> target = new HashMap<>();
        subscriptions.keySet().forEach(id -> target.put(id, new HashMap<>()));
        Map<UUID, List<String>> subscribers = new TreeMap<>();
        new TreeMap<>(subscriptions).forEach((memberId, topicIds) -> topicIds.forEach(topicId ->
                subscribers.computeIfAbsent(topicId, key -> new ArrayList<>()).add(memberId)));
        subscribers.forEach((topicId, members) -> {
            List<Integer> assignable = partitions.getOrDefault(topicId, List.of());
            int count = assignable.size();
            for (int i = 0; count > 0 && i < Math.max(count, members.size()); i++) {
                target.get(members.get(i % members.size())).computeIfAbsent(topicId, id -> new TreeSet<>())
                        .add(assignable.get(i % count));
            }
        });
        Map<String, Map<UUID, Set<Integer>>> result = new HashMap<>();
        target.forEach((memberId, assignment) -> result.put(memberId, TopicAssignment.copyOf(assignment)));
        return result;
    }
}
