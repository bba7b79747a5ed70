package io.minibroker.broker.server;

import io.minibroker.broker.admin.BrokerConfigChanges;
import io.minibroker.broker.admin.DelayedDeleteRecords;
import io.minibroker.broker.admin.DescribeConfigsHandler;
import io.minibroker.broker.admin.ListConfigResourcesHandler;
import io.minibroker.broker.admin.PreprocessedAlterConfigs;
import io.minibroker.broker.admin.RuntimeLoggers;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.clientmetrics.ClientMetricsSubscriptions;
import io.minibroker.broker.cluster.BrokerLifecycle;
import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadataHandler;
import io.minibroker.broker.cluster.ControllerForwarder;
import io.minibroker.broker.cluster.ControllerTopicAutoCreation;
import io.minibroker.broker.cluster.ForwardingFailure;
import io.minibroker.broker.cluster.MetadataFetcher;
import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.BrokerConfigOverrides;
import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.ReplicationQuota;
import io.minibroker.broker.feature.FinalizedFeatures;
import io.minibroker.broker.cluster.DescribeTopicPartitionsHandler;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.metadata.DescribeClusterHandler;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.replica.FetcherSettings;
import io.minibroker.broker.replica.ReplicaFetchers;
import io.minibroker.broker.replica.ReplicaManager;
import io.minibroker.broker.replica.ReplicaSelector;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicCreation;
import io.minibroker.broker.topic.TopicCreationErrors;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.purgatory.Purgatory;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What makes a broker a cluster's (controller.quorum.voters set): its connections to the controller, its copy of
 * the cluster's metadata, the partitions it hosts (led or followed), the admin requests it forwards to the
 * controller with the APIs that read the metadata copy, and its registration and heartbeats. A single node has
 * none of these.
 */
final class ClusterLink {

    private final BrokerConfig config;
    /** How this broker connects to the controller's listener; built first, as its checks stop a bad start early. */
    private final ClientSecurity controllerSecurity;
    /** This broker's copy of the cluster's metadata; set at the start, read by the log maintenance thread too. */
    private volatile MetadataFetcher metadata;
    /** The partitions this broker hosts, led or followed. */
    private ReplicaManager replicas;
    /** Where the admin requests forwarded to the controller (and auto-creations) wait for its answer. */
    private ExecutorService forwarding;
    private NodeChannel forwardingChannel;
    /** This broker's registration and heartbeats, once its listeners are bound. */
    private volatile BrokerLifecycle lifecycle;

    ClusterLink(BrokerConfig config, BrokerClock clock) {
        this.config = config;
        this.controllerSecurity = ClientSecurity.forListener(config,
                config.get(BrokerConfig.CONTROLLER_LISTENER_NAMES).get(0), clock::monotonicMs);
    }

    /**
     * The partitions this broker hosts, and the metadata fetches that tell it which (also the ACLs, the users and
     * the group configs and client metrics subscriptions, which {@code groupConfigs} and {@code clientMetrics}
     * mirror: each replaced only when the image changed it).
     */
    void openReplicas(TopicRegistry topics, Purgatory<DelayedProduce> producePurgatory,
                      Purgatory<DelayedFetch> fetchPurgatory, Purgatory<DelayedDeleteRecords> deleteRecordsPurgatory,
                      SecurityApis security, GroupConfigs groupConfigs, BrokerConfigOverrides brokerConfigs,
                      ClientQuotas clientQuotas, FinalizedFeatures features,
                      ClientMetricsSubscriptions clientMetrics, BrokerClock clock, BrokerTopicMetrics topicMetrics)
            throws IOException {
        int nodeId = config.get(BrokerConfig.NODE_ID);
        topics.logs().brokerEpochFrom(this::brokerEpoch);
        replicas = new ReplicaManager(nodeId, topics, producePurgatory, fetchPurgatory, deleteRecordsPurgatory,
                new ReplicaFetchers(nodeId, this::brokerEpoch, FetcherSettings.of(config),
                        ClientSecurity.forListener(config, config.interBrokerListenerName(), clock::monotonicMs),
                        topicMetrics, ReplicationQuota.follower(config, topics::overrides, clock::monotonicMs),
                        fetchPurgatory::checkAndComplete),
                controllerChannel("alter-partition"), config.get(BrokerConfig.REPLICA_LAG_TIME_MAX_MS),
                config.get(BrokerConfig.BROKER_SESSION_TIMEOUT_MS),
                config.get(BrokerConfig.REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS), this::brokerEpoch,
                ReplicaSelector.named(config.get(BrokerConfig.REPLICA_SELECTOR_CLASS)),
                ReplicationQuota.leader(config, topics::overrides, clock::monotonicMs), clock);
        metadata = new MetadataFetcher(controllerChannel("metadata"), controllerChannel("metadata-changes"),
                nodeId, MetaProperties.directoryId(config.logDirs().get(0)), config.interBrokerListenerName(),
                replicas::apply,
                new SnapshotChanges(security::replaceAcls, security::replaceCredentials, groupConfigs::install,
                        brokerConfigs::install, clientQuotas::install, features::install, clientMetrics::install,
                        security::replaceTokens));
    }

