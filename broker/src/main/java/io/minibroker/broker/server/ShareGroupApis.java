package io.minibroker.broker.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.group.GroupCoordinator;
import io.minibroker.broker.share.AlterShareGroupOffsetsHandler;
import io.minibroker.broker.share.DeleteShareGroupOffsetsHandler;
import io.minibroker.broker.share.DescribeShareGroupOffsetsHandler;
import io.minibroker.broker.share.ShareAcknowledgeHandler;
import io.minibroker.broker.share.ShareFetchHandler;
import io.minibroker.broker.share.ShareGroupMembership;
import io.minibroker.broker.share.ShareLogs;
import io.minibroker.broker.share.SharePartitionManager;
import io.minibroker.broker.share.ShareSessionCache;
import io.minibroker.broker.share.ShareStateDeletion;
import io.minibroker.broker.share.ShareStateInitialization;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.sharestate.DeleteShareGroupStateHandler;
import io.minibroker.broker.sharestate.InitializeShareGroupStateHandler;
import io.minibroker.broker.sharestate.ReadShareGroupStateHandler;
import io.minibroker.broker.sharestate.ReadShareGroupStateSummaryHandler;
import io.minibroker.broker.sharestate.ShareCoordinator;
import io.minibroker.broker.sharestate.ShareStatePersister;
import io.minibroker.broker.sharestate.WriteShareGroupStateHandler;
import io.minibroker.broker.cluster.MetadataFetcher;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicAutoCreation;
import io.minibroker.broker.topic.TopicDeletionListener;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.NodeChannels;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.PurgatoryMeters;

import java.util.function.Supplier;
import java.util.function.ToIntBiFunction;

/**
 * The share groups' data side as a broker wires it (KIP-932): the share partitions with their parked ShareFetches
 * and lock expiries, the share sessions, and the APIs that use them. Membership is the group coordinator's. Group
 * configs ({@code share.auto.offset.reset} and the rest) are a single node's, kept in its log directory, or in a
 * cluster the controller's, mirrored from the image. The share partitions' state is the share coordinator's, in
 * {@code __share_group_state}.
 */
final class ShareGroupApis implements AutoCloseable {

    private final SharePartitionManager partitions;
    private final ShareSessionCache sessions;
    private final ShareLogs logs;
    private final ShareGroupMembership membership;
    private final TopicRegistry topics;
    /** This node's share coordinator: the state of the share partitions whose key its partitions of the topic hold. */
    private final ShareCoordinator stateCoordinator;
    private final ShareStatePersister persister;
    private final long loadWaitMs;
    /** {@code fetch.max.bytes}, which bounds a ShareFetch's answer as a Fetch's. */
    private final int fetchMaxBytes;

    /**
     * @param groupConfigs the group configs: a single node's own, a cluster broker's mirror of the controller's
     * @param metadata a cluster broker's copy of the metadata; null on a single node
     * @param coordinator the group coordinator, made after this: asked only once requests are served
     */
    ShareGroupApis(BrokerConfig config, BrokerClock clock, GroupConfigs groupConfigs, TopicRegistry topics,
                   PartitionLeadership leadership, Purgatory<DelayedProduce> producePurgatory,
                   Purgatory<DelayedFetch> fetchPurgatory, MetadataFetcher metadata, Connections connections,
                   MeterRegistry registry, Supplier<GroupCoordinator> coordinator) {
        this.topics = topics;
        this.loadWaitMs = config.get(BrokerConfig.SHARE_COORDINATOR_WRITE_TIMEOUT_MS);
        this.fetchMaxBytes = config.get(BrokerConfig.FETCH_MAX_BYTES);
        int nodeId = config.get(BrokerConfig.NODE_ID);
        // As Kafka's share coordinator, a state counts once replicated to the topic's min.insync.replicas.
        CoordinatorAppender appender = config.inCluster()
                ? CoordinatorAppender.replicated(leadership, producePurgatory, fetchPurgatory,
                        topics::minInsyncReplicas,
                        loadWaitMs, Runnable::run)
                : CoordinatorAppender.SINGLE_NODE;
        this.stateCoordinator = new ShareCoordinator(topics, leadership, appender, clock, !config.inCluster(),
                config.get(BrokerConfig.SHARE_COORDINATOR_STATE_TOPIC_PRUNE_INTERVAL_MS),
                "broker-" + nodeId + "-share-coordinator");
        this.persister = config.inCluster()
                ? ShareStatePersister.cluster(nodeId, stateCoordinator, metadata::current,
                        new NodeChannels("broker-" + nodeId + "-share-state",
                                ClientSecurity.forListener(config, config.interBrokerListenerName(),
                                        clock::monotonicMs), (int) loadWaitMs),
                        config.interBrokerListenerName())
                : ShareStatePersister.singleNode(stateCoordinator);
        this.partitions = new SharePartitionManager(clock.purgatoryClock(), clock::wallClockMs,
                groupConfigs, persister, leadership::leaderEpoch,
                config.get(BrokerConfig.SHARE_FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS));
        new PurgatoryMeters(partitions.fetchPurgatory()).bindTo(registry);
        this.sessions = new ShareSessionCache(config.get(BrokerConfig.GROUP_SHARE_MAX_SHARE_SESSIONS));
        this.logs = new ShareLogs(topics, leadership);
        this.membership = ShareGroupMembership.deferred(() -> coordinator.get().shareGroupMembership());
        // A closed connection ends its share sessions and releases what their members held, at once.
        connections.onClientClosed(client -> partitions.releaseSessions(sessions.closeConnection(client), sessions));
    }

