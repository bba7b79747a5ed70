package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.produce.TransactionalProduceCheck;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import static io.minibroker.broker.transaction.PartitionErrors.every;

/**
 * {@link TransactionalProduceCheck} on a cluster's partition leader, as Kafka's AddPartitionsToTxnManager: the
 * transaction's coordinator is the leader of its id's {@code __transaction_state} partition in the latest image;
 * when that is this node the coordinator is asked directly ({@link CoordinatorProduceCheck}), else with
 * AddPartitionsToTxn v5 over a channel to it (VerifyOnly for a Produce below v12, whose client added the
 * partitions itself), the questions to one node batched as Kafka batches them ({@link AddPartitionsQueues}). No
 * coordinator known or reachable is an error the producer retries. An implicit add that meets
 * CONCURRENT_TRANSACTIONS is asked again as {@link CoordinatorProduceCheck#askAgainWhileConcurrent} says, the
 * coordinator looked up anew each time.
 */
public final class ClusterProduceCheck implements TransactionalProduceCheck, AutoCloseable {

    private static final short ADD_PARTITIONS_VERSION = 5;

    private final int nodeId;
    private final Supplier<ClusterMetadata> image;
    private final CoordinatorProduceCheck local;
    private final String listenerName;
    private final NodeChannels channels;
    private final AddPartitionsQueues queues;

    /** @param local the check of this node's own coordinator, for the ids whose partition this node leads */
    public ClusterProduceCheck(int nodeId, Supplier<ClusterMetadata> image, CoordinatorProduceCheck local,
                               String listenerName, ClientSecurity security, int timeoutMs) {
        this.nodeId = nodeId;
        this.image = image;
        this.local = local;
        this.listenerName = listenerName;
        this.channels = new NodeChannels("broker-" + nodeId + "-txn-verification", security, timeoutMs);
        this.queues = new AddPartitionsQueues((node, request) -> channels.send(node, ApiKey.ADD_PARTITIONS_TO_TXN,
                ADD_PARTITIONS_VERSION, request));
    }

    @Override
    public CompletionStage<Map<TopicPartition, Errors>> beforeAppend(String transactionalId, long producerId,
                                                                       short producerEpoch,
                                                                       Collection<TopicPartition> partitions,
                                                                       short produceVersion) {
        return local.askAgainWhileConcurrent(() -> ask(transactionalId, producerId, producerEpoch, partitions,
                produceVersion), produceVersion)
                .thenApply(errors -> CoordinatorProduceCheck.forProduce(errors, produceVersion));
    }

    /** The coordinator's answer for each partition, asked once of the id's coordinator in the latest image. */
    private CompletionStage<Map<TopicPartition, Errors>> ask(String transactionalId, long producerId,
                                                             short producerEpoch,
                                                             Collection<TopicPartition> partitions,
                                                             short produceVersion) {
        ClusterMetadata current = image.get();
        Optional<Integer> coordinator = current.topic(TransactionStateTopic.NAME)
                .map(topic -> topic.partitions().get(TransactionCoordinator.partitionFor(transactionalId,
                        topic.partitions().size())).leader());
        if (coordinator.isPresent() && coordinator.get() == nodeId) {
            return local.ask(transactionalId, producerId, producerEpoch, partitions, produceVersion);
        }
        Optional<BrokerNode> node = coordinator.flatMap(id -> current.brokers(listenerName).stream()
                .filter(broker -> broker.id() == id).findFirst());
        if (node.isEmpty()) {
            return CompletableFuture.completedFuture(every(partitions, Errors.COORDINATOR_NOT_AVAILABLE));
        }
        return queues.enqueue(node.get(), transactionalId, producerId, producerEpoch, partitions,
                !CoordinatorProduceCheck.addsImplicitly(produceVersion));
    }

    @Override
    public void close() {
        channels.close();
    }
}
