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
import io.minibroker.broker.share.ShareStateFiles;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.purgatory.PurgatoryMeters;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The share groups' data side as a broker wires it (KIP-932): the share partitions with their parked ShareFetches
 * and lock expiries, the share sessions, and the APIs that use them. Membership is the group coordinator's. Group
 * configs ({@code share.auto.offset.reset} and the rest) are a single node's, kept in its log directory;
 * a cluster's brokers use the {@code group.share.*} defaults.
 */
final class ShareGroupApis implements AutoCloseable {

    private final SharePartitionManager partitions;
    private final ShareSessionCache sessions;
    private final ShareLogs logs;
    private final ShareGroupMembership membership;
    private final TopicRegistry topics;

    /**
     * @param groupConfigs the group configs: a single node's own, a cluster broker's mirror of the controller's
     * @param coordinator the group coordinator, made after this: asked only once requests are served
     */
    ShareGroupApis(BrokerConfig config, BrokerClock clock, GroupConfigs groupConfigs, TopicRegistry topics,
                   PartitionLeadership leadership, Executor disk, Connections connections, MeterRegistry registry,
                   Supplier<GroupCoordinator> coordinator) {
        this.topics = topics;
        this.partitions = new SharePartitionManager(clock.purgatoryClock(),
                groupConfigs,
                new ShareStateFiles(config.logDirs().get(0), disk),
                config.get(BrokerConfig.SHARE_FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS));
        new PurgatoryMeters(partitions.fetchPurgatory()).bindTo(registry);
        this.sessions = new ShareSessionCache(config.get(BrokerConfig.GROUP_SHARE_MAX_SHARE_SESSIONS));
        this.logs = new ShareLogs(topics, leadership);
        this.membership = ShareGroupMembership.deferred(() -> coordinator.get().shareGroupMembership());
        // A closed connection ends its share sessions and releases what their members held, at once.
        connections.onClientClosed(client -> partitions.releaseSessions(sessions.closeConnection(client)));
    }

    /** {@code leadership}, also waking parked share fetches on appends and high-watermark moves (followers' fetches). */
    PartitionLeadership wakingOnNewData(PartitionLeadership leadership) {
        return SharePartitionManager.wakingOnNewData(leadership, partitions);
    }

    /** ShareFetch, ShareAcknowledge and the share-group offsets admin APIs. */
    void register(SupportedApis apis) {
        apis.add(ApiKey.SHARE_FETCH, new ShareFetchHandler(partitions, sessions, logs))
                .add(ApiKey.SHARE_ACKNOWLEDGE, new ShareAcknowledgeHandler(partitions, sessions, logs))
                .add(ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS, new DescribeShareGroupOffsetsHandler(partitions,
                        membership, topics, logs))
                .add(ApiKey.ALTER_SHARE_GROUP_OFFSETS, new AlterShareGroupOffsetsHandler(partitions,
                        membership, topics))
                .add(ApiKey.DELETE_SHARE_GROUP_OFFSETS, new DeleteShareGroupOffsetsHandler(partitions,
                        membership, topics));
    }

    /** Parked share fetches answered and lock releases written: before the disk thread stops. */
    @Override
    public void close() throws InterruptedException {
        partitions.close();
    }
}