    /** How a cluster broker has {@code __share_group_state} created: known once the broker's APIs are. */
    void createStateTopicWith(TopicAutoCreation autoCreation) {
        persister.createTopicWith(autoCreation);
    }

    /** The share coordinator, told of deleted topics to delete their share partitions' state, as Kafka's is. */
    TopicDeletionListener stateOfDeletedTopics() {
        return stateCoordinator;
    }

    /** How DeleteGroups of a share group deletes its share partitions' state. */
    ShareStateDeletion stateDeletion() {
        return partitions;
    }

    /** How a share group's coordinator initializes its share partitions' state before assigning them. */
    ShareStateInitialization stateInitialization() {
        return partitions;
    }

    /** {@code leadership}, also waking parked share fetches on appends and high-watermark moves (followers' fetches). */
    PartitionLeadership wakingOnNewData(PartitionLeadership leadership) {
        return SharePartitionManager.wakingOnNewData(leadership, partitions);
    }

    /**
     * ShareFetch, ShareAcknowledge, the share-group offsets admin APIs and the share coordinator's.
     *
     * @param quotaWindowBytes the most bytes a client's fetch quota lets through in a window, by user and request
     */
    void register(SupportedApis apis, ToIntBiFunction<String, Request> quotaWindowBytes) {
        apis.add(ApiKey.SHARE_FETCH, new ShareFetchHandler(partitions, sessions, logs, loadWaitMs, fetchMaxBytes,
                        quotaWindowBytes))
                .add(ApiKey.SHARE_ACKNOWLEDGE, new ShareAcknowledgeHandler(partitions, sessions, logs))
                .add(ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS, new DescribeShareGroupOffsetsHandler(partitions,
                        membership, topics, logs))
                .add(ApiKey.ALTER_SHARE_GROUP_OFFSETS, new AlterShareGroupOffsetsHandler(partitions,
                        membership, topics))
                .add(ApiKey.DELETE_SHARE_GROUP_OFFSETS, new DeleteShareGroupOffsetsHandler(partitions,
                        membership, topics))
                .add(ApiKey.READ_SHARE_GROUP_STATE, new ReadShareGroupStateHandler(stateCoordinator))
                .add(ApiKey.WRITE_SHARE_GROUP_STATE, new WriteShareGroupStateHandler(stateCoordinator))
                .add(ApiKey.DELETE_SHARE_GROUP_STATE, new DeleteShareGroupStateHandler(stateCoordinator))
                .add(ApiKey.INITIALIZE_SHARE_GROUP_STATE, new InitializeShareGroupStateHandler(stateCoordinator))
                .add(ApiKey.READ_SHARE_GROUP_STATE_SUMMARY, new ReadShareGroupStateSummaryHandler(stateCoordinator));
    }

    /**
     * Parked share fetches answered (while the connections are open), releases from then on dropped, then the share
     * coordinator's queued writes finished and answered: before the logs close.
     */
    @Override
    public void close() throws InterruptedException {
        partitions.close();
        persister.close();
    }
}
