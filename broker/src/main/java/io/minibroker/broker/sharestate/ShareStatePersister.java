package io.minibroker.broker.sharestate;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.group.ClusterOffsetsTopicLeaders;
import io.minibroker.broker.group.CoordinatorLocator;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.share.Persister;
import io.minibroker.broker.share.RecordState;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.broker.share.ShareStateSnapshot;
import io.minibroker.broker.topic.TopicAutoCreation;
import io.minibroker.broker.transaction.NodeChannels;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.DeleteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.DeleteShareGroupStateResponseView;
import io.minibroker.protocol.message.view.InitializeShareGroupStateRequestView;
import io.minibroker.protocol.message.view.InitializeShareGroupStateResponseView;
import io.minibroker.protocol.message.view.ReadShareGroupStateRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateResponseView;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryResponseView;
import io.minibroker.protocol.message.view.WriteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.WriteShareGroupStateResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The share-partition leader's side of the share coordinator (Kafka's DefaultStatePersister): a share partition's
 * state is read from and written to the coordinator of its key, the leader of its partition of
 * {@code __share_group_state} — this node's {@link ShareCoordinator} directly, another node's with
 * ReadShareGroupState, WriteShareGroupState and DeleteShareGroupState on the inter-broker listener. In a cluster
 * with no such topic yet it is created through the controller (as Kafka's FindCoordinator for a share key has it
 * created) and the request fails with COORDINATOR_NOT_AVAILABLE, for the leader to try again. Requests to one node
 * go in order, so a share partition's writes reach its coordinator in the order they were made.
 */
public final class ShareStatePersister implements Persister, AutoCloseable {

    /**
     * The versions Kafka 4.3.1's persister sends (the latest each API has there, which every node here serves):
     * Read, Initialize and Delete v0; Write v1 and ReadShareGroupStateSummary v1, which carry the deliveries
     * completed from the start offset on (KIP-1226's DeliveryCompleteCount).
     */
    private static final short VERSION = 0;
    private static final short WRITE_VERSION = 1;
    private static final short SUMMARY_VERSION = 1;

    private final int nodeId;
    private final ShareCoordinator local;
    /** A cluster's leaders of the topic's partitions, with its channels to other nodes; both null on a single node. */
    private final ClusterOffsetsTopicLeaders leaders;
    private final NodeChannels channels;
    private final String listenerName;
    private volatile TopicAutoCreation creation = names -> { };

    /** Where a key's coordinator is: this node (remote null), another, or nowhere now (an error). */
    private record Target(Errors error, BrokerNode remote) {
        static final Target HERE = new Target(Errors.NONE, null);
    }

    /** A single node's: its own coordinator holds every share partition's state. */
    public static ShareStatePersister singleNode(ShareCoordinator local) {
        return new ShareStatePersister(-1, local, null, null, null);
    }

    /** A cluster broker's: the coordinators are the topic's partitions' leaders in {@code image}. */
    public static ShareStatePersister cluster(int nodeId, ShareCoordinator local, Supplier<ClusterMetadata> image,
                                              NodeChannels channels, String listenerName) {
        return new ShareStatePersister(nodeId, local, image, channels, listenerName);
    }

    private ShareStatePersister(int nodeId, ShareCoordinator local, Supplier<ClusterMetadata> image,
                                NodeChannels channels, String listenerName) {
        this.nodeId = nodeId;
        this.local = local;
        this.leaders = image == null ? null : new ClusterOffsetsTopicLeaders(image, ShareCoordinator.NAME);
        this.channels = channels;
        this.listenerName = listenerName;
    }

    /** How {@code __share_group_state} is created when missing: known once the broker's APIs are. */
    public void createTopicWith(TopicAutoCreation autoCreation) {
        this.creation = autoCreation;
    }

    @Override
    public CompletionStage<State> read(SharePartitionKey key, int leaderEpoch) {
        Target target = locate(key);
        if (target.error() != Errors.NONE) {
            return failed(target.error());
        }
        if (target.remote() == null) {
            return local.read(key, leaderEpoch).thenApply(read -> {
                check(read.error());
                return new State(read.snapshot(), read.stateEpoch());
            });
        }
        ReadShareGroupStateRequestView request = new ReadShareGroupStateRequestView().groupId(key.groupId());
        request.addTopic().topicId(key.topicId()).addPartition().partition(key.partition()).leaderEpoch(leaderEpoch);
        return send(target.remote(), ApiKey.READ_SHARE_GROUP_STATE, VERSION, request.struct()).thenApply(response -> {
            ReadShareGroupStateResponseView.PartitionResult answer = new ReadShareGroupStateResponseView(response)
                    .results().get(0).partitions().get(0);
            check(Errors.forCode(answer.errorCode()));
            if (answer.startOffset() < 0) {
                return new State(null, answer.stateEpoch());
            }
            List<ShareStateSnapshot.StateBatch> batches = new ArrayList<>();
            for (ReadShareGroupStateResponseView.StateBatch batch : answer.stateBatches()) {
                batches.add(new ShareStateSnapshot.StateBatch(batch.firstOffset(), batch.lastOffset(),
                        RecordState.forId(batch.deliveryState()), batch.deliveryCount()));
            }
            return new State(new ShareStateSnapshot(answer.startOffset(), batches), answer.stateEpoch());
        });
    }

