package io.minibroker.broker.server;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.cluster.MetadataFetcher;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.feature.Feature;
import io.minibroker.broker.feature.FinalizedFeatures;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.produce.InitProducerIdHandler;
import io.minibroker.broker.produce.ProducerIdAllocator;
import io.minibroker.broker.produce.TransactionalProduceCheck;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.AddOffsetsToTxnHandler;
import io.minibroker.broker.transaction.AddPartitionsToTxnHandler;
import io.minibroker.broker.transaction.BackoffTimer;
import io.minibroker.broker.transaction.ClusterMarkerAppender;
import io.minibroker.broker.transaction.ClusterProduceCheck;
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

import java.util.concurrent.Executor;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Transactions as a broker wires them, in either mode: the transaction coordinator over {@code __transaction_state},
 * the marker appender of the partitions this broker leads, and in a cluster the coordinator's markers to, and a
 * leader's KIP-890 questions for, other nodes, each over its own channels; and the APIs over them.
 */
final class TransactionApis implements AutoCloseable {

    /**
     * How long a transaction marker or state waits to be replicated: Kafka's request.timeout.ms default, which its
     * coordinator's appends use.
     */
    private static final long TRANSACTION_REPLICATION_TIMEOUT_MS = 30_000;

    private final ProducerIdAllocator producerIds;
    /** Writes transaction markers on the partitions this broker leads (WriteTxnMarkers, the coordinator). */
    private final LeaderMarkerAppender markerAppender;
    /** A cluster's: the coordinator's markers to other nodes' partitions, over its own channels. */
    private final ClusterMarkerAppender clusterMarkers;
    /** The transaction coordinator: every partition of {@code __transaction_state} on a single node. */
    private final TransactionCoordinator coordinator;
    /** What a transactional produce asks first (KIP-890); a cluster's asks other nodes' coordinators too. */
    private final TransactionalProduceCheck produceCheck;
    /** A cluster's: a leader's questions to other nodes' transaction coordinators, over its own channels. */
    private final ClusterProduceCheck clusterProduceCheck;
    /** The coordinator's answers to this node's produces, with the backoffs of their retries. */
    private final CoordinatorProduceCheck localProduceCheck;

    /**
     * @param metadata a cluster broker's copy of the metadata; null on a single node
     * @param backoffs the broker's, where the coordinator's marker retries and the produces' AddPartitionsToTxn
     *                 retries wait (closed by the broker, before this)
     */
    TransactionApis(BrokerConfig config, BrokerClock clock, TopicRegistry topics,
                    PartitionLeadership leadership, Purgatory<DelayedProduce> producePurgatory,
                    Purgatory<DelayedFetch> fetchPurgatory, Executor disk, ProducerIdAllocator producerIds,
                    MetadataFetcher metadata, BackoffTimer backoffs, FinalizedFeatures features) {
        this.producerIds = producerIds;
        int nodeId = config.get(BrokerConfig.NODE_ID);
        markerAppender = new LeaderMarkerAppender(topics, config, leadership, producePurgatory,
                fetchPurgatory, disk, clock, TRANSACTION_REPLICATION_TIMEOUT_MS);
        // In a cluster a transaction state counts once replicated, as Kafka's appendRecords with acks=-1; the
        // coordinator takes the outcome back to its own thread.
        CoordinatorAppender stateAppender = config.inCluster()
                ? CoordinatorAppender.replicated(leadership, producePurgatory, fetchPurgatory,
                        topics::minInsyncReplicas,
                        TRANSACTION_REPLICATION_TIMEOUT_MS, Runnable::run)
                : CoordinatorAppender.SINGLE_NODE;
        TransactionMarkerAppender coordinatorMarkers = markerAppender;
        // A cluster's two kinds of channels to other nodes share one client security of the inter-broker listener.
        ClientSecurity interBroker = config.inCluster()
                ? ClientSecurity.forListener(config, config.interBrokerListenerName(), clock::monotonicMs) : null;
        if (config.inCluster()) {
            // Markers to partitions other nodes lead go there as WriteTxnMarkers, on the inter-broker listener.
            clusterMarkers = new ClusterMarkerAppender(nodeId, metadata::current, markerAppender,
                    config.interBrokerListenerName(), interBroker,
                    (int) TRANSACTION_REPLICATION_TIMEOUT_MS);
            coordinatorMarkers = clusterMarkers;
        } else {
            clusterMarkers = null;
        }
        coordinator = new TransactionCoordinator(new TransactionStateTopic(topics, stateAppender, clock),
                coordinatorMarkers, producerIds::next, transactionConfig(config, features), clock, backoffs);
        localProduceCheck = new CoordinatorProduceCheck(coordinator,
                config.get(BrokerConfig.ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MS),
                config.get(BrokerConfig.ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MAX_MS), backoffs);
        TransactionalProduceCheck asked;
        if (config.inCluster()) {
            clusterProduceCheck = new ClusterProduceCheck(nodeId, metadata::current, localProduceCheck,
                    config.interBrokerListenerName(), interBroker,
                    (int) TRANSACTION_REPLICATION_TIMEOUT_MS);
            asked = clusterProduceCheck;
        } else {
            clusterProduceCheck = null;
            asked = localProduceCheck;
        }
        produceCheck = config.get(BrokerConfig.TRANSACTION_PARTITION_VERIFICATION_ENABLE)
                ? asked : CoordinatorProduceCheck.addingOnly(asked);
    }

