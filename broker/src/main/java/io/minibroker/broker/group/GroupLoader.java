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
    private final StreamsGroups streamsGroups;
    private final StreamsGroupCoordinator streams;

    GroupLoader(ClassicGroups groups, OffsetStore offsets, ClassicGroupCoordinator membership,
                CoordinatorThread thread, ConsumerGroups consumerGroups, ConsumerGroupCoordinator consumers,
                ShareGroups shareGroups, ShareGroupCoordinator shares, StreamsGroups streamsGroups,
                StreamsGroupCoordinator streams) {
        this.streamsGroups = streamsGroups;
        this.streams = streams;
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
        Replays replays = new Replays();
        offsets.loadAll(replays);
        restore(replays);
        for (String groupId : offsets.groupIds()) {
            if (isClassicOrUnknown(groupId)) {
                groups.getOrCreate(groupId);
            }
        }
    }

    /**
     * Leading a partition of the offsets topic: replays it on the coordinator's thread, then serves its groups. One
     * already loaded here (led on in a new term) keeps its groups, their members and parked joins.
     */
    void onLeading(TopicPartition partition, int leaderEpoch) {
        if (!partition.topic().equals(OffsetsTopic.NAME)) {
            return;
        }
        if (groups.coordinated().ledAgain(partition.partition(), leaderEpoch)) {
            LOG.info("Still coordinating the groups of {}-{} (leader epoch {})", OffsetsTopic.NAME,
                    partition.partition(), leaderEpoch);
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
            Replays replays = new Replays();
            offsets.loadPartition(partition, replays);
            restore(replays);
            for (String groupId : offsets.groupIds()) {
                if (groups.partitionFor(groupId) == partition && isClassicOrUnknown(groupId)) {
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

    /** Whether the group with commits is none of the consumer, share or streams groups read. */
    private boolean isClassicOrUnknown(String groupId) {
        return consumerGroups.get(groupId) == null && shareGroups.get(groupId) == null
                && streamsGroups.get(groupId) == null;
    }

    /**
     * What a replay finds: per group, the last classic metadata record (a tombstone forgets the group's), and the
     * consumer, share and streams groups' records, each handed to its own replay.
     */
    private static final class Replays implements OffsetsTopic.GroupSink {
        private final Map<String, GroupMetadataRecord.StoredGroup> stored = new HashMap<>();
        private final ConsumerGroupRecords.Replay consumers = new ConsumerGroupRecords.Replay();
        private final ShareGroupRecords.Replay shares = new ShareGroupRecords.Replay();
        private final StreamsGroupRecords.Replay streams = new StreamsGroupRecords.Replay();

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
            consumers.apply(type, key, value);
        }

        @Override
        public void shareGroupRecord(short type, ByteBuf key, ByteBuf value) {
            shares.apply(type, key, value);
        }

        @Override
        public void streamsGroupRecord(short type, ByteBuf key, ByteBuf value) {
            streams.apply(type, key, value);
        }
    }

    /** Recreates each group a replay read, classic ones from their last metadata record, as Kafka loads them. */
    private void restore(Replays replays) {
        replays.stored.forEach((groupId, group) -> membership.restore(ClassicGroup.restored(groupId, group)));
        replays.consumers.groups().values().forEach(consumers::restore);
        replays.shares.groups().values().forEach(shares::restore);
        replays.streams.groups().values().forEach(streams::restore);
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
        for (StreamsGroup group : streamsGroups.all()) {
            if (groups.partitionFor(group.groupId) == partition) {
                streams.unload(group);
            }
        }
        offsets.unload(index -> index == partition);
    }
}