    @Override
    public CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot, int leaderEpoch,
                                       int stateEpoch) {
        Target target = locate(key);
        if (target.error() != Errors.NONE) {
            return failed(target.error());
        }
        if (target.remote() == null) {
            return local.write(key, snapshot, leaderEpoch, stateEpoch, snapshot.deliveryCompleteCount())
                    .thenAccept(written -> check(written.error()));
        }
        WriteShareGroupStateRequestView request = new WriteShareGroupStateRequestView().groupId(key.groupId());
        WriteShareGroupStateRequestView.PartitionData partition = request.addTopic().topicId(key.topicId())
                .addPartition().partition(key.partition()).stateEpoch(stateEpoch).leaderEpoch(leaderEpoch)
                .startOffset(snapshot.startOffset()).deliveryCompleteCount(snapshot.deliveryCompleteCount());
        for (ShareStateSnapshot.StateBatch batch : snapshot.batches()) {
            partition.addStateBatche().firstOffset(batch.firstOffset()).lastOffset(batch.lastOffset())
                    .deliveryState(batch.state().id()).deliveryCount((short) batch.deliveryCount());
        }
        return send(target.remote(), ApiKey.WRITE_SHARE_GROUP_STATE, WRITE_VERSION, request.struct()).thenAccept(response ->
                check(Errors.forCode(new WriteShareGroupStateResponseView(response).results().get(0).partitions()
                        .get(0).errorCode())));
    }

    /**
     * One InitializeShareGroupState per share coordinator for all the partitions it holds (its own coordinator's,
     * directly, partition by partition), as Kafka's persister batches a group's partitions per coordinator node;
     * every partition's answer is checked: the first error fails the whole, as Kafka's group coordinator takes them.
     */
    @Override
    public CompletionStage<Void> initialize(String groupId, Map<UUID, Set<Integer>> partitions, int stateEpoch,
                                            long startOffset) {
        Map<Target, Map<UUID, Set<Integer>>> byCoordinator = new LinkedHashMap<>();
        partitions.forEach((topicId, numbers) -> numbers.forEach(partition ->
                byCoordinator.computeIfAbsent(locate(new SharePartitionKey(groupId, topicId, partition)),
                                target -> new LinkedHashMap<>())
                        .computeIfAbsent(topicId, id -> new TreeSet<>()).add(partition)));
        List<CompletableFuture<Void>> initialized = new ArrayList<>();
        byCoordinator.forEach((target, held) -> initialized.add(
                initialize(target, groupId, held, stateEpoch, startOffset).toCompletableFuture()));
        return CompletableFuture.allOf(initialized.toArray(CompletableFuture[]::new));
    }

    private CompletionStage<Void> initialize(Target target, String groupId, Map<UUID, Set<Integer>> partitions,
                                             int stateEpoch, long startOffset) {
        if (target.error() != Errors.NONE) {
            return failed(target.error());
        }
        if (target.remote() == null) {
            List<CompletableFuture<Void>> initialized = new ArrayList<>();
            partitions.forEach((topicId, numbers) -> numbers.forEach(partition -> initialized.add(local
                    .initialize(new SharePartitionKey(groupId, topicId, partition), stateEpoch, startOffset)
                    .thenAccept(ShareStatePersister::check))));
            return CompletableFuture.allOf(initialized.toArray(CompletableFuture[]::new));
        }
        InitializeShareGroupStateRequestView request = new InitializeShareGroupStateRequestView().groupId(groupId);
        partitions.forEach((topicId, numbers) -> {
            InitializeShareGroupStateRequestView.InitializeStateData topic = request.addTopic().topicId(topicId);
            numbers.forEach(partition -> topic.addPartition().partition(partition).stateEpoch(stateEpoch)
                    .startOffset(startOffset));
        });
        return send(target.remote(), ApiKey.INITIALIZE_SHARE_GROUP_STATE, VERSION, request.struct())
                .thenAccept(response -> new InitializeShareGroupStateResponseView(response).results()
                        .forEach(topic -> topic.partitions()
                                .forEach(partition -> check(Errors.forCode(partition.errorCode())))));
    }

    @Override
    public CompletionStage<Summary> summary(SharePartitionKey key) {
        Target target = locate(key);
        if (target.error() != Errors.NONE) {
            return failed(target.error());
        }
        if (target.remote() == null) {
            return local.summary(key).thenApply(summary -> {
                check(summary.error());
                return new Summary(summary.startOffset(), summary.leaderEpoch(), summary.deliveryCompleteCount());
            });
        }
        ReadShareGroupStateSummaryRequestView request = new ReadShareGroupStateSummaryRequestView()
                .groupId(key.groupId());
        request.addTopic().topicId(key.topicId()).addPartition().partition(key.partition())
                .leaderEpoch(NO_LEADER_EPOCH);
        return send(target.remote(), ApiKey.READ_SHARE_GROUP_STATE_SUMMARY, SUMMARY_VERSION, request.struct())
                .thenApply(response -> {
                    ReadShareGroupStateSummaryResponseView.PartitionResult answer =
                            new ReadShareGroupStateSummaryResponseView(response).results().get(0).partitions().get(0);
                    check(Errors.forCode(answer.errorCode()));
                    return new Summary(answer.startOffset(), answer.leaderEpoch(), answer.deliveryCompleteCount());
                });
    }

    @Override
    public CompletionStage<Void> delete(SharePartitionKey key) {
        Target target = locate(key);
        if (target.error() != Errors.NONE) {
            return failed(target.error());
        }
        if (target.remote() == null) {
            return local.delete(key).thenAccept(ShareStatePersister::check);
        }
        DeleteShareGroupStateRequestView request = new DeleteShareGroupStateRequestView().groupId(key.groupId());
        request.addTopic().topicId(key.topicId()).addPartition().partition(key.partition());
        return send(target.remote(), ApiKey.DELETE_SHARE_GROUP_STATE, VERSION, request.struct()).thenAccept(response ->
                check(Errors.forCode(new DeleteShareGroupStateResponseView(response).results().get(0).partitions()
                        .get(0).errorCode())));
    }

    /**
     * Where the key's coordinator is, found as the other coordinators' are ({@link ClusterOffsetsTopicLeaders}): the
     * leader of its partition of the topic, or COORDINATOR_NOT_AVAILABLE while there is none (or no topic yet, which
     * is then created). This node, when it leads it, whatever listeners it has: its own coordinator needs no address.
     * The leader's id and endpoint come from one image, so that the two agree.
     */
    private Target locate(SharePartitionKey key) {
        if (leaders == null) {
            return Target.HERE; // a single node's coordinator creates the topic itself
        }
        Optional<ClusterOffsetsTopicLeaders.Leader> leader =
                leaders.leader(key.coordinatorKey(), listenerName);
        if (leader.isEmpty()) {
            creation.create(Set.of(ShareCoordinator.NAME));
            return new Target(Errors.COORDINATOR_NOT_AVAILABLE, null);
        }
        if (leader.get().id() == nodeId) {
            return Target.HERE;
        }
        CoordinatorLocator.Coordinator coordinator = leader.get().coordinator();
        if (coordinator.error() != Errors.NONE) {
            return new Target(coordinator.error(), null);
        }
        return new Target(Errors.NONE,
                new BrokerNode(coordinator.nodeId(), listenerName, coordinator.host(), coordinator.port()));
    }

    /**
     * A request to another node's coordinator; a node that cannot be reached is COORDINATOR_NOT_AVAILABLE, and so is
     * a request the stop cuts short or that comes after it: {@link NodeChannels} fails both with an IOException.
     */
    private CompletableFuture<Struct> send(BrokerNode node, ApiKey api, short version, Struct request) {
        return channels.send(node, api, version, request).exceptionallyCompose(failure ->
                CompletableFuture.failedFuture(new LogException(Errors.COORDINATOR_NOT_AVAILABLE,
                        "share coordinator " + node.id() + " unreachable: " + failure)));
    }

    private static void check(Errors error) {
        if (error != Errors.NONE) {
            throw new LogException(error, "share coordinator answered " + error);
        }
    }

    private static <T> CompletionStage<T> failed(Errors error) {
        return CompletableFuture.failedFuture(new LogException(error, "no share coordinator: " + error));
    }

    @Override
    public void close() {
        if (channels != null) {
            channels.close();
        }
        local.close();
    }
}