    ReplicaManager replicas() {
        return replicas;
    }

    MetadataFetcher metadata() {
        return metadata;
    }

    /** Whether the first metadata image is applied (false before the replicas and their fetcher exist). */
    boolean metadataLoaded() {
        MetadataFetcher fetcher = metadata;
        return fetcher != null && fetcher.loaded();
    }

    /**
     * The admin requests that change topics, ACLs, users and group configs go to the controller; what clients read
     * comes from its image (group configs from {@code groupConfigs}, subscriptions from {@code clientMetrics}: the
     * image's mirrors). Returns how topics are
     * created on a client's account: by the controller too.
     */
    TopicCreation register(SupportedApis apis, LocalNode node, SecurityApis security, GroupConfigs groupConfigs,
                               ClientMetricsSubscriptions clientMetrics,
                               BrokerConfigOverrides brokerConfigs, RuntimeLoggers loggers,
                               BrokerConfigChanges brokerChanges, Function<ApiHandler, ApiHandler> onDisk,
                               BrokerClock clock) {
        String clusterId = config.get(BrokerConfig.CLUSTER_ID);
        forwarding = Executors.newSingleThreadExecutor(task -> new Thread(task, "controller-forwarding"));
        forwardingChannel = controllerChannel("forwarding", config.get(BrokerConfig.CONTROLLER_SOCKET_TIMEOUT_MS));
        ControllerForwarder controller = new ControllerForwarder(forwardingChannel, metadata, forwarding);
        ControllerTopicAutoCreation autoCreation = new ControllerTopicAutoCreation(controller, config,
                new TopicCreationErrors(clock::monotonicMs));
        security.register(apis, controller, onDisk);
        apis.add(ApiKey.METADATA, new ClusterMetadataHandler(clusterId, metadata,
                        config.get(BrokerConfig.AUTO_CREATE_TOPICS_ENABLE) ? autoCreation : null))
                .add(ApiKey.DESCRIBE_CLUSTER, new DescribeClusterHandler(clusterId, metadata))
                .add(ApiKey.DESCRIBE_TOPIC_PARTITIONS, new DescribeTopicPartitionsHandler(metadata::current))
                .add(ApiKey.CREATE_TOPICS, controller.handlerFor(ApiKey.CREATE_TOPICS,
                        ForwardingFailure::createTopics))
                .add(ApiKey.DELETE_TOPICS, controller.handlerFor(ApiKey.DELETE_TOPICS,
                        ForwardingFailure::deleteTopics))
                .add(ApiKey.CREATE_PARTITIONS, controller.handlerFor(ApiKey.CREATE_PARTITIONS,
                        ForwardingFailure::createPartitions))
                .add(ApiKey.ELECT_LEADERS, controller.handlerFor(ApiKey.ELECT_LEADERS,
                        ForwardingFailure::electLeaders))
                .add(ApiKey.ALTER_PARTITION_REASSIGNMENTS, controller.handlerFor(
                        ApiKey.ALTER_PARTITION_REASSIGNMENTS, ForwardingFailure::alterPartitionReassignments))
                .add(ApiKey.LIST_PARTITION_REASSIGNMENTS, controller.handlerFor(
                        ApiKey.LIST_PARTITION_REASSIGNMENTS, ForwardingFailure::listPartitionReassignments))
                .add(ApiKey.UPDATE_FEATURES, controller.handlerFor(ApiKey.UPDATE_FEATURES,
                        ForwardingFailure::updateFeatures))
                .add(ApiKey.UNREGISTER_BROKER, controller.handlerFor(ApiKey.UNREGISTER_BROKER,
                        ForwardingFailure::unregisterBroker))
                .add(ApiKey.ALTER_CLIENT_QUOTAS, controller.handlerFor(ApiKey.ALTER_CLIENT_QUOTAS,
                        ForwardingFailure::alterClientQuotas))
                .add(ApiKey.DESCRIBE_QUORUM, controller.handlerFor(ApiKey.DESCRIBE_QUORUM,
                        ForwardingFailure::describeQuorum))
                .add(ApiKey.ADD_RAFT_VOTER, controller.handlerFor(ApiKey.ADD_RAFT_VOTER,
                        ForwardingFailure::addRaftVoter))
                .add(ApiKey.REMOVE_RAFT_VOTER, controller.handlerFor(ApiKey.REMOVE_RAFT_VOTER,
                        ForwardingFailure::removeRaftVoter))
                .add(ApiKey.ALTER_CONFIGS, new PreprocessedAlterConfigs(ApiKey.ALTER_CONFIGS, brokerChanges,
                        controller.handlerFor(ApiKey.ALTER_CONFIGS, ForwardingFailure::alterConfigs)))
                .add(ApiKey.INCREMENTAL_ALTER_CONFIGS, new PreprocessedAlterConfigs(ApiKey.INCREMENTAL_ALTER_CONFIGS,
                        brokerChanges, controller.handlerFor(ApiKey.INCREMENTAL_ALTER_CONFIGS,
                                ForwardingFailure::incrementalAlterConfigs)))
                .add(ApiKey.DESCRIBE_CONFIGS, new DescribeConfigsHandler(
                        topic -> metadata.current().topic(topic).map(ClusterMetadata.TopicImage::configs), config,
                        node, groupConfigs, brokerConfigs, loggers, clientMetrics))
                .add(ApiKey.LIST_CONFIG_RESOURCES, new ListConfigResourcesHandler(
                        () -> metadata.current().topics().keySet(), metadata, groupConfigs, clientMetrics));
        return autoCreation;
    }

