package io.minibroker.broker.server;

import io.minibroker.broker.admin.BrokerConfigChanges;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.minibroker.broker.admin.DelayedDeleteRecords;
import io.minibroker.broker.admin.DeleteRecordsHandler;
import io.minibroker.broker.admin.DescribeClientQuotasHandler;
import io.minibroker.broker.admin.AlterReplicaLogDirsHandler;
import io.minibroker.broker.admin.DescribeLogDirsHandler;
import io.minibroker.broker.admin.RuntimeLoggers;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.ApiVersionsHandler;
import io.minibroker.broker.api.DiskBoundHandler;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.authz.AuthorizedOperations;
import io.minibroker.broker.authz.AuthorizingHandler;
import io.minibroker.broker.authz.StandardAuthorizer;
import io.minibroker.broker.authz.TopicFacts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.BrokerConfigOverrides;
import io.minibroker.broker.config.EligibleLeaderReplicasSafety;
import io.minibroker.broker.quota.ClientQuotaEnforcement;
import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.QuotaType;
import io.minibroker.broker.quota.ThrottledRate;
import io.minibroker.broker.feature.FinalizedFeatures;
import io.minibroker.broker.config.SecurityKeys;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.control.BrokerControls;
import io.minibroker.broker.control.ControlsEndpoint;
import io.minibroker.broker.controller.BrokerMembership;
import io.minibroker.broker.controller.TopicAssignments;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.fetch.FetchHandler;
import io.minibroker.broker.fetch.ListOffsetsHandler;
import io.minibroker.broker.fetch.OffsetForLeaderEpochHandler;
import io.minibroker.broker.fetch.session.FetchManager;
import io.minibroker.broker.fetch.session.FetchSessionCache;
import io.minibroker.broker.group.GroupCoordinator;
import io.minibroker.broker.log.LogCleaner;
import io.minibroker.broker.log.LogMaintenance;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.metrics.ClientQuotaMeters;
import io.minibroker.broker.metrics.ControllerMeters;
import io.minibroker.broker.metrics.JvmMeters;
import io.minibroker.broker.metrics.LogMeters;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.metrics.PrometheusEndpoint;
import io.minibroker.broker.metrics.ReplicaManagerMeters;
import io.minibroker.broker.metrics.ReplicationQuotaMeters;
import io.minibroker.broker.network.ChannelSetup;
import io.minibroker.broker.network.ConnectionLimits;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.produce.DescribeProducersHandler;
import io.minibroker.broker.produce.ProduceHandler;
import io.minibroker.broker.produce.ProducerIdAllocator;
import io.minibroker.broker.produce.ProducerIdExpiration;
import io.minibroker.broker.replica.HighWatermarkCheckpointer;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.clientmetrics.ClientMetricsSubscriptions;
import io.minibroker.broker.sasl.SaslAuthenticateHandler;
import io.minibroker.broker.sasl.SaslHandshakeHandler;
import io.minibroker.broker.security.SaslListeners;
import io.minibroker.broker.security.SaslSession;
import io.minibroker.broker.security.SslEngineFactory;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.SingleNodeLeaderEpochs;
import io.minibroker.broker.topic.TopicCreation;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.BackoffTimer;
import io.minibroker.broker.transaction.LeaderMarkerAppender;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.PurgatoryMeters;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * One broker: binds every listener, serves the advertised APIs, and stops cleanly. A listener on port 0 gets a
 * free port; {@link #boundPort} reports it, and an advertised listener that names port 0 is advertised with the
 * real port, so clients reach a broker started on a random port.
 */
public final class Broker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);
    /** How long a stop waits for the last responses to reach slow clients before closing their connections. */
    private static final long FLUSH_RESPONSES_TIMEOUT_MS = 5_000;
    /** How often quota sensors idle for an hour are looked for, as Kafka's metrics' sensor expiry task runs. */
    private static final long SENSOR_EXPIRY_CHECK_MS = 30_000;
    /** How long a stop waits for fsyncs and file writes already under way. */
    private static final long DISK_WORK_TIMEOUT_S = 30;

    private final BrokerConfig config;
    /** The one clock every part of this broker reads time from. */
    private final BrokerClock clock;
    private final EventLoopGroup acceptors = new NioEventLoopGroup(1);
    private final EventLoopGroup workers = new NioEventLoopGroup();
    private final Map<String, Channel> serverChannels = new LinkedHashMap<>();
    private final Connections connections = new Connections(workers);
    /**
     * Where the disk work of requests runs (fsyncs that {@code flush.messages} asks for, topic and config files,
     * segment deletions), so that no event loop waits on the disk. One thread: admin changes apply one at a time,
     * and the fsyncs of one partition coalesce, each skipping what an earlier one synced.
     */
    private final ExecutorService disk = Executors.newSingleThreadExecutor(task -> new Thread(task, "disk-io"));
    /**
     * Where a single node creates the topics clients have created on their account ({@code __consumer_offsets} on
     * a group's first FindCoordinator: 50 logs; a topic a Metadata names), so that a produce answered from the disk
     * thread does not wait behind them; topic changes still apply one at a time under the topic registry's lock.
     */
    private final ExecutorService topicCreation = Executors.newSingleThreadExecutor(
            task -> new Thread(task, "topic-creation"));
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final BrokerTopicMetrics topicMetrics = new BrokerTopicMetrics(registry);
    private final AtomicBoolean closed = new AtomicBoolean();
    private PrometheusEndpoint metricsEndpoint;
    /** A test's controls over this broker's clients; the endpoint serving them only when configured. */
    private BrokerControls controls;
    private ControlsEndpoint controlsEndpoint;
    private JvmMeters jvmMeters;
    private TopicRegistry topics;
    /** The dynamic broker configs: a single node's own, kept in its log dir; a cluster broker's mirror of the image. */
    private BrokerConfigOverrides dynamicConfigs;
    /** The finalized features: a single node's own, kept in its log dir; a cluster broker's mirror of the image. */
    private FinalizedFeatures features;
    /** A single node's KIP-966 rules for its dynamic broker configs; null in a cluster (the controller's). */
    private EligibleLeaderReplicasSafety elr;
    /** The client quotas: a single node's own, kept in its log dir; a cluster broker's mirror of the image. */
    private ClientQuotas clientQuotas;
    /** Their byte rates, recorded by the client listeners' connections and bounding consumers' fetches. */
    private ClientQuotaEnforcement clientQuotaEnforcement;
    private LogMaintenance maintenance;
    /** A single node's {@code replication-offset-checkpoint} writer; a cluster's replica manager has its own. */
    private HighWatermarkCheckpointer highWatermarks;
    /** Compacts the logs of compacted topics; null when {@code log.cleaner.enable} is false. */
    private LogCleaner cleaner;
    private Purgatory<DelayedProduce> producePurgatory;
    private Purgatory<DelayedFetch> fetchPurgatory;
    private Purgatory<DelayedDeleteRecords> deleteRecordsPurgatory;
    /** The transactions' retry backoffs (the coordinator's markers, the produces' AddPartitionsToTxn). */
    private BackoffTimer transactionBackoffs;
    private TransactionApis transactions;
    private GroupCoordinator groupCoordinator;
    private ShareGroupApis shareGroups;
    /** Only on the controller's node: the controller's parts and the APIs of its listener. */
    private ControllerNode controller;

    /** Each SASL listener's new connections' authentication, by listener name. */
    private final Map<String, Function<SaslSession.Outcomes, SaslSession>> saslSessions = new HashMap<>();
    /** Each SSL or SASL_SSL listener's TLS, by listener name. */
    private final Map<String, SslEngineFactory> listenerTls = new HashMap<>();
    /** Only in a cluster: this broker's connections to the controller, its metadata copy and its replicas. */
    private final ClusterLink cluster;

    /** The ACLs and the users' SCRAM credentials: this node's own, or in a cluster its copy of the controller's. */
    private final SecurityApis security;

    /**
     * Reads the listeners' SASL users and TLS key material first, so that a listener without them stops the start
     * before any log opens.
     */
    private Broker(BrokerConfig config, BrokerClock clock) throws IOException {
        this.config = config;
        this.clock = clock;
        this.security = SecurityApis.open(config);
        for (Endpoint listener : config.get(BrokerConfig.LISTENERS)) {
            Function<SaslSession.Outcomes, SaslSession> sessions = SaslListeners.sessionsFor(config, listener.listenerName(),
                    security.credentials(), security.tokens(), clock::monotonicMs, clock::wallClockMs);
            if (sessions != null) {
                saslSessions.put(listener.listenerName(), sessions);
            }
            if (config.usesTls(listener.listenerName())) {
                listenerTls.put(listener.listenerName(),
                        SslEngineFactory.of(config.sslSettings(listener.listenerName()), true));
            }
        }
        this.cluster = config.inCluster() ? new ClusterLink(config, clock) : null;
    }

    /**
     * Opens (and if needed recovers) the logs, then binds every listener; throws if either fails, after
     * releasing what was opened.
     */
    public static Broker start(BrokerConfig config) throws InterruptedException, IOException {
        return start(config, BrokerClock.system());
    }

    /**
     * {@link #start(BrokerConfig)} on the given clock: a test's {@link BrokerClock#manual} moves this broker's time.
     */
    public static Broker start(BrokerConfig config, BrokerClock clock) throws InterruptedException, IOException {
        Broker broker = new Broker(config, clock);
        try {
            // Once the directories are locked: a broker already using one keeps its meta.properties as it is.
            broker.topics = TopicRegistry.open(config, clock.wallClock(), dirs -> MetaProperties.ensure(dirs,
                    config.get(BrokerConfig.CLUSTER_ID), config.get(BrokerConfig.NODE_ID)));
            if (!config.inCluster()) { // a cluster's replicas start their epochs as the image makes them leaders
                broker.topics.logs().addListener(new SingleNodeLeaderEpochs());
            }
            broker.dynamicConfigs = config.inCluster() ? BrokerConfigOverrides.mirror(broker::applyDynamicConfigs)
                    : BrokerConfigOverrides.open(config.logDirs().get(0), broker::applyDynamicConfigs);
            broker.applyDynamicConfigs();
            broker.clientQuotas = config.inCluster() ? ClientQuotas.mirror()
                    : ClientQuotas.open(config.logDirs().get(0));
            broker.clientQuotaEnforcement = new ClientQuotaEnforcement(broker.clientQuotas, clock,
                    config.get(BrokerConfig.QUOTA_WINDOW_NUM), config.get(BrokerConfig.QUOTA_WINDOW_SIZE_SECONDS),
                    (quotaType, rateName) -> new ClientQuotaMeters(broker.registry, quotaType, rateName,
                            clock::monotonicMs));
            ClientQuotaMeters.bindExemptRequestTime(broker.registry, broker.clientQuotaEnforcement::exemptRequestTime);
            ClientQuotaEnforcement enforcement = broker.clientQuotaEnforcement;
            for (QuotaType type : QuotaType.values()) {
                ClientQuotaMeters.bindQueueSize(broker.registry, type.kafkaName(), () -> enforcement.queueSize(type));
            }
            short transactionVersion = config.get(BrokerConfig.TRANSACTION_VERSION).shortValue();
            broker.features = config.inCluster() ? FinalizedFeatures.mirror(transactionVersion)
                    : FinalizedFeatures.open(config.logDirs().get(0), transactionVersion, () -> { });
            if (!config.inCluster()) { // a cluster's are its controller's
                broker.elr = EligibleLeaderReplicasSafety.ensured(broker.features, broker.dynamicConfigs,
                        config.get(BrokerConfig.MIN_INSYNC_REPLICAS));
            }
            broker.maintenance = new LogMaintenance(broker.topics.logs(), clock,
                    config.get(BrokerConfig.LOG_RETENTION_CHECK_INTERVAL_MS),
                    config.get(BrokerConfig.LOG_FLUSH_SCHEDULER_INTERVAL_MS),
                    config.get(BrokerConfig.LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS), broker::logConfigsKnown);
            broker.topics.logs().addListener(broker.maintenance); // rolled segments flushed right after
            broker.topics.logs().deleteFilesOn(broker.maintenance); // deleted files after file.delete.delay.ms
            ThrottledRate alterLogDirsQuota = new ThrottledRate(
                    () -> config.get(BrokerConfig.REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND), clock::monotonicMs,
                    config.get(BrokerConfig.ALTER_LOG_DIRS_REPLICATION_QUOTA_WINDOW_NUM),
                    config.get(BrokerConfig.ALTER_LOG_DIRS_REPLICATION_QUOTA_WINDOW_SIZE_SECONDS));
            broker.topics.logs().throttleMovesWith(alterLogDirsQuota, config.get(BrokerConfig.REPLICA_FETCH_BACKOFF_MS));
            new ReplicationQuotaMeters(broker.registry, "AlterLogDirsReplication").register(alterLogDirsQuota::byteRate);
            if (!config.inCluster()) {
                broker.highWatermarks = new HighWatermarkCheckpointer(broker.topics.logs(),
                        broker.topics.logs()::highWatermarks,
                        config.get(BrokerConfig.REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS), clock);
                broker.highWatermarks.start();
            }
            if (config.get(BrokerConfig.LOG_CLEANER_ENABLE)) {
                broker.cleaner = new LogCleaner(broker.topics.logs(), clock.wallClock(),
                        config.get(BrokerConfig.LOG_CLEANER_BACKOFF_MS),
                        config.get(BrokerConfig.LOG_CLEANER_DEDUPE_BUFFER_SIZE),
                        config.get(BrokerConfig.PRODUCER_ID_EXPIRATION_MS));
                broker.cleaner.startup();
            }
            broker.bind();
        } catch (RuntimeException | InterruptedException | IOException e) {
            broker.close();
            throw e;
        }
        return broker;
    }

    /**
     * Whether the logs run on the configs the cluster gave them: at once on a single node (its own files); in a
     * cluster once the first image is applied, before which retention would delete by the file's settings what a
     * topic's override or a dynamic default keeps.
     */
    private boolean logConfigsKnown() {
        return cluster == null || cluster.metadataLoaded();
    }

    /**
     * Puts the dynamic broker configs in force: this broker's config answers them first, and if a value in force
     * changed (not for another broker's configs, or a key that is not a topic's default) every log takes its topic's
     * settings again, so that a topic without an override follows a new default at once, as in Kafka.
     */
    private void applyDynamicConfigs() {
        if (config.applyDynamic(dynamicConfigs.of(""),
                dynamicConfigs.of(Integer.toString(config.get(BrokerConfig.NODE_ID))))) {
            topics.reapplyLogConfigs();
        }
    }

    /**
     * Builds the API table once, for the node's mode: the APIs both modes serve alike, then each mode's own
     * (SupportedApis refuses an API added twice), then the groups' and the transactions'; then binds the listeners.
     */
    private void bind() throws InterruptedException, IOException {
        ProducerIdAllocator producerIds = new ProducerIdAllocator(config.logDirs().get(0),
                config.inCluster() ? ProducerIdAllocator.firstIdOf(config.get(BrokerConfig.NODE_ID)) : 0);
        startMetricsEndpoint();
        LocalNode node = new LocalNode(config.get(BrokerConfig.NODE_ID), config.get(BrokerConfig.CLUSTER_ID),
                this::advertisedListeners, config.get(BrokerConfig.BROKER_RACK));
        openPurgatories();
        ProducerIdExpiration producerIdExpiration = new ProducerIdExpiration(topics.logs(), clock.wallClock(),
                config.get(BrokerConfig.PRODUCER_ID_EXPIRATION_MS));
        maintenance.scheduleEvery(config.get(BrokerConfig.PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS),
                "producer id expiration", producerIdExpiration);
        // A client gone for an hour leaves no quota metrics.
        maintenance.scheduleEvery(SENSOR_EXPIRY_CHECK_MS, "quota sensor expiry", clientQuotaEnforcement::expireIdle);
        if (cluster == null) {
            maintenance.scheduleEvery(config.get(SecurityKeys.DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS),
                    "delegation token expiry", () -> security.removeExpiredTokens(clock.wallClockMs()));
        }
        // Group configs: a single node's own (kept in its log dir); in a cluster the controller's, from the image.
        GroupConfigs groupConfigs = config.inCluster() ? GroupConfigs.mirror(config)
                : GroupConfigs.open(config, config.logDirs().get(0));
        // Client metrics subscriptions likewise: a single node's own file; in a cluster a mirror of the image.
        ClientMetricsSubscriptions clientMetrics = config.inCluster() ? ClientMetricsSubscriptions.mirror()
                : ClientMetricsSubscriptions.open(config.logDirs().get(0));
        PartitionLeadership leadership = PartitionLeadership.SINGLE_NODE;
        if (cluster != null) {
            cluster.openReplicas(topics, producePurgatory, fetchPurgatory, deleteRecordsPurgatory, security,
                    groupConfigs, dynamicConfigs, clientQuotas, features, clientMetrics, clock, topicMetrics);
            leadership = cluster.replicas();
        }
        shareGroups = new ShareGroupApis(config, clock, groupConfigs, topics, leadership, producePurgatory,
                fetchPurgatory, cluster != null ? cluster.metadata() : null, connections, registry,
                () -> groupCoordinator);
        // A transaction's marker moves the last stable offset, up to which read_committed share groups acquire.
        PartitionLeadership markersWakeShareFetches = shareGroups.wakingOnNewData(leadership);
        transactions = new TransactionApis(config, clock, topics, markersWakeShareFetches,
                producePurgatory, fetchPurgatory, disk, producerIds, cluster != null ? cluster.metadata() : null,
                transactionBackoffs, features);
        SupportedApis apis = new SupportedApis();
        Function<ApiHandler, ApiHandler> onDisk = DiskBoundHandler.on(disk);
        registerDataApis(apis, leadership, onDisk);
        shareGroups.register(apis, clientQuotaEnforcement::fetchMaxBytes);
        // Topics created on a client's account: by the controller in a cluster.
        RuntimeLoggers loggers = RuntimeLoggers.find();
        // Kafka's brokers preprocess the broker and logger resources themselves; a cluster's forward the rest.
        BrokerConfigChanges brokerChanges = cluster != null
                ? BrokerConfigChanges.ofBroker(node.nodeId(), dynamicConfigs, loggers)
                : BrokerConfigChanges.ofSingleNode(node.nodeId(), dynamicConfigs, loggers, elr);
        TopicCreation autoCreation = cluster != null
                ? cluster.register(apis, node, security, groupConfigs, clientMetrics, dynamicConfigs, loggers,
                        brokerChanges, onDisk, clock)
                : SingleNodeApis.register(apis, config, node, topics, groupConfigs, clientMetrics, dynamicConfigs,
                        clientQuotas, ClientQuotaMeters.controllerMutation(registry, clock::monotonicMs),
                        features, elr, loggers, brokerChanges, security, onDisk, topicCreation, clock);
        shareGroups.createStateTopicWith(autoCreation);
        groupCoordinator = GroupCoordinatorApis.open(config, clock, topics, cluster, producePurgatory, fetchPurgatory,
                groupConfigs, transactions, shareGroups.stateOfDeletedTopics());
        groupCoordinator.deleteShareStateWith(shareGroups.stateDeletion());
        groupCoordinator.initializeShareStateWith(shareGroups.stateInitialization());
        groupCoordinator.createStreamsInternalTopicsWith(autoCreation);
        GroupCoordinatorApis.register(apis, config, groupCoordinator, cluster, node, topics, autoCreation, transactions,
                registry);
        BiPredicate<String, Integer> partitionExists = cluster != null ? cluster::partitionExists
                : (topic, partition) -> SingleNodeApis.partitionExists(topics, topic, partition);
        transactions.register(apis, onDisk, partitionExists, groupCoordinator::offsetsPartitionFor);
        if (cluster != null) {
            cluster.replicas().bindMetersTo(registry);
            maintenance.scheduleEvery(SENSOR_EXPIRY_CHECK_MS, "replication quota sensor expiry",
                    cluster.replicas()::expireIdleQuotaSensors);
        } else {
            ReplicaManagerMeters.singleNode(registry, topics.logs().allLogs());
        }
        StandardAuthorizer authorizer = security.authorizer();
        if (authorizer != null) {
            // Known topics, as Kafka's metadata cache: in a cluster, also those this broker holds no replica of.
            TopicFacts topicFacts = new TopicFacts(id -> topics.known(id).map(TopicMetadata::name),
                    name -> topics.known(name).map(TopicMetadata::id), partitionExists,
                    config.get(BrokerConfig.AUTO_CREATE_TOPICS_ENABLE), config.get(BrokerConfig.DELETE_TOPIC_ENABLE));
            apis.wrapHandlers((api, handler) -> AuthorizingHandler.wrap(api, handler, authorizer, topicFacts,
                    brokerChanges));
        } else {
            apis.wrapHandlers(AuthorizedOperations::withoutAuthorizer);
        }
        if (config.isController()) {
            controller = ControllerNode.start(config, node, clock, registry);
            ControllerNode started = controller;
            maintenance.scheduleEvery(config.get(SecurityKeys.DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS),
                    "delegation token expiry", () -> started.removeExpiredTokens(clock.wallClockMs()));
        } else {
            // A single node is its own controller, with no partition ever offline; a cluster's other brokers are not.
            ControllerMeters.bindTo(registry, !config.inCluster(), null);
        }
        controls = new BrokerControls(apis, connections, clock,
                id -> topics.known(id).map(io.minibroker.broker.topic.TopicMetadata::name),
                controller != null ? controller.assignments() : null,
                cluster != null ? new ReplicationControls(cluster.replicas()) : null);
        startControlsEndpoint();
        bindListeners(node, apis, controller != null ? controller.apis() : null);
        meterLogs();
        if (cluster != null) {
            cluster.registerWithController(this::advertisedListeners);
        }
        LOG.info("minibroker node {} of cluster {} started", node.nodeId(), node.clusterId());
    }

    /**
     * The APIs both modes serve alike: ApiVersions, the data's (Produce, Fetch and the rest, on the partitions this
     * broker leads), SASL's and DescribeClientQuotas (from this node's quotas, or its mirror of the image's).
     */
    private void registerDataApis(SupportedApis apis, PartitionLeadership leadership,
                                  Function<ApiHandler, ApiHandler> onDisk) {
        PartitionLeadership dataWakesShareFetches = shareGroups.wakingOnNewData(leadership);
        apis.add(ApiKey.API_VERSIONS, new ApiVersionsHandler(apis, config.get(BrokerConfig.CLUSTER_ID),
                        config.get(BrokerConfig.NODE_ID), features))
                .add(ApiKey.DELETE_RECORDS, onDisk.apply(new DeleteRecordsHandler(topics, leadership,
                        deleteRecordsPurgatory)))
                // Produce 0-2 are advertised but refused: librdkafka turns compression off when Produce's
                // advertised minimum is above 0 (KAFKA-18659), so Kafka 4 advertises them too.
                .add(ApiKey.PRODUCE, (short) 0, ApiKey.PRODUCE.highestStableVersion(),
                        new ProduceHandler(topics, config, producePurgatory, fetchPurgatory,
                                disk, dataWakesShareFetches, topicMetrics, transactions.produceCheck()))
                .add(ApiKey.FETCH, new FetchHandler(topics, fetchPurgatory, dataWakesShareFetches, topicMetrics,
                        new FetchManager(new FetchSessionCache(
                                config.get(BrokerConfig.MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS), registry), clock),
                        config.get(BrokerConfig.FETCH_MAX_BYTES), clientQuotaEnforcement::fetchMaxBytes))
                .add(ApiKey.LIST_OFFSETS, new ListOffsetsHandler(topics, leadership))
                .add(ApiKey.OFFSET_FOR_LEADER_EPOCH, new OffsetForLeaderEpochHandler(topics, leadership))
                .add(ApiKey.DESCRIBE_LOG_DIRS, new DescribeLogDirsHandler(config.logDirs(), topics.logs()))
                .add(ApiKey.ALTER_REPLICA_LOG_DIRS, onDisk.apply(new AlterReplicaLogDirsHandler(topics.logs(), leadership)))
                .add(ApiKey.DESCRIBE_PRODUCERS, new DescribeProducersHandler(topics))
                // v0 too, as Kafka: librdkafka takes a broker without it for one without SASL, though it sends v1.
                .add(ApiKey.SASL_HANDSHAKE, new SaslHandshakeHandler())
                .add(ApiKey.SASL_AUTHENTICATE, new SaslAuthenticateHandler())
                .add(ApiKey.DESCRIBE_CLIENT_QUOTAS, new DescribeClientQuotasHandler(clientQuotas::all));
    }

    /** Binds every listener: the controller's serve its own table (null but on its node), the others the clients'. */
    private void bindListeners(LocalNode node, SupportedApis apis, SupportedApis controllerApis)
            throws InterruptedException {
        List<String> controllerListeners = config.get(BrokerConfig.CONTROLLER_LISTENER_NAMES);
        ConnectionLimits connectionLimits = ConnectionBudgets.of(config, clock, registry, clientQuotas);
        for (Endpoint listener : config.get(BrokerConfig.LISTENERS)) {
            boolean clientListener = !controllerListeners.contains(listener.listenerName());
            SupportedApis served = controllerApis != null && !clientListener ? controllerApis : apis;
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(acceptors, workers)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .handler(connections.acceptor(clientListener))
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelSetup(served, listener.listenerName(),
                            config.get(BrokerConfig.SOCKET_REQUEST_MAX_BYTES),
                            config.get(BrokerConfig.CONNECTIONS_MAX_IDLE_MS),
                            new NetworkMetrics(registry, listener.listenerName(), served.entries().keySet(), clock),
                            saslSessions.get(listener.listenerName()),
                            listenerTls.get(listener.listenerName()),
                            config.get(SecurityKeys.TLS_HANDSHAKE_TIMEOUT_MS), connectionLimits,
                            clientListener ? controls : null, clientListener ? clientQuotaEnforcement : null));
            InetSocketAddress address = listener.host().isEmpty()
                    ? new InetSocketAddress(listener.port())
                    : new InetSocketAddress(listener.host(), listener.port());
            Channel channel = bootstrap.bind(address).sync().channel();
            serverChannels.put(listener.listenerName(), channel);
            LOG.info("Listening on {} ({}), advertised as {}", channel.localAddress(), listener.listenerName(),
                    node.endpointFor(listener.listenerName()).map(Endpoint::toString).orElse("nothing"));
        }
    }

    /**
     * Where Produce (acks=all), Fetch and DeleteRecords wait, and the transactions' backoffs, with their meters and
     * the JVM's.
     */
    private void openPurgatories() {
        producePurgatory = ProduceHandler.newPurgatory(
                config.get(BrokerConfig.PRODUCER_PURGATORY_PURGE_INTERVAL_REQUESTS), clock.purgatoryClock());
        fetchPurgatory = FetchHandler.newPurgatory(config.get(BrokerConfig.FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS),
                clock.purgatoryClock());
        deleteRecordsPurgatory = DelayedDeleteRecords.newPurgatory(
                config.get(BrokerConfig.DELETE_RECORDS_PURGATORY_PURGE_INTERVAL_REQUESTS), clock.purgatoryClock());
        transactionBackoffs = new BackoffTimer(clock);
        jvmMeters = JvmMeters.bindTo(registry);
        new PurgatoryMeters(producePurgatory).bindTo(registry);
        new PurgatoryMeters(fetchPurgatory).bindTo(registry);
        new PurgatoryMeters(deleteRecordsPurgatory).bindTo(registry);
    }

    /**
     * The logs' meters: those of the logs open now on a thread of their own, started once the listeners are bound.
     * Their 40,000 gauges at 10,000 partitions take the registry's lock one by one, and running alongside the start
     * they made each meter the start registers itself (the JVM's, the purgatories', the listeners') wait for it.
     */
    private void meterLogs() {
        LogMeters.registerOnStart(topics.logs(), registry, registering -> {
            Thread thread = new Thread(registering, "log-meters");
            thread.setDaemon(true);
            thread.start();
        });
    }

    /** Serves the meters over HTTP when {@code metrics.port} is set (off by default). */
    private void startMetricsEndpoint() {
        int port = config.get(BrokerConfig.METRICS_PORT);
        if (port < 0) {
            return;
        }
        try {
            metricsEndpoint = new PrometheusEndpoint(registry, config.get(BrokerConfig.METRICS_HOST), port);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serve metrics on metrics.port " + port, e);
        }
    }

    /** Serves the controls over HTTP when {@code minibroker.controls.port} is set (off by default). */
    private void startControlsEndpoint() {
        int port = config.get(BrokerConfig.CONTROLS_PORT);
        if (port < 0) {
            return;
        }
        try {
            controlsEndpoint = new ControlsEndpoint(controls, config.get(BrokerConfig.CONTROLS_HOST), port);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serve the controls on minibroker.controls.port " + port, e);
        }
    }

    /**
     * This broker's test controls: inject errors, delay or withhold answers, cap versions, log requests, move a
     * manual clock (see {@link BrokerControls}).
     */
    public BrokerControls controls() {
        return controls;
    }

    /** Where the controls' HTTP endpoint listens ({@code minibroker.controls.port}). */
    public InetSocketAddress controlsAddress() {
        if (controlsEndpoint == null) {
            throw new IllegalStateException("minibroker.controls.port is not set");
        }
        return controlsEndpoint.address();
    }

    /**
     * Writes transaction markers on the partitions this broker leads: what the transaction coordinator calls for its
     * own node's partitions, and where the group coordinator registers to hear of markers on
     * {@code __consumer_offsets}.
     */
    public LeaderMarkerAppender transactionMarkers() {
        return transactions.markerAppender();
    }

    /** The controller's topics, their leaders and ISRs; only on the controller's node. */
    public TopicAssignments topicAssignments() {
        return controller().assignments();
    }

    /** The controller's view of the cluster's brokers; only on the controller's node. */
    public BrokerMembership membership() {
        return controller().membership();
    }

    private ControllerNode controller() {
        if (controller == null) {
            throw new IllegalStateException("node " + config.get(BrokerConfig.NODE_ID) + " is not the controller");
        }
        return controller;
    }

    /**
     * Stops as a crash would as far as the cluster can tell: no word to the controller, which fences this broker
     * only when its session expires. The node itself still stops cleanly (see {@link #close}).
     */
    public void halt() {
        if (cluster != null) {
            cluster.halt();
        }
        close();
    }

    /** The port a listener is bound to (the real one when it was configured as 0). */
    public int boundPort(String listenerName) {
        Channel channel = serverChannels.get(listenerName);
        if (channel == null) {
            throw new IllegalArgumentException("no listener named " + listenerName);
        }
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Advertised listeners with port 0 replaced by the bound port, and an empty host by the local host's name. */
    public List<Endpoint> advertisedListeners() {
        List<Endpoint> advertised = new ArrayList<>();
        for (Endpoint endpoint : config.advertisedListeners()) {
            int port = endpoint.port() == 0 && serverChannels.containsKey(endpoint.listenerName())
                    ? boundPort(endpoint.listenerName()) : endpoint.port();
            String host = endpoint.host().isEmpty() ? LocalHost.canonicalName() : endpoint.host();
            advertised.add(new Endpoint(endpoint.listenerName(), host, port));
        }
        return advertised;
    }

    /** The broker's meters (also served at {@code metrics.port} when it is set). */
    public PrometheusMeterRegistry meterRegistry() {
        return registry;
    }

    /** The port of the Prometheus endpoint; {@code metrics.port} 0 picks a free one. */
    public int metricsPort() {
        return metricsAddress().getPort();
    }

    /** Where the Prometheus endpoint listens: {@code metrics.host} (loopback by default) and its port. */
    public InetSocketAddress metricsAddress() {
        if (metricsEndpoint == null) {
            throw new IllegalStateException("metrics.port is not set");
        }
        return metricsEndpoint.address();
    }

    /**
     * Stops in the order that lets every client have its answer: stop accepting connections and reading
     * requests; finish the disk work of those already read; answer what is parked (fetches with the data they
     * have, joins and syncs with NOT_COORDINATOR) while the connections are still open; close each connection once
     * its responses are flushed (waiting at most {@value #FLUSH_RESPONSES_TIMEOUT_MS} ms); only then release the
     * event loops, and flush and close the logs, which no request can touch any more. Closing again does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (cluster != null) {
            cluster.stopHeartbeatsAndMetadata(); // first: the controller fences us while we still answer
        }
        if (controller != null) {
            controller.stopElections();
        }
        if (cluster != null) {
            cluster.closeReplicas(); // no more appends from leaders once the logs start closing
        }
        if (metricsEndpoint != null) {
            metricsEndpoint.close();
        }
        if (controlsEndpoint != null) {
            controlsEndpoint.close();
        }
        Closing.quietly(controls); // answers held by a hang go out, so that the connections can be flushed
        Closing.quietly(jvmMeters);
        for (Channel channel : serverChannels.values()) {
            channel.close().awaitUninterruptibly();
        }
        connections.stopReading();
        if (controller != null) {
            controller.answerParkedFetches();
        }
        if (cluster != null) {
            cluster.stopForwarding(); // requests already forwarded still get their answers
        }
        Closing.quietly(shareGroups); // parked share fetches answered, queued share-state writes finished
        finishDiskWork();
        Closing.quietly(producePurgatory);
        Closing.quietly(fetchPurgatory);
        Closing.quietly(deleteRecordsPurgatory);
        Closing.quietly(transactionBackoffs); // the produces waiting on one are asked again, the coordinator still up
        Closing.quietly(groupCoordinator);
        Closing.quietly(transactions);
        connections.flushAndClose(FLUSH_RESPONSES_TIMEOUT_MS);
        acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        Closing.quietly(cleaner);
        Closing.quietly(maintenance);
        Closing.quietly(highWatermarks); // after the event loops: no append moves a high watermark past this write
        if (cluster != null) {
            cluster.closeForwardingChannel();
        }
        if (topics != null) {
            try {
                topics.close();
            } catch (IOException e) {
                LOG.error("Could not close every log cleanly; the next start will recover them", e);
            }
        }
        LOG.info("minibroker node {} stopped", config.get(BrokerConfig.NODE_ID));
    }

    /**
     * Lets the disk work of the requests already read finish, so that they are answered too, and the topics being
     * created finish before their logs are closed; the controller's too, on its node.
     */
    private void finishDiskWork() {
        List<ExecutorService> executors = new ArrayList<>(List.of(disk, topicCreation));
        if (controller != null) {
            executors.add(controller.io());
        }
        // not shutdownNow: an interrupt closes the FileChannel an fsync is running on
        executors.forEach(ExecutorService::shutdown);
        try {
            for (ExecutorService executor : executors) {
                if (!executor.awaitTermination(DISK_WORK_TIMEOUT_S, TimeUnit.SECONDS)) {
                    LOG.warn("Disk work still running after {} s; stopping without waiting for it",
                            DISK_WORK_TIMEOUT_S);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
