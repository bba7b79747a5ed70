package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.log.VerificationGuard;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.TransactionalOffsetsCheck;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView.TxnOffsetCommitRequestPartition;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView.TxnOffsetCommitRequestTopic;
import io.minibroker.protocol.message.view.TxnOffsetCommitResponseView;
import io.minibroker.protocol.message.view.TxnOffsetCommitResponseView.TxnOffsetCommitResponsePartition;
import io.minibroker.protocol.message.view.TxnOffsetCommitResponseView.TxnOffsetCommitResponseTopic;
import io.minibroker.protocol.schema.Struct;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * TxnOffsetCommit: offsets a transactional producer commits for a group as part of its transaction
 * ({@code sendOffsetsToTransaction}). As Kafka's KafkaApis, partitions of unknown topics are answered here; the
 * coordinator validates the group fields (v3+: generation, member id, group instance id, as OffsetCommit's but
 * without the group state check) and writes the rest as a transactional batch of the producer, where they stay
 * pending until the producer's marker. v6 names topics by id.
 *
 * <p>Before writing, the transaction coordinator is asked ({@link TransactionalOffsetsCheck}) to add this group's
 * partition of {@code __consumer_offsets} to the transaction, which v5+ clients (transaction version 2) leave to the
 * broker instead of sending AddOffsetsToTxn: without it no marker would reach that partition and the offsets would
 * stay pending for ever. Below v5 it verifies that the client's AddOffsetsToTxn added it. With no check (a cluster node, where the coordinator may be elsewhere) nothing is asked.
 *
 * <p>As Kafka's group coordinator, it first starts a verification on that partition's log (KIP-890's
 * VerificationGuard, {@link GroupCoordinator#startTransactionVerification}), whose guard the write presents: a
 * transaction ended between the coordinator's answer and the write (its marker on the partition meanwhile) refuses
 * the write INVALID_TXN_STATE instead of opening a transaction there that no coordinator would ever end. A producer
 * whose transaction is open on the partition at its epoch already is written without asking.
 */
public final class TxnOffsetCommitHandler implements ApiHandler {

    private static final int LEADER_EPOCH_FROM_VERSION = 2;
    /** Before v2, clients (0.11 to 2.0) do not retry COORDINATOR_LOAD_IN_PROGRESS: Kafka tells them NOT_AVAILABLE. */
    private static final int LOAD_IN_PROGRESS_FROM_VERSION = 2;
    private static final int GROUP_FIELDS_FROM_VERSION = 3;
    private static final int TOPIC_IDS_FROM_VERSION = 6;
    /** v5+: the client uses transaction version 2, whose coordinator bumps the epoch as each transaction ends. */
    private static final int TRANSACTION_VERSION_2_FROM_VERSION = 5;

    private final GroupCoordinator coordinator;
    private final TopicRegistry topics;
    private final TransactionalOffsetsCheck transactions;

    /** @param transactions the transaction coordinator's check before the offsets are written */
    public TxnOffsetCommitHandler(GroupCoordinator coordinator, TopicRegistry topics,
                                  TransactionalOffsetsCheck transactions) {
        this.coordinator = coordinator;
        this.topics = topics;
        this.transactions = transactions;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        TxnOffsetCommitRequestView body = new TxnOffsetCommitRequestView(request.body());
        short version = request.version();
        boolean byId = version >= TOPIC_IDS_FROM_VERSION;
        TxnOffsetCommitResponseView response = new TxnOffsetCommitResponseView();
        OffsetCommitPartitions<TxnOffsetCommitResponsePartition> partitions =
                new OffsetCommitPartitions<>(topics, byId);
        for (TxnOffsetCommitRequestTopic topic : body.topics()) {
            TxnOffsetCommitResponseTopic topicResponse = response.addTopic();
            if (byId) {
                topicResponse.topicId(topic.topicId());
            } else {
                topicResponse.name(topic.name());
            }
            Optional<TopicMetadata> metadata = partitions.topic(topic.topicId(), topic.name());
            for (TxnOffsetCommitRequestPartition partition : topic.partitions()) {
                TxnOffsetCommitResponsePartition partitionResponse = topicResponse.addPartition()
                        .partitionIndex(partition.partitionIndex());
                Errors unknown = partitions.add(metadata, partition.partitionIndex(), partitionResponse,
                        new OffsetStore.CommittedOffset(partition.committedOffset(),
                                version >= LEADER_EPOCH_FROM_VERSION ? partition.committedLeaderEpoch() : -1,
                                partition.committedMetadata()));
                if (unknown != Errors.NONE) {
                    partitionResponse.errorCode(unknown.code());
                }
            }
        }
        if (partitions.offsets().isEmpty()) {
            return CompletableFuture.completedFuture(response.struct());
        }
        if (body.groupId().isEmpty()) { // Kafka's group coordinator refuses it before any verification
            return answer(partitions, CompletableFuture.completedFuture(partitions.every(Errors.INVALID_GROUP_ID)),
                    version, response);
        }
        // With verification off the write presents no guard (null), and goes in unchecked.
        CompletableFuture<VerificationGuard> verification = transactions.verifiesPartitions()
                ? coordinator.startTransactionVerification(body.groupId(), body.producerId(), body.producerEpoch(),
                        version >= TRANSACTION_VERSION_2_FROM_VERSION)
                : CompletableFuture.completedFuture(null);
        CompletionStage<Map<TopicPartition, Errors>> errors = verification
                .handle((guard, refused) -> refused != null
                        ? CompletableFuture.completedFuture(partitions.every(CoordinatorWriteErrors.answerFor(refused)))
                        : commitVerified(body, version, partitions, guard))
                .thenCompose(committed -> committed);
        return answer(partitions, errors, version, response);
    }

    /**
     * Asks the transaction coordinator, then writes the offsets presenting {@code guard}. A transaction already open
     * on the offsets partition at this epoch (the sentinel) is known to its coordinator: as Kafka's leader, the write
     * goes on without asking it.
     */
    private CompletionStage<Map<TopicPartition, Errors>> commitVerified(
            TxnOffsetCommitRequestView body, short version,
            OffsetCommitPartitions<TxnOffsetCommitResponsePartition> partitions, VerificationGuard guard) {
        boolean groupFields = version >= GROUP_FIELDS_FROM_VERSION;
        OffsetCommit commit = new OffsetCommit(body.groupId(),
                groupFields ? body.generationIdOrMemberEpoch() : -1, groupFields ? body.memberId() : "",
                groupFields ? body.groupInstanceId() : null, partitions.offsets(), version,
                new OffsetCommit.Transaction(body.producerId(), body.producerEpoch(), guard));
        CompletionStage<Errors> checked = guard == VerificationGuard.SENTINEL
                ? CompletableFuture.completedFuture(Errors.NONE)
                : transactions.beforeCommit(body.transactionalId(), body.producerId(), body.producerEpoch(),
                        new TopicPartition(InternalTopics.CONSUMER_OFFSETS,
                                coordinator.offsetsPartitionFor(body.groupId())), version);
        return checked.thenCompose(error -> error == Errors.NONE ? coordinator.commitTransactionalOffsets(commit)
                : CompletableFuture.completedFuture(partitions.every(error)));
    }

    /** Fills each partition's error of {@code response} once {@code errors} is known. */
    private static CompletionStage<Struct> answer(
            OffsetCommitPartitions<TxnOffsetCommitResponsePartition> partitions,
            CompletionStage<Map<TopicPartition, Errors>> errors, short version, TxnOffsetCommitResponseView response) {
        return errors.thenApply(byPartition -> {
            partitions.answer(byPartition, (partitionResponse, error) -> {
                if (error == Errors.COORDINATOR_LOAD_IN_PROGRESS && version < LOAD_IN_PROGRESS_FROM_VERSION) {
                    error = Errors.COORDINATOR_NOT_AVAILABLE;
                }
                partitionResponse.errorCode(error.code());
            });
            return response.struct();
        });
    }
}
