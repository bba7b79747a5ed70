package io.minibroker.broker.sharestate;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
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
import io.minibroker.protocol.message.view.ReadShareGroupStateRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateResponseView;
import io.minibroker.protocol.message.view.WriteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.WriteShareGroupStateResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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

    private static final short VERSION = 0;

    private final int nodeId;
    private final ShareCoordinator local;
    /** A cluster's latest image, with its channels to other nodes; both null on a single node. */
    private final Supplier<ClusterMetadata> image;
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
        this.image = image;
        this.channels = channels;
        this.listenerName = listenerName;
    }

    /** How {@code __share_group_state} is created when missing: known once the broker's APIs are. */
    public void createTopicWith(TopicAutoCreation autoCreation) {
        this.creation = autoCreation;
    }

    @Override
    public CompletionStage<Optional<ShareStateSnapshot>> read(SharePartitionKey key, int leaderEpoch) {
        Target target = locate(key);
        if (target.error() != Errors.NONE) {
            return failed(target.error());
        }
        if (target.remote() == null) {
            return local.read(key, leaderEpoch).thenApply(read -> {
                check(read.error());
                return Optional.ofNullable(read.snapshot());
            });
        }
        ReadShareGroupStateRequestView request = new ReadShareGroupStateRequestView().groupId(key.groupId());
        request.addTopic().topicId(key.topicId()).addPartition().partition(key.partition()).leaderEpoch(leaderEpoch);
        return send(target.remote(), ApiKey.READ_SHARE_GROUP_STATE, request.struct()).thenApply(response -> {
            ReadShareGroupStateResponseView.PartitionResult answer = new ReadShareGroupStateResponseView(response)
                    .results().get(0).partitions().get(0);
            check(Errors.forCode(answer.errorCode()));
            if (answer.startOffset() < 0) {
                return Optional.empty();
            }
            List<ShareStateSnapshot.StateBatch> batches = new ArrayList<>();
            for (ReadShareGroupStateResponseView.StateBatch batch : answer.stateBatches()) {
                batches.add(new ShareStateSnapshot.StateBatch(batch.firstOffset(), batch.lastOffset(),
                        RecordState.forId(batch.deliveryState()), batch.deliveryCount()));
            }
            return Optional.of(new ShareStateSnapshot(answer.startOffset(), batches));
        });
    }

    @Override
    public CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot, int leaderEpoch) {
        Target target = locate(key);
        if (target.error() != Errors.NONE) {
            return failed(target.error());
        }
        if (target.remote() == null) {
            return local.write(key, snapshot, leaderEpoch).thenAccept(ShareStatePersister::check);
        }
        WriteShareGroupStateRequestView request = new WriteShareGroupStateRequestView().groupId(key.groupId());
        WriteShareGroupStateRequestView.PartitionData partition = request.addTopic().topicId(key.topicId())
                .addPartition().partition(key.partition()).stateEpoch(0).leaderEpoch(leaderEpoch)
                .startOffset(snapshot.startOffset());
        for (ShareStateSnapshot.StateBatch batch : snapshot.batches()) {
            partition.addStateBatche().firstOffset(batch.firstOffset()).lastOffset(batch.lastOffset())
                    .deliveryState(batch.state().id()).deliveryCount((short) batch.deliveryCount());
        }
        return send(target.remote(), ApiKey.WRITE_SHARE_GROUP_STATE, request.struct()).thenAccept(response ->
                check(Errors.forCode(new WriteShareGroupStateResponseView(response).results().get(0).partitions()
                        .get(0).errorCode())));
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
        return send(target.remote(), ApiKey.DELETE_SHARE_GROUP_STATE, request.struct()).thenAccept(response ->
                check(Errors.forCode(new DeleteShareGroupStateResponseView(response).results().get(0).partitions()
                        .get(0).errorCode())));
    }

    private Target locate(SharePartitionKey key) {
        if (image == null) {
            return Target.HERE; // a single node's coordinator creates the topic itself
        }
        ClusterMetadata current = image.get();
        Optional<TopicImage> topic = current.topic(ShareCoordinator.NAME);
        if (topic.isEmpty()) {
            creation.create(Set.of(ShareCoordinator.NAME));
            return new Target(Errors.COORDINATOR_NOT_AVAILABLE, null);
        }
        int leader = topic.get().partitions()
                .get(ShareCoordinator.partitionFor(key, topic.get().partitions().size())).leader();
        if (leader == nodeId) {
            return Target.HERE;
        }
        return current.brokers(listenerName).stream().filter(broker -> broker.id() == leader).findFirst()
                .map(broker -> new Target(Errors.NONE, broker))
                .orElseGet(() -> new Target(Errors.COORDINATOR_NOT_AVAILABLE, null));
    }

    /** A request to another node's coordinator; a node that cannot be reached is COORDINATOR_NOT_AVAILABLE. */
    private CompletableFuture<Struct> send(BrokerNode node, ApiKey api, Struct request) {
        return channels.send(node, api, VERSION, request).exceptionallyCompose(failure ->
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
