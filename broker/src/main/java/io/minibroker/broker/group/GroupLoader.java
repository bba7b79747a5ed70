package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;
import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * Loads groups from {@code __consumer_offsets} and forgets them, as Kafka's coordinator runtime loads and unloads
 * its partitions. A single node replays the whole topic on start ({@link #loadAll}). In a cluster, as in Kafka, a
 * group belongs to the leader of its partition of the topic: when this broker comes to lead such a partition it
 * replays it on the coordinator's thread and then serves its groups; when it stops leading it, it forgets them,
 * answering their parked joins and syncs NOT_COORDINATOR (Kafka's onResignation) so that their clients find the new
 * coordinator. Meanwhile requests for those groups get COORDINATOR_LOAD_IN_PROGRESS or NOT_COORDINATOR
 * ({@link CoordinatedPartitions}).
 *
 * <p>Each group comes back as its last metadata record left it, Stable with its members (their session timeouts
 * started afresh) or Empty, restored straight into that state ({@link ClassicGroup#restored}), so that after a
 * restart or a failover its members carry on with their generation and assignment instead of rebalancing; a group
 * that only has commits is listed as Empty until a member joins. Loads and unloads run on the coordinator's thread
 * and take one group's lock at a time.
 */
final class GroupLoader {

    private static final Logger LOG = LoggerFactory.getLogger(GroupLoader.class);

    private final ClassicGroups groups;
    private final OffsetStore offsets;
    private final ClassicGroupCoordinator membership;
    private final CoordinatorThread thread;
    private final ConsumerGroups consumerGroups;
    private final ConsumerGroupCoordinator consumers;
    private final ShareGroups shareGroups;
    private final ShareGroupCoordinator shares;

    GroupLoader(ClassicGroups groups, OffsetStore offsets, ClassicGroupCoordinator membership,
                CoordinatorThread thread, ConsumerGroups consumerGroups, ConsumerGroupCoordinator consumers,
                ShareGroups shareGroups, ShareGroupCoordinator shares) {
        this.shareGroups = shareGroups;
        this.shares = shares;
        this.consumerGroups = consumerGroups;
        this.consumers = consumers;
        this.groups = groups;
        this.offsets = offsets;
        this.membership = membership;
        this.thread = thread;
    }

    /** A single node's start: replays every partition of the offsets topic, on the caller's thread. */
    void loadAll() {
        Map<String, GroupMetadataRecord.StoredGroup> stored = new HashMap<>();
        ConsumerGroupRecords.Replay replay = new ConsumerGroupRecords.Replay();
        ShareGroupRecords.Replay shareReplay = new ShareGroupRecords.Replay();
        offsets.loadAll(lastRecordOf(stored, replay, shareReplay));
        restore(stored);
        replay.groups().values().forEach(consumers::restore);
        shareReplay.groups().values().forEach(shares::restore);
        for (String groupId : offsets.groupIds()) {
            if (consumerGroups.get(groupId) == null && shareGroups.get(groupId) == null) {
                groups.getOrCreate(groupId);
            }
        }
    }

    /** Leading a partition of the offsets topic: replays it on the coordinator's thread, then serves its groups. */
    void onLeading(TopicPartition partition, int leaderEpoch) {
        if (!partition.topic().equals(OffsetsTopic.NAME)) {
            return;
        }
        groups.coordinated().loading(partition.partition(), leaderEpoch);
        thread.run(() -> load(partition.partition(), leaderEpoch));
    }

    /** No longer leading a partition of the offsets topic: its groups are forgotten here. */
    void onResigned(TopicPartition partition) {
        if (!partition.topic().equals(OffsetsTopic.NAME)) {
            return;
        }
        groups.coordinated().resigned(partition.partition());
        thread.run(() -> unload(partition.partition()));
    }

    private void load(int partition, int leaderEpoch) {
        CoordinatedPartitions coordinated = groups.coordinated();
        if (!coordinated.leads(partition)) {
            return; // resigned before the load could start
        }
        unload(partition); // whatever an earlier term left (its commits are in the log too)
        try {
            Map<String, GroupMetadataRecord.StoredGroup> stored = new HashMap<>();
            ConsumerGroupRecords.Replay replay = new ConsumerGroupRecords.Replay();
            ShareGroupRecords.Replay shareReplay = new ShareGroupRecords.Replay();
            offsets.loadPartition(partition, lastRecordOf(stored, replay, shareReplay));
            restore(stored);
            replay.groups().values().forEach(consumers::restore);
            shareReplay.groups().values().forEach(shares::restore);
            for (String groupId : offsets.groupIds()) {
                if (groups.partitionFor(groupId) == partition && consumerGroups.get(groupId) == null
                        && shareGroups.get(groupId) == null) {
                    groups.getOrCreate(groupId);
                }
            }
        } catch (RuntimeException e) {
            // As Kafka 3's coordinator did: the error is logged and the partition served with what was read. Kafka 4's
            // runtime marks it FAILED instead and answers NOT_COORDINATOR until leadership moves, which leaves every
            // group of it without a coordinator for the whole leader epoch; serving what was read keeps them working.
            LOG.error("Could not read all of {}-{}; coordinating its groups from what was read", OffsetsTopic.NAME,
                    partition, e);
        } finally {
            if (coordinated.loaded(partition, leaderEpoch)) {
                LOG.info("Coordinating the groups of {}-{} (leader epoch {})", OffsetsTopic.NAME, partition,
                        leaderEpoch);
            }
        }
    }

    /**
     * Keeps, per group, the last metadata record a replay finds (a tombstone forgets the group's), and hands
     * consumer and share groups' records to their replays.
     */
    private static OffsetsTopic.GroupSink lastRecordOf(Map<String, GroupMetadataRecord.StoredGroup> stored,
                                                       ConsumerGroupRecords.Replay replay,
                                                       ShareGroupRecords.Replay shareReplay) {
        return new OffsetsTopic.GroupSink() {
            @Override
            public void stored(String groupId, GroupMetadataRecord.StoredGroup group) {
                if (group == null) {
                    stored.remove(groupId);
                } else {
                    stored.put(groupId, group);
                }
            }

            @Override
            public void consumerGroupRecord(short type, ByteBuf key, ByteBuf value) {
                replay.apply(type, key, value);
            }

            @Override
            public void shareGroupRecord(short type, ByteBuf key, ByteBuf value) {
                shareReplay.apply(type, key, value);
            }
        };
    }

    /** Recreates each group from its last metadata record, as Kafka loads it. */
    private void restore(Map<String, GroupMetadataRecord.StoredGroup> stored) {
        stored.forEach((groupId, group) -> membership.restore(ClassicGroup.restored(groupId, group)));
    }

    /**
     * Forgets the groups of a partition and their commits: each group is Dead, its parked joins and syncs answered
     * NOT_COORDINATOR and its members' session timeouts ended, as Kafka's onResignation does.
     */
    private void unload(int partition) {
        for (ClassicGroup group : groups.all()) {
            if (groups.partitionFor(group.groupId) == partition) {
                membership.unload(group);
            }
        }
        for (ConsumerGroup group : consumerGroups.all()) {
            if (groups.partitionFor(group.groupId) == partition) {
                consumers.unload(group);
            }
        }
        for (ShareGroup group : shareGroups.all()) {
            if (groups.partitionFor(group.groupId) == partition) {
                shares.unload(group);
            }
        }
        offsets.unload(index -> index == partition);
    }
}
