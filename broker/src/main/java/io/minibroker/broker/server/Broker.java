package io.minibroker.broker.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.minibroker.broker.admin.AlterTopicConfigsHandler;
import io.minibroker.broker.admin.CreatePartitionsHandler;
import io.minibroker.broker.admin.CreateTopicsHandler;
import io.minibroker.broker.admin.DelayedDeleteRecords;
import io.minibroker.broker.admin.DeleteRecordsHandler;
import io.minibroker.broker.admin.DeleteTopicsHandler;
import io.minibroker.broker.admin.DescribeClientQuotasHandler;
import io.minibroker.broker.admin.DescribeConfigsHandler;
import io.minibroker.broker.admin.DescribeLogDirsHandler;
import io.minibroker.broker.admin.ElectLeadersHandler;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.ApiVersionsHandler;
import io.minibroker.broker.api.DiskBoundHandler;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.authz.AuthorizingHandler;
import io.minibroker.broker.authz.StandardAuthorizer;
import io.minibroker.broker.authz.TopicFacts;
import io.minibroker.broker.cluster.BrokerLifecycle;
import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadataHandler;
import io.minibroker.broker.cluster.ControllerForwarder;
import io.minibroker.broker.cluster.ControllerTopicAutoCreation;
import io.minibroker.broker.cluster.ControllerUnreachable;
import io.minibroker.broker.cluster.MetadataFetcher;
import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.control.BrokerControls;
import io.minibroker.broker.control.ControlsEndpoint;
import io.minibroker.broker.controller.BrokerMembership;
import io.minibroker.broker.controller.AssignmentStore;
import io.minibroker.broker.controller.ControllerApis;
import io.minibroker.broker.controller.ImageVersion;
import io.minibroker.broker.controller.LeaderElections;
import io.minibroker.broker.controller.TopicAssignments;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.fetch.FetchHandler;
import io.minibroker.broker.fetch.ListOffsetsHandler;
import io.minibroker.broker.fetch.OffsetForLeaderEpochHandler;
import io.minibroker.broker.group.ClusterOffsetsTopicLeaders;
import io.minibroker.broker.group.CoordinatorLocator;
import io.minibroker.broker.group.GroupApis;
import io.minibroker.broker.group.GroupCoordinator;
import io.minibroker.broker.log.LogCleaner;
import io.minibroker.broker.log.LogMaintenance;
import io.minibroker.broker.metadata.DescribeClusterHandler;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.metadata.MetadataHandler;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.metrics.ControllerMeters;
import io.minibroker.broker.metrics.JvmMeters;
import io.minibroker.broker.metrics.LogMeters;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.metrics.PrometheusEndpoint;
import io.minibroker.broker.metrics.ReplicaManagerMeters;
import io.minibroker.broker.network.ChannelSetup;
import io.minibroker.broker.network.ConnectionLimits;
import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.produce.DescribeProducersHandler;
import io.minibroker.broker.produce.InitProducerIdHandler;
import io.minibroker.broker.produce.ProduceHandler;
import io.minibroker.broker.produce.ProducerIdAllocator;
import io.minibroker.broker.produce.ProducerStates;
import io.minibroker.broker.produce.TransactionalProduceCheck;
import io.minibroker.broker.replica.ReplicaFetchers;
import io.minibroker.broker.replica.ReplicaManager;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.sasl.SaslAuthenticateHandler;
import io.minibroker.broker.sasl.SaslHandshakeHandler;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.broker.security.SaslListeners;
import io.minibroker.broker.security.SaslSession;
import io.minibroker.broker.security.ScramCredentials;
import io.minibroker.broker.security.SslEngineFactory;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.LocalTopicAutoCreation;
import io.minibroker.broker.topic.SingleNodeElections;
import io.minibroker.broker.topic.TopicAutoCreation;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.AddOffsetsToTxnHandler;
import io.minibroker.broker.transaction.AddPartitionsToTxnHandler;
import io.minibroker.broker.transaction.ClusterMarkerAppender;
import io.minibroker.broker.transaction.ClusterProduceCheck;
import io.minibroker.broker.transaction.CoordinatorOffsetsCheck;
import io.minibroker.broker.transaction.CoordinatorProduceCheck;
import io.minibroker.broker.transaction.DescribeTransactionsHandler;
import io.minibroker.broker.transaction.EndTxnHandler;
import io.minibroker.broker.transaction.LeaderMarkerAppender;
import io.minibroker.broker.transaction.ListTransactionsHandler;
import io.minibroker.broker.transaction.TransactionConfig;
import io.minibroker.broker.transaction.TransactionCoordinator;
import io.minibroker.broker.transaction.TransactionMarkerAppender;
import io.minibroker.broker.transaction.TransactionStateTopic;
import io.minibroker.broker.transaction.TransactionalInitProducerIdHandler;
import io.minibroker.broker.transaction.WriteTxnMarkersHandler;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One broker: binds every listener, serves the advertised APIs, and stops cleanly. A listener on port 0 gets a
 * free port; {@link #boundPort} reports it, and an advertised listener that names port 0 is advertised with the
 * real port, so clients reach a broker started on a random port.
 */
public final class Broker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);
    /** How long a stop waits for the last responses to reach slow clients before closing their connections. */
    private static final long FLUSH_RESPONSES_TIMEOUT_MS = 5_000;
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
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicBoolean closed = new AtomicBoolean();
    private PrometheusEndpoint metricsEndpoint;
    /** A test's controls over this broker's clients; the endpoint serving them only when configured. */
    private BrokerControls controls;
    private ControlsEndpoint controlsEndpoint;
    private JvmMeters jvmMeters;
    private TopicRegistry topics;
    private LogMaintenance maintenance;
    /** Compacts the logs of compacted topics; null when {@code log.cleaner.enable} is false. */
    private LogCleaner cleaner;
    private Purgatory<DelayedProduce> producePurgatory;
    private Purgatory<DelayedFetch> fetchPurgatory;
    /** Writes transaction markers on the partitions this broker leads (WriteTxnMarkers, the coordinator). */
    private LeaderMarkerAppender markerAppender;
    /**
     * How long a transaction marker or state waits to be replicated: Kafka's request.timeout.ms default, which its
     * coordinator's appends use.
     */
    private static final long TRANSACTION_REPLICATION_TIMEOUT_MS = 30_000;
    private Purgatory<DelayedDeleteRecords> deleteRecordsPurgatory;
    private GroupCoordinator groupCoordinator;
    private ShareGroupApis shareGroups;
    /** The transaction coordinator: every partition of {@code __transaction_state} on a single node. */
    private TransactionCoordinator transactionCoordinator;
    /** A cluster's: the coordinator's markers to other nodes' partitions, over its own channels. */
    private ClusterMarkerAppender clusterMarkers;
    /** A cluster's: a leader's questions to other nodes' transaction coordinators, over its own channels. */
    private ClusterProduceCheck clusterProduceCheck;
    /** Only on the controller's node: which brokers are in the cluster, and who elects new leaders. */
    private BrokerMembership membership;
    private LeaderElections elections;
    private TopicAssignments assignments;
    /** Only on the controller's node: the image's version, where brokers' metadata fetches wait for a change. */
    private ImageVersion imageVersion;
    /** Only in a cluster: this broker's registration and heartbeats. */
    private volatile BrokerLifecycle lifecycle;
    /** Only in a cluster: this broker's copy of the cluster's metadata. */
    private MetadataFetcher metadata;
    /** Only in a cluster: the partitions this broker hosts, led or followed. */
    private ReplicaManager replicas;
    /**
     * Only in a cluster: where the admin requests forwarded to the controller (and auto-creations) wait for its
     * answer, and their connection.
     */
    private ExecutorService forwarding;
    private NodeChannel forwardingChannel;

    /** Each SASL listener's new connections' authentication, by listener name. */
    private final Map<String, Supplier<SaslSession>> saslSessions = new HashMap<>();
    /** Each SSL or SASL_SSL listener's TLS, by listener name. */
    private final Map<String, SslEngineFactory> listenerTls = new HashMap<>();
    /** Only in a cluster: how this broker connects to the controller's listener; built at start, as its checks. */
    private final ClientSecurity controllerSecurity;

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
            Supplier<SaslSession> sessions = SaslListeners.sessionsFor(config, listener.listenerName(),
                    security.credentials());
            if (sessions != null) {
                saslSessions.put(listener.listenerName(), sessions);
            }
            if (config.usesTls(listener.listenerName())) {
                listenerTls.put(listener.listenerName(),
                        SslEngineFactory.of(config.sslSettings(listener.listenerName()), true));
            }
        }
        this.controllerSecurity = config.inCluster()
                ? ClientSecurity.forListener(config, config.get(BrokerConfig.CONTROLLER_LISTENER_NAMES).get(0)) : null;
    }

    /**
     * Opens (and if needed recovers) the logs, then binds every listener; throws if either fails, after
     * releasing what was opened.
     */
    public static Broker start(BrokerConfig config) throws InterruptedException, IOException {
        return start(config, BrokerClock.system());
    }

    /** {@link #start(BrokerConfig)} on the given clock: a test's {@link BrokerClock#manual} moves this broker's time. */
    public static Broker start(BrokerConfig config, BrokerClock clock) throws InterruptedException, IOException {
        Broker broker = new Broker(config, clock);
        try {
            broker.topics = TopicRegistry.open(config, clock.wallClock());
            broker.maintenance = new LogMaintenance(broker.topics.logs(), clock,
                    config.get(BrokerConfig.LOG_RETENTION_CHECK_INTERVAL_MS),
                    config.get(BrokerConfig.LOG_FLUSH_SCHEDULER_INTERVAL_MS),
                    config.get(BrokerConfig.LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS));
            broker.topics.logs().addListener(broker.maintenance); // rolled segments flushed right after
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

    private void bind() throws InterruptedException, IOException {
        ProducerIdAllocator producerIds = new ProducerIdAllocator(config.logDirs().get(0),
                config.inCluster() ? ProducerIdAllocator.firstIdOf(config.get(BrokerConfig.NODE_ID)) : 0);
        int metricsPort = config.get(BrokerConfig.METRICS_PORT);
        if (metricsPort >= 0) {
            try {
                metricsEndpoint = new PrometheusEndpoint(registry, config.get(BrokerConfig.METRICS_HOST), metricsPort);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("cannot serve metrics on metrics.port " + metricsPort, e);
            }
        }
        int nodeId = config.get(BrokerConfig.NODE_ID);
        String clusterId = config.get(BrokerConfig.CLUSTER_ID);
        LocalNode node = new LocalNode(nodeId, clusterId, this::advertisedListeners);
        producePurgatory = ProduceHandler.newPurgatory(config.get(BrokerConfig.PRODUCER_PURGATORY_PURGE_INTERVAL_REQUESTS),
                clock.purgatoryClock());
        fetchPurgatory = FetchHandler.newPurgatory(config.get(BrokerConfig.FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS),
                clock.purgatoryClock());
        deleteRecordsPurgatory = DelayedDeleteRecords.newPurgatory(
                config.get(BrokerConfig.DELETE_RECORDS_PURGATORY_PURGE_INTERVAL_REQUESTS), clock.purgatoryClock());
        topics.logs().addListener(new LogMeters(registry));
        jvmMeters = JvmMeters.bindTo(registry);
        new PurgatoryMeters(producePurgatory).bindTo(registry);
        new PurgatoryMeters(fetchPurgatory).bindTo(registry);
        new PurgatoryMeters(deleteRecordsPurgatory).bindTo(registry);
        ProducerStates producerStates = new ProducerStates();
        BrokerTopicMetrics topicMetrics = new BrokerTopicMetrics(registry);
        PartitionLeadership leadership = PartitionLeadership.SINGLE_NODE;
        if (config.inCluster()) {
            replicas = new ReplicaManager(nodeId, topics, producePurgatory, fetchPurgatory, deleteRecordsPurgatory,
                    new ReplicaFetchers(nodeId, this::brokerEpoch, config.get(BrokerConfig.REPLICA_FETCH_WAIT_MAX_MS),
                            config.get(BrokerConfig.REPLICA_FETCH_MIN_BYTES),
                            ClientSecurity.forListener(config, config.interBrokerListenerName())),
                    producerStates, controllerChannel("alter-partition"), config.get(BrokerConfig.REPLICA_LAG_TIME_MAX_MS),
                    config.get(BrokerConfig.BROKER_SESSION_TIMEOUT_MS),
                    config.get(BrokerConfig.REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS), this::brokerEpoch, clock);
            leadership = replicas;
            metadata = new MetadataFetcher(controllerChannel("metadata"), controllerChannel("metadata-changes"),
                    nodeId, config.controllerVoter().nodeId(), config.interBrokerListenerName(), replicas::apply,
                    security::apply);
        }
        markerAppender = new LeaderMarkerAppender(topics, config, producerStates, leadership, producePurgatory,
                fetchPurgatory, disk, clock, TRANSACTION_REPLICATION_TIMEOUT_MS);
        // In a cluster a transaction state counts once replicated, as Kafka's appendRecords with acks=-1; the
        // coordinator takes the outcome back to its own thread.
        CoordinatorAppender stateAppender = config.inCluster()
                ? CoordinatorAppender.replicated(leadership, producePurgatory, fetchPurgatory,
                        topic -> TopicConfig.minInsyncReplicas(config, topics.overrides(topic).orElse(Map.of())),
                        TRANSACTION_REPLICATION_TIMEOUT_MS, Runnable::run)
                : CoordinatorAppender.SINGLE_NODE;
        TransactionMarkerAppender coordinatorMarkers = markerAppender;
        if (config.inCluster()) {
            // Markers to partitions other nodes lead go there as WriteTxnMarkers, on the inter-broker listener.
            clusterMarkers = new ClusterMarkerAppender(nodeId, metadata::current, markerAppender,
                    config.interBrokerListenerName(),
                    ClientSecurity.forListener(config, config.interBrokerListenerName()),
                    (int) TRANSACTION_REPLICATION_TIMEOUT_MS);
            coordinatorMarkers = clusterMarkers;
        }
        transactionCoordinator = new TransactionCoordinator(new TransactionStateTopic(topics, stateAppender, clock),
                coordinatorMarkers, producerIds::next, transactionConfig(config), clock);
        StandardAuthorizer authorizer = security.authorizer();
        // What a transactional produce asks first (KIP-890); TxnOffsetCommit v5 adds its offsets partition through it too.
        TransactionalProduceCheck transactionalAdds = produceCheck(config, nodeId);
        // Group configs are a single node's (kept in its log dir); a cluster's brokers use the group.share.* defaults.
        GroupConfigs groupConfigs = config.inCluster() ? null : GroupConfigs.open(config, config.logDirs().get(0));
        shareGroups = new ShareGroupApis(config, clock, groupConfigs, topics, leadership, disk, connections, registry,
                () -> groupCoordinator);
        PartitionLeadership dataWakesShareFetches = shareGroups.wakingOnNewData(leadership);
        SupportedApis apis = new SupportedApis();
        Function<ApiHandler, ApiHandler> onDisk = DiskBoundHandler.on(disk);
        // The table is built once: the APIs both modes serve alike, then each mode's own (SupportedApis refuses an
        // API added twice), then the groups'.
        apis.add(ApiKey.API_VERSIONS, new ApiVersionsHandler(apis, clusterId, nodeId,
                        config.get(BrokerConfig.TRANSACTION_VERSION).shortValue()))
                .add(ApiKey.DELETE_RECORDS, onDisk.apply(new DeleteRecordsHandler(topics, leadership, deleteRecordsPurgatory)))
                // Produce 0-2 are advertised but refused: librdkafka turns compression off when Produce's
                // advertised minimum is above 0 (KAFKA-18659), so Kafka 4 advertises them too.
                .add(ApiKey.PRODUCE, (short) 0, ApiKey.PRODUCE.highestStableVersion(),
                        new ProduceHandler(topics, config, producerStates, producePurgatory, fetchPurgatory,
                                disk, dataWakesShareFetches, topicMetrics,
                                transactionalAdds))
                .add(ApiKey.INIT_PRODUCER_ID, onDisk.apply(new InitProducerIdHandler(producerIds,
                        new TransactionalInitProducerIdHandler(transactionCoordinator))))
                .add(ApiKey.FETCH, new FetchHandler(topics, fetchPurgatory, dataWakesShareFetches, topicMetrics))
                .add(ApiKey.LIST_OFFSETS, new ListOffsetsHandler(topics, leadership))
                .add(ApiKey.OFFSET_FOR_LEADER_EPOCH, new OffsetForLeaderEpochHandler(topics, leadership))
                .add(ApiKey.DESCRIBE_LOG_DIRS, new DescribeLogDirsHandler(config.logDirs(), topics.logs()))
                .add(ApiKey.DESCRIBE_PRODUCERS, onDisk.apply(new DescribeProducersHandler(topics, producerStates,
                        leadership)))
                // v0 too, as Kafka: librdkafka takes a broker without it for one without SASL, though it sends v1.
                .add(ApiKey.SASL_HANDSHAKE, new SaslHandshakeHandler())
                .add(ApiKey.SASL_AUTHENTICATE, new SaslAuthenticateHandler())
                .add(ApiKey.WRITE_TXN_MARKERS, new WriteTxnMarkersHandler(markerAppender))
                .add(ApiKey.LIST_TRANSACTIONS, new ListTransactionsHandler(transactionCoordinator))
                .add(ApiKey.DESCRIBE_TRANSACTIONS, new DescribeTransactionsHandler(transactionCoordinator))
                .add(ApiKey.DESCRIBE_CLIENT_QUOTAS, new DescribeClientQuotasHandler());
        shareGroups.register(apis);
        ControllerForwarder controller = null;
        TopicAutoCreation autoCreation; // of topics created on a client's account, by the controller in a cluster
        if (config.inCluster()) {
            forwarding = Executors.newSingleThreadExecutor(task -> new Thread(task, "controller-forwarding"));
            forwardingChannel = controllerChannel("forwarding");
            controller = new ControllerForwarder(forwardingChannel, metadata, forwarding);
            autoCreation = new ControllerTopicAutoCreation(controller, config);
            security.register(apis, controller, onDisk);
            // The admin requests that change topics go to the controller; what clients read comes from its image.
            apis.add(ApiKey.METADATA, new ClusterMetadataHandler(clusterId, metadata,
                    config.get(BrokerConfig.AUTO_CREATE_TOPICS_ENABLE) ? autoCreation : null))
                    .add(ApiKey.DESCRIBE_CLUSTER, new DescribeClusterHandler(clusterId, metadata))
                    .add(ApiKey.CREATE_TOPICS, controller.handlerFor(ApiKey.CREATE_TOPICS,
                            ControllerUnreachable::createTopics))
                    .add(ApiKey.DELETE_TOPICS, controller.handlerFor(ApiKey.DELETE_TOPICS,
                            ControllerUnreachable::deleteTopics))
                    .add(ApiKey.CREATE_PARTITIONS, controller.handlerFor(ApiKey.CREATE_PARTITIONS,
                            ControllerUnreachable::createPartitions))
                    .add(ApiKey.ELECT_LEADERS, controller.handlerFor(ApiKey.ELECT_LEADERS,
                            ControllerUnreachable::electLeaders))
                    .add(ApiKey.ALTER_CONFIGS, controller.handlerFor(ApiKey.ALTER_CONFIGS,
                            ControllerUnreachable::alterConfigs))
                    .add(ApiKey.INCREMENTAL_ALTER_CONFIGS, controller.handlerFor(ApiKey.INCREMENTAL_ALTER_CONFIGS,
                            ControllerUnreachable::incrementalAlterConfigs))
                    .add(ApiKey.DESCRIBE_CONFIGS, new DescribeConfigsHandler(
                            topic -> metadata.current().topic(topic).map(ClusterMetadata.TopicImage::configs), config, node));
        } else {
            autoCreation = new LocalTopicAutoCreation(topics, disk);
            security.register(apis, null, onDisk);
            apis.add(ApiKey.METADATA, new MetadataHandler(node, topics, config, disk))
                    .add(ApiKey.DESCRIBE_CLUSTER, new DescribeClusterHandler(clusterId, node))
                    .add(ApiKey.CREATE_TOPICS, onDisk.apply(new CreateTopicsHandler(topics, node, config)))
                    .add(ApiKey.DELETE_TOPICS, onDisk.apply(new DeleteTopicsHandler(topics,
                            config.get(BrokerConfig.DELETE_TOPIC_ENABLE))))
                    .add(ApiKey.CREATE_PARTITIONS, onDisk.apply(new CreatePartitionsHandler(topics, node)))
                    .add(ApiKey.ELECT_LEADERS, new ElectLeadersHandler(new SingleNodeElections(topics)))
                    .add(ApiKey.ALTER_CONFIGS, onDisk.apply(new AlterTopicConfigsHandler(topics, ApiKey.ALTER_CONFIGS,
                            groupConfigs)))
                    .add(ApiKey.INCREMENTAL_ALTER_CONFIGS, onDisk.apply(new AlterTopicConfigsHandler(topics,
                            ApiKey.INCREMENTAL_ALTER_CONFIGS, groupConfigs)))
                    .add(ApiKey.DESCRIBE_CONFIGS, new DescribeConfigsHandler(topics::overrides, config, node,
                            groupConfigs));
        }
        if (config.inCluster()) {
            // Groups belong to the leaders of __consumer_offsets' partitions, which the controller creates.
            groupCoordinator = GroupCoordinator.inCluster(config, topics, replicas, producePurgatory, fetchPurgatory,
                    clock);
            replicas.setLeadershipListener(new CoordinatorLeadership(groupCoordinator, transactionCoordinator));
            GroupApis.register(apis, groupCoordinator, CoordinatorLocator.forGroups(
                    new ClusterOffsetsTopicLeaders(metadata::current), autoCreation),
                    CoordinatorLocator.forTransactions(new ClusterOffsetsTopicLeaders(metadata::current,
                            TransactionStateTopic.NAME), autoCreation), topics,
                    new CoordinatorOffsetsCheck(transactionalAdds));
        } else {
            groupCoordinator = new GroupCoordinator(config, topics, clock, groupConfigs);
            GroupApis.register(apis, groupCoordinator, CoordinatorLocator.forGroups(
                    CoordinatorLocator.singleNode(node, topics), autoCreation),
                    CoordinatorLocator.forTransactions(CoordinatorLocator.singleNode(node, topics,
                            TransactionStateTopic.NAME), autoCreation), topics,
                    new CoordinatorOffsetsCheck(transactionalAdds));
            transactionCoordinator.loadAll();
        }
        apis.add(ApiKey.ADD_PARTITIONS_TO_TXN, new AddPartitionsToTxnHandler(transactionCoordinator,
                        config.inCluster() ? (topic, partition) -> metadata.current().topic(topic)
                                .filter(found -> partition >= 0 && partition < found.partitions().size()).isPresent()
                                : (topic, partition) -> topics.get(topic).filter(found -> partition >= 0
                                        && partition < found.partitions()).isPresent()))
                .add(ApiKey.ADD_OFFSETS_TO_TXN, new AddOffsetsToTxnHandler(transactionCoordinator,
                        groupCoordinator::offsetsPartitionFor))
                .add(ApiKey.END_TXN, new EndTxnHandler(transactionCoordinator));
        markerAppender.addCompletionListener(groupCoordinator);
        groupCoordinator.bindMetersTo(registry);
        if (replicas != null) {
            replicas.bindMetersTo(registry);
        } else {
            ReplicaManagerMeters.singleNode(registry, topics.logs().allLogs());
        }
        if (authorizer != null) {
            TopicFacts topicFacts = new TopicFacts(topics::nameOf, name -> topics.get(name).isPresent(),
                    config.get(BrokerConfig.AUTO_CREATE_TOPICS_ENABLE));
            apis.wrapHandlers((api, handler) -> AuthorizingHandler.wrap(api, handler, authorizer, topicFacts));
        }
        SupportedApis controllerApis = null;
        if (config.isController()) {
            imageVersion = new ImageVersion(clock.purgatoryClock());
            new PurgatoryMeters(imageVersion.purgatory()).bindTo(registry);
            membership = new BrokerMembership(config.get(BrokerConfig.BROKER_SESSION_TIMEOUT_MS), clock::monotonicMs,
                    imageVersion::changed);
            assignments = TopicAssignments.open(nodeId, membership, config.logDirs().get(0),
                    imageVersion::changed);
            Path controllerDir = Files.createDirectories(config.logDirs().get(0).resolve(AssignmentStore.DIR));
            controllerApis = ControllerApis.create(config, node, membership, assignments, imageVersion, disk,
                    config.authorizerEnabled() ? StandardAuthorizer.open(controllerDir,
                            config.get(BrokerConfig.SUPER_USERS), config.get(BrokerConfig.ALLOW_EVERYONE_IF_NO_ACL_FOUND))
                            : null,
                    ScramCredentials.open(controllerDir));
            ControllerMeters.bindTo(registry, true, assignments::offlinePartitionCount);
            elections = new LeaderElections(membership, assignments,
                    config.get(BrokerConfig.BROKER_SESSION_TIMEOUT_MS),
                    config.get(BrokerConfig.AUTO_LEADER_REBALANCE_ENABLE)
                            ? TimeUnit.SECONDS.toMillis(config.get(BrokerConfig.LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS))
                            : 0, clock);
        } else {
            // A single node is its own controller, with no partition ever offline; a cluster's other brokers are not.
            ControllerMeters.bindTo(registry, !config.inCluster(), null);
        }
        controls = new BrokerControls(apis, connections, clock,
                id -> topics.known(id).map(io.minibroker.broker.topic.TopicMetadata::name),
                config.inCluster() ? assignments : null, replicas == null ? null : new ReplicationControls(replicas));
        startControlsEndpoint();
        List<String> controllerListeners = config.get(BrokerConfig.CONTROLLER_LISTENER_NAMES);
        ConnectionLimits connectionLimits = ConnectionBudgets.of(config, clock, registry);
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
                            config.get(BrokerConfig.TLS_HANDSHAKE_TIMEOUT_MS), connectionLimits,
                            clientListener ? controls : null));
            InetSocketAddress address = listener.host().isEmpty()
                    ? new InetSocketAddress(listener.port())
                    : new InetSocketAddress(listener.host(), listener.port());
            Channel channel = bootstrap.bind(address).sync().channel();
            serverChannels.put(listener.listenerName(), channel);
            LOG.info("Listening on {} ({}), advertised as {}", channel.localAddress(), listener.listenerName(),
                    node.endpointFor(listener.listenerName()).map(Endpoint::toString).orElse("nothing"));
        }
        if (config.inCluster()) {
            lifecycle = new BrokerLifecycle(nodeId, clusterId, this::advertisedListeners,
                    controllerChannel("lifecycle"), metadata, config.get(BrokerConfig.BROKER_HEARTBEAT_INTERVAL_MS));
            lifecycle.start();
        }
        LOG.info("minibroker node {} of cluster {} started", nodeId, clusterId);
    }

    private static TransactionConfig transactionConfig(BrokerConfig config) {
        return new TransactionConfig(config.get(BrokerConfig.TRANSACTION_MAX_TIMEOUT_MS),
                config.get(BrokerConfig.TRANSACTIONAL_ID_EXPIRATION_MS),
                config.get(BrokerConfig.TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS),
                config.get(BrokerConfig.TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS),
                config.get(BrokerConfig.TRANSACTION_VERSION).shortValue());
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
     * What a leader asks before appending a transactional produce (KIP-890): in a cluster, the coordinator of the
     * id, which may be another node.
     */
    private TransactionalProduceCheck produceCheck(BrokerConfig config, int nodeId) {
        if (!config.inCluster()) {
            return new CoordinatorProduceCheck(transactionCoordinator);
        }
        clusterProduceCheck = new ClusterProduceCheck(nodeId, metadata::current, transactionCoordinator,
                config.interBrokerListenerName(), ClientSecurity.forListener(config, config.interBrokerListenerName()),
                (int) TRANSACTION_REPLICATION_TIMEOUT_MS);
        return clusterProduceCheck;
    }

    /**
     * A connection to the controller for one purpose (each its own, so that a slow forwarded request never
     * delays a heartbeat); a request waits at most the session timeout, past which its answer is moot.
     */
    private NodeChannel controllerChannel(String purpose) {
        return new NodeChannel(config.controllerVoter().host(), config.controllerVoter().port(),
                "broker-" + config.get(BrokerConfig.NODE_ID) + "-" + purpose,
                config.get(BrokerConfig.BROKER_SESSION_TIMEOUT_MS),
                controllerSecurity);
    }

    /** This broker's epoch from its registration with the controller, -1 before it has one. */
    private long brokerEpoch() {
        BrokerLifecycle registered = lifecycle;
        return registered == null ? -1 : registered.brokerEpoch();
    }


    /**
     * Writes transaction markers on the partitions this broker leads: what the transaction coordinator calls for its
     * own node's partitions, and where the group coordinator registers to hear of markers on
     * {@code __consumer_offsets}.
     */
    public LeaderMarkerAppender transactionMarkers() {
        return markerAppender;
    }

    /** The controller's topics, their leaders and ISRs; only on the controller's node. */
    public TopicAssignments topicAssignments() {
        if (assignments == null) {
            throw new IllegalStateException("node " + config.get(BrokerConfig.NODE_ID) + " is not the controller");
        }
        return assignments;
    }

    /** The controller's view of the cluster's brokers; only on the controller's node. */
    public BrokerMembership membership() {
        if (membership == null) {
            throw new IllegalStateException("node " + config.get(BrokerConfig.NODE_ID) + " is not the controller");
        }
        return membership;
    }

    /**
     * Stops as a crash would as far as the cluster can tell: no word to the controller, which fences this broker
     * only when its session expires. The node itself still stops cleanly (see {@link #close}).
     */
    public void halt() {
        if (lifecycle != null) {
            lifecycle.halt();
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
        closeQuietly(lifecycle); // first: the controller fences us while we still answer
        closeQuietly(metadata); // no image is applied once the replicas start closing
        closeQuietly(elections);
        closeQuietly(replicas); // no more appends from leaders once the logs start closing
        if (metricsEndpoint != null) {
            metricsEndpoint.close();
        }
        if (controlsEndpoint != null) {
            controlsEndpoint.close();
        }
        closeQuietly(controls); // answers held by a hang go out, so that the connections can be flushed
        closeQuietly(jvmMeters);
        for (Channel channel : serverChannels.values()) {
            channel.close().awaitUninterruptibly();
        }
        connections.stopReading();
        closeQuietly(imageVersion); // the brokers' parked metadata fetches are answered now, not at their timeout
        if (forwarding != null) {
            forwarding.shutdown(); // requests already forwarded still get their answers
        }
        closeQuietly(shareGroups); // parked share fetches answered, lock releases written before the disk stops
        finishDiskWork();
        closeQuietly(producePurgatory);
        closeQuietly(fetchPurgatory);
        closeQuietly(deleteRecordsPurgatory);
        closeQuietly(groupCoordinator);
        closeQuietly(transactionCoordinator);
        closeQuietly(clusterMarkers);
        closeQuietly(clusterProduceCheck);
        connections.flushAndClose(FLUSH_RESPONSES_TIMEOUT_MS);
        acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        closeQuietly(cleaner);
        closeQuietly(maintenance);
        closeQuietly(forwardingChannel);
        if (topics != null) {
            try {
                topics.close();
            } catch (IOException e) {
                LOG.error("Could not close every log cleanly; the next start will recover them", e);
            }
        }
        LOG.info("minibroker node {} stopped", config.get(BrokerConfig.NODE_ID));
    }

    /** Lets the disk work of the requests already read finish, so that they are answered too. */
    private void finishDiskWork() {
        disk.shutdown(); // not shutdownNow: an interrupt closes the FileChannel an fsync is running on
        try {
            if (!disk.awaitTermination(DISK_WORK_TIMEOUT_S, TimeUnit.SECONDS)) {
                LOG.warn("Disk work still running after {} s; stopping without waiting for it", DISK_WORK_TIMEOUT_S);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes a part that may not have been started (a failed start closes what it opened). */
    private static void closeQuietly(AutoCloseable part) {
        if (part == null) {
            return;
        }
        try {
            part.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.error("Could not close {} cleanly", part, e);
        }
    }
}
