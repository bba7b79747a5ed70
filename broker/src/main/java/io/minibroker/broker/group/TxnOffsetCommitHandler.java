package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.produce.TransactionalProduceCheck;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView.TxnOffsetCommitRequestPartition;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView.TxnOffsetCommitRequestTopic;
import io.minibroker.protocol.message.view.TxnOffsetCommitResponseView;
import io.minibroker.protocol.message.view.TxnOffsetCommitResponseView.TxnOffsetCommitResponsePartition;
import io.minibroker.protocol.message.view.TxnOffsetCommitResponseView.TxnOffsetCommitResponseTopic;
import io.minibroker.protocol.schema.Struct;

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
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
 * <p>From v5 (KIP-890, transaction version 2) a client sends no AddOffsetsToTxn: the group's partition of
 * {@code __consumer_offsets} is added to the transaction here, through the same check a v12 Produce makes, so that
 * EndTxn writes a marker there and the offsets become visible. Without that check (a cluster, for now) it is not.
 */
public final class TxnOffsetCommitHandler implements ApiHandler {

    private static final int LEADER_EPOCH_FROM_VERSION = 2;
    /** Before v2, clients (0.11 to 2.0) do not retry COORDINATOR_LOAD_IN_PROGRESS: Kafka tells them NOT_AVAILABLE. */
    private static final int LOAD_IN_PROGRESS_FROM_VERSION = 2;
    private static final int GROUP_FIELDS_FROM_VERSION = 3;
    private static final int TOPIC_IDS_FROM_VERSION = 6;
    private static final int IMPLICIT_ADD_FROM_VERSION = 5;
    /** The Produce version whose check adds partitions implicitly (transaction version 2). */
    private static final short IMPLICIT_ADD_PRODUCE_VERSION = 12;

    private final GroupCoordinator coordinator;
    private final TopicRegistry topics;
    /** Adds the group's offsets partition to a v5+ request's transaction; null where none is wired (a cluster). */
    private final TransactionalProduceCheck transactions;

    public TxnOffsetCommitHandler(GroupCoordinator coordinator, TopicRegistry topics,
                                  TransactionalProduceCheck transactions) {
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
        // Each answer for a known partition, filled in once the coordinator has decided (by identity).
        Map<TxnOffsetCommitResponsePartition, TopicPartition> awaiting = new IdentityHashMap<>();
        Map<TopicPartition, OffsetStore.CommittedOffset> offsets = new LinkedHashMap<>();
        for (TxnOffsetCommitRequestTopic topic : body.topics()) {
            TxnOffsetCommitResponseTopic topicResponse = response.addTopic();
            Optional<TopicMetadata> metadata;
            if (byId) {
                topicResponse.topicId(topic.topicId());
                metadata = topics.known(topic.topicId());
            } else {
                topicResponse.name(topic.name());
                metadata = topics.known(topic.name());
            }
            for (TxnOffsetCommitRequestPartition partition : topic.partitions()) {
                int index = partition.partitionIndex();
                TxnOffsetCommitResponsePartition partitionResponse = topicResponse.addPartition().partitionIndex(index);
                if (metadata.isEmpty() || !metadata.get().hasPartition(index)) {
                    Errors unknown = byId ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION;
                    partitionResponse.errorCode(unknown.code());
                    continue;
                }
                TopicPartition topicPartition = new TopicPartition(metadata.get().name(), index);
                awaiting.put(partitionResponse, topicPartition);
                offsets.put(topicPartition, new OffsetStore.CommittedOffset(partition.committedOffset(),
                        version >= LEADER_EPOCH_FROM_VERSION ? partition.committedLeaderEpoch() : -1,
                        partition.committedMetadata()));
            }
        }
        if (offsets.isEmpty()) {
            return CompletableFuture.completedFuture(response.struct());
        }
        boolean groupFields = version >= GROUP_FIELDS_FROM_VERSION;
        OffsetCommit commit = new OffsetCommit(body.groupId(),
                groupFields ? body.generationIdOrMemberEpoch() : -1, groupFields ? body.memberId() : "",
                groupFields ? body.groupInstanceId() : null, offsets, version,
                new OffsetCommit.Transaction(body.producerId(), body.producerEpoch()));
        if (transactions == null || version < IMPLICIT_ADD_FROM_VERSION) {
            return commit(commit, response, awaiting, version);
        }
        TopicPartition offsetsPartition = new TopicPartition(OffsetsTopic.NAME,
                coordinator.offsetsPartitionFor(body.groupId()));
        return transactions.beforeAppend(body.transactionalId(), body.producerId(), body.producerEpoch(),
                List.of(offsetsPartition), IMPLICIT_ADD_PRODUCE_VERSION).thenCompose(added -> {
                    Errors error = added.getOrDefault(offsetsPartition, Errors.NONE);
                    if (error == Errors.NONE) {
                        return commit(commit, response, awaiting, version);
                    }
                    // The check answers as to a Produce; a commit's client retries what a write refusal maps to.
                    Errors answer = OffsetsWriteErrors.answerFor(
                            new LogException(error, "not added to the transaction"));
                    awaiting.keySet().forEach(partitionResponse -> partitionResponse.errorCode(answer.code()));
                    return CompletableFuture.completedFuture(response.struct());
                });
    }

    private CompletionStage<Struct> commit(OffsetCommit commit, TxnOffsetCommitResponseView response,
                                           Map<TxnOffsetCommitResponsePartition, TopicPartition> awaiting,
                                           short version) {
        return coordinator.commitTransactionalOffsets(commit).thenApply(errors -> {
            awaiting.forEach((partitionResponse, partition) -> {
                Errors error = errors.get(partition);
                if (error == Errors.COORDINATOR_LOAD_IN_PROGRESS && version < LOAD_IN_PROGRESS_FROM_VERSION) {
                    error = Errors.COORDINATOR_NOT_AVAILABLE;
                }
                partitionResponse.errorCode(error.code());
            });
            return response.struct();
        });
    }
}