    /** Whether a partition is in the cluster's metadata (what AddPartitionsToTxn may add). */
    boolean partitionExists(String topic, int partition) {
        return metadata.current().topic(topic)
                .filter(found -> partition >= 0 && partition < found.partitions().size()).isPresent();
    }

    /** Registers with the controller and starts heartbeats: once the listeners it advertises are bound. */
    void registerWithController(Supplier<List<Endpoint>> advertisedListeners) {
        lifecycle = new BrokerLifecycle(config.get(BrokerConfig.NODE_ID), config.get(BrokerConfig.CLUSTER_ID),
                advertisedListeners, config.get(BrokerConfig.BROKER_RACK), controllerChannel("lifecycle"),
                metadata, config.get(BrokerConfig.BROKER_HEARTBEAT_INTERVAL_MS));
        lifecycle.start();
    }

    /**
     * A connection to the controller for one purpose (each its own, so that a slow forwarded request never
     * delays a heartbeat); a request waits at most the session timeout, past which its answer is moot.
     */
    private NodeChannel controllerChannel(String purpose) {
        return controllerChannel(purpose, config.get(BrokerConfig.BROKER_SESSION_TIMEOUT_MS));
    }

    /**
     * The same with its own read timeout. Forwarded requests wait {@code controller.socket.timeout.ms} (Kafka's
     * key, 30 s), not the session: the controller answers a CreateTopics only once the new topic's replicas have
     * its image, which on a loaded machine takes longer than a short test session, and a read that gave up then
     * left the request applied and the client told REQUEST_TIMED_OUT (or, resent, TOPIC_ALREADY_EXISTS).
     */
    private NodeChannel controllerChannel(String purpose, int timeoutMs) {
        return new NodeChannel(config.controllerVoter().host(), config.controllerVoter().port(),
                "broker-" + config.get(BrokerConfig.NODE_ID) + "-" + purpose, timeoutMs, controllerSecurity);
    }

    /** This broker's epoch from its registration with the controller, -1 before it has one. */
    private long brokerEpoch() {
        BrokerLifecycle registered = lifecycle;
        return registered == null ? -1 : registered.brokerEpoch();
    }

    /** No word to the controller at the close that follows: it fences this broker when its session expires. */
    void halt() {
        if (lifecycle != null) {
            lifecycle.halt();
        }
    }

    /**
     * The first step of a close: the controller fences this broker while it still answers, and no image is applied
     * once the replicas start closing.
     */
    void stopHeartbeatsAndMetadata() {
        Closing.quietly(lifecycle);
        Closing.quietly(metadata);
    }

    /** No more appends from leaders once the logs start closing. */
    void closeReplicas() {
        Closing.quietly(replicas);
    }

    /** Requests already forwarded still get their answers. */
    void stopForwarding() {
        if (forwarding != null) {
            forwarding.shutdown();
        }
    }

    /** Last, once the forwarded requests are answered and the event loops released. */
    void closeForwardingChannel() {
        Closing.quietly(forwardingChannel);
    }
}