    private static TransactionConfig transactionConfig(BrokerConfig config, FinalizedFeatures features) {
        return new TransactionConfig(config.get(BrokerConfig.TRANSACTION_MAX_TIMEOUT_MS),
                config.get(BrokerConfig.TRANSACTIONAL_ID_EXPIRATION_MS),
                config.get(BrokerConfig.TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS),
                config.get(BrokerConfig.TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS),
                () -> features.level(Feature.TRANSACTION_VERSION));
    }

    /**
     * What a leader asks before appending a transactional produce (KIP-890): in a cluster, the coordinator of the
     * id, which may be another node. TxnOffsetCommit v5 adds its offsets partition through it too.
     */
    TransactionalProduceCheck produceCheck() {
        return produceCheck;
    }

    /**
     * Writes transaction markers on the partitions this broker leads: what the coordinator calls for its own node's
     * partitions, and where the group coordinator registers to hear of markers on {@code __consumer_offsets}.
     */
    LeaderMarkerAppender markerAppender() {
        return markerAppender;
    }

    TransactionCoordinator coordinator() {
        return coordinator;
    }

    /**
     * InitProducerId (idempotent and transactional), the transactional APIs and WriteTxnMarkers.
     *
     * @param partitionExists whether a partition is one AddPartitionsToTxn may add: in this node's or the cluster's
     *                        topics
     * @param offsetsPartitionOfGroup the {@code __consumer_offsets} partition of a group, for AddOffsetsToTxn
     */
    void register(SupportedApis apis, Function<ApiHandler, ApiHandler> onDisk,
                  BiPredicate<String, Integer> partitionExists, ToIntFunction<String> offsetsPartitionOfGroup) {
        apis.add(ApiKey.INIT_PRODUCER_ID, new InitProducerIdHandler(producerIds,
                        new TransactionalInitProducerIdHandler(coordinator), onDisk))
                .add(ApiKey.WRITE_TXN_MARKERS, new WriteTxnMarkersHandler(markerAppender))
                .add(ApiKey.LIST_TRANSACTIONS, new ListTransactionsHandler(coordinator))
                .add(ApiKey.DESCRIBE_TRANSACTIONS, new DescribeTransactionsHandler(coordinator))
                .add(ApiKey.ADD_PARTITIONS_TO_TXN, new AddPartitionsToTxnHandler(coordinator, partitionExists))
                .add(ApiKey.ADD_OFFSETS_TO_TXN, new AddOffsetsToTxnHandler(coordinator, offsetsPartitionOfGroup))
                .add(ApiKey.END_TXN, new EndTxnHandler(coordinator));
    }

    /**
     * The coordinator, then the cluster's channels to other nodes: after the group coordinator, and after the
     * broker's backoffs, whose closing answers the produces waiting on one while the coordinator still answers.
     */
    @Override
    public void close() {
        Closing.quietly(coordinator);
        Closing.quietly(clusterMarkers);
        Closing.quietly(clusterProduceCheck);
    }
}
