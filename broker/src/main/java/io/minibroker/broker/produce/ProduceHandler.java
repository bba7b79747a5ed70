package io.minibroker.broker.produce;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.CloseConnection;
import io.minibroker.broker.api.LeaderHints;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.log.AppendResult;
import io.minibroker.broker.log.CheckedAppend;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.RecordValidationException;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.log.VerificationGuard;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ProduceRequestView;
import io.minibroker.protocol.message.view.ProduceRequestView.PartitionProduceData;
import io.minibroker.protocol.message.view.ProduceRequestView.TopicProduceData;
import io.minibroker.protocol.message.view.ProduceResponseView;
import io.minibroker.protocol.message.view.ProduceResponseView.PartitionProduceResponse;
import io.minibroker.protocol.message.view.ProduceResponseView.TopicProduceResponse;
import io.minibroker.protocol.record.ProduceRecords;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.Clock;
import io.netty.buffer.ByteBuf;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Produce: validates each partition's batch (one v2 batch, CRC, {@code max.message.bytes}), appends it, wakes the
 * fetches parked on that partition, and answers by {@code acks}: 0 not at all, 1 once appended, -1 (all) through
 * the produce purgatory keyed by partition, so that replication plugs in without a second path.
 *
 * <p>An acks=0 produce that fails on any partition closes the connection, as Kafka does: the client reads no
 * response, so the disconnect is how it learns to refresh its metadata. An acks=all produce to a partition with
 * fewer replicas in sync than min.insync.replicas (capped at its replica count, as Kafka's effectiveMinIsr) gets
 * NOT_ENOUGH_REPLICAS before any append. Internal topics take produces only from the client id
 * {@code __admin_client}, as Kafka's ReplicaManager has it; others get INVALID_TOPIC_EXCEPTION.
 *
 * <p>Appends run on the connection's event loop: they write to the page cache only, so they never wait on the
 * disk, and a partition's appends keep the order their requests arrived in. When {@code flush.messages} asks for
 * an fsync, or an append started a leader epoch not yet in the partition's {@code leader-epoch-checkpoint}, the
 * write runs on the broker's disk executor and the produce is answered after it ({@link PendingFlushes}): an
 * acknowledged record is on disk when flush.messages says so, and its epoch always is.
 */
public final class ProduceHandler implements ApiHandler {

    private static final int TOPIC_IDS_FROM_VERSION = 13;
    /** KIP-951: CurrentLeader and NodeEndpoints from v10. */
    private static final int CURRENT_LEADER_FROM_VERSION = 10;
    /** The client id Kafka lets produce to internal topics (its AdminUtils' name). */
    private static final String ADMIN_CLIENT_ID = "__admin_client";

    private final TopicRegistry topics;
    private final BrokerConfig brokerConfig;
    private final Purgatory<DelayedProduce> producePurgatory;
    private final Purgatory<DelayedFetch> fetchPurgatory;
    private final Executor disk;
    private final PartitionLeadership leadership;
    private final BrokerTopicMetrics topicMetrics;
    /** Asked before a transactional producer's batches are appended; null where no coordinator is asked. */
    private final TransactionalProduceCheck transactions;
    /**
     * Whether a transactional batch that opens its producer's transaction on a partition must present the guard of
     * a verification started before the coordinator was asked ({@code transaction.partition.verification.enable},
     * as Kafka's log checks it): off, or with no coordinator to ask, any is appended.
     */
    private final boolean verificationRequired;
    /**
     * Per producer id, the append of its last request that asked the coordinator, done or not: a later request of the
     * producer asks (or appends) only after it, so that its batches keep their order however long an answer takes.
     */
    private final ConcurrentHashMap<Long, CompletableFuture<Void>> lastAsking = new ConcurrentHashMap<>();

    /**
     * @param disk where fsyncs run, off the event loop
     * @param leadership which partitions take produces here (the others answer NOT_LEADER_OR_FOLLOWER)
     * @param transactions asked before a transactional producer's batches are appended (KIP-890), or null
     */
    public ProduceHandler(TopicRegistry topics, BrokerConfig brokerConfig, Purgatory<DelayedProduce> producePurgatory,
                          Purgatory<DelayedFetch> fetchPurgatory, Executor disk, PartitionLeadership leadership,
                          BrokerTopicMetrics topicMetrics, TransactionalProduceCheck transactions) {
        this.transactions = transactions;
        this.verificationRequired = transactions != null && transactions.verifiesPartitions();
        this.topicMetrics = topicMetrics;
        this.topics = topics;
        this.brokerConfig = brokerConfig;
        this.producePurgatory = producePurgatory;
        this.fetchPurgatory = fetchPurgatory;
        this.disk = disk;
        this.leadership = leadership;
    }

    /** A purgatory for this handler's acks=all produces, as the broker names it. */
    public static Purgatory<DelayedProduce> newPurgatory(int purgeInterval, Clock clock) {
        return Purgatory.builder("Produce").clock(clock).purgeInterval(purgeInterval).build();
    }

    /**
     * A transactional producer's request waits for the coordinator's answer on its partitions (KIP-890's implicit
     * add, or a TV1 transaction's verification) and is then appended on the thread that answer comes on. Unless every
     * one of its partitions already has this producer's transaction open at this epoch (Kafka's
     * hasOngoingTransaction, under which its leader asks no coordinator either): then it is appended at once, but only
     * while none of the producer's earlier requests still waits for the coordinator. Requests that ask go one after
     * the other per producer, so that its batches keep their order. Each partition's log hands out a
     * {@link VerificationGuard} before the coordinator is asked, which the append presents: a transaction ended
     * between the coordinator's answer and the append (its marker written meanwhile) refuses the batch
     * INVALID_TXN_STATE, as Kafka's does, instead of letting it open a transaction no coordinator knows of.
     */
    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        CompletionStage<Struct> answer = produce(request);
        return request.version() < CURRENT_LEADER_FROM_VERSION ? answer
                : answer.thenApply(response -> withLeaderHints(response, context.listenerName()));
    }

    /**
     * KIP-951, as Kafka's KafkaApis: a partition answered NOT_LEADER_OR_FOLLOWER names its current leader, and the
     * answer those leaders' endpoints. Null (an acks=0 produce's no answer) stays null.
     */
    private Struct withLeaderHints(Struct answer, String listener) {
        if (answer == null) {
            return null;
        }
        ProduceResponseView response = new ProduceResponseView(answer);
        LeaderHints hints = null; // made only for an answer with a partition to name a leader for: most have none
        for (TopicProduceResponse topic : response.responses()) {
            for (PartitionProduceResponse partition : topic.partitionResponses()) {
                if (partition.errorCode() != Errors.NOT_LEADER_OR_FOLLOWER.code()) {
                    continue;
                }
                String name = topic.name() != null ? topic.name()
                        : topics.known(topic.topicId()).map(TopicMetadata::name).orElse(null);
                if (name != null) {
                    hints = hints != null ? hints : new LeaderHints(leadership, listener);
                    PartitionLeadership.CurrentLeader leader = hints.leaderOf(new TopicPartition(name,
                            partition.index()));
                    partition.currentLeader().leaderId(leader.leaderId()).leaderEpoch(leader.leaderEpoch());
                }
            }
        }
        if (hints != null) {
            hints.writeEndpoints(endpoint -> response.addNodeEndpoint().nodeId(endpoint.leaderId())
                    .host(endpoint.host()).port(endpoint.port()).rack(endpoint.rack()));
        }
        return answer;
    }

    private CompletionStage<Struct> produce(Request request) {
        ProduceRequestView body = new ProduceRequestView(request.body());
        if (body.transactionalId() == null) {
            return TransactionalRecords.in(body) ? refuseTransactionalWithoutId(request, body)
                    : appendAll(request, body, Verified.NOTHING, null);
        }
        TransactionalBatches transactional = transactions == null
                ? null : transactionalBatches(request.version(), body);
        if (transactional == null) {
            return appendAll(request, body, Verified.NOTHING, null);
        }
        long producerId = transactional.producerId();
        if (transactional.allOngoing() && !lastAsking.containsKey(producerId)) {
            // Appended now, on this thread: the logs just found are the ones to append to.
            return appendAll(request, body, Verified.NOTHING, transactional.partitions());
        }
        Map<TopicPartition, ToVerify> partitions = new LinkedHashMap<>();
        for (ToVerify partition : transactional.partitions()) {
            if (partition != null) {
                partitions.put(partition.partition(), partition);
            }
        }
        // A producer's requests arrive in order on its one connection, so this chains them in that order.
        CompletableFuture<Void> appendedHere = new CompletableFuture<>();
        CompletableFuture<Void> before = lastAsking.put(producerId, appendedHere);
        return (before == null ? CompletableFuture.<Void>completedFuture(null) : before)
                .thenCompose(previousDone -> verify(body.transactionalId(), transactional, partitions,
                        request.version()))
                .handle((verified, failure) -> {
                    try {
                        if (failure != null) {
                            throw failure instanceof CompletionException completion ? completion
                                    : new CompletionException(failure);
                        }
                        // Looked up again: a log found before the coordinator answered may have gone since.
                        return appendAll(request, body, verified, null);
                    } finally { // appended (or failed): the producer's next request may go on
                        appendedHere.complete(null);
                        lastAsking.remove(producerId, appendedHere);
                    }
                })
                .thenCompose(appended -> appended);
    }

    /**
     * What the coordinator said of a request's partitions (each one's error, none for those it accepted), and the
     * guards of the verifications its logs started before it was asked.
     */
    private record Verified(Map<TopicPartition, Errors> refused, Map<TopicPartition, VerificationGuard> guards) {
        static final Verified NOTHING = new Verified(Map.of(), Map.of());
    }

    /** A partition of a transactional batch: its log (null if none here) and its batch's sequence. */
    private record ToVerify(TopicPartition partition, PartitionLog log, int baseSequence) {
    }

    /**
     * Starts a verification on each partition's log (Kafka's maybeStartTransactionVerification), then asks the
     * coordinator. A log that refuses to start one (the batch's epoch is older than its producer's there) gives no
     * guard: its append refuses the batch for the same reason.
     */
    private CompletionStage<Verified> verify(String transactionalId, TransactionalBatches producer,
                                             Map<TopicPartition, ToVerify> partitions, short version) {
        Map<TopicPartition, VerificationGuard> guards = new HashMap<>();
        boolean supportsEpochBump = TransactionalProduceCheck.usesTransactionVersion2(version);
        partitions.forEach((partition, toVerify) -> {
            // Off, the append asks for no guard; a verification started anyway would hold the producer to its
            // sequence (the lowest one verified) until producer.id.expiration.ms if the append then failed.
            if (toVerify.log() == null || !verificationRequired) {
                return; // no log: answered by the append's own checks
            }
            try {
                guards.put(partition, toVerify.log().startTransactionVerification(producer.producerId(),
                        producer.producerEpoch(), toVerify.baseSequence(), supportsEpochBump));
            } catch (LogException e) {
                // refused again, with this error, when appended
            }
        });
        return transactions.beforeAppend(transactionalId, producer.producerId(), producer.producerEpoch(),
                partitions.keySet(), version).thenApply(refused -> new Verified(refused, guards));
    }

    /**
     * Transactional batches with no transactional id would open a transaction no coordinator knows of, whose end
     * never comes: Kafka refuses the whole request, every partition TRANSACTIONAL_ID_AUTHORIZATION_FAILED, with an
     * authorizer or without. An acks=0 producer reads no answer, so it learns of it by the connection closing.
     */
    private static CompletionStage<Struct> refuseTransactionalWithoutId(Request request, ProduceRequestView body) {
        if (body.acks() == 0) {
            return CompletableFuture.failedFuture(
                    new CloseConnection("an acks=0 produce of transactional batches has no transactional id"));
        }
        boolean byId = request.version() >= TOPIC_IDS_FROM_VERSION;
        ProduceResponseView response = new ProduceResponseView();
        for (TopicProduceData topicData : body.topicData()) {
            TopicProduceResponse topicResponse = response.addResponse();
            if (byId) {
                topicResponse.topicId(topicData.topicId());
            } else {
                topicResponse.name(topicData.name());
            }
            for (PartitionProduceData partitionData : topicData.partitionData()) {
                topicResponse.addPartitionResponse().index(partitionData.index()).baseOffset(-1L)
                        .errorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    /**
     * The producer of a request's transactional batches; whether each of their partitions has this producer's
     * transaction open at its epoch already; and, by the position of each partition in the request, the partition of
     * each transactional batch (null at the others).
     */
    private record TransactionalBatches(long producerId, short producerEpoch, boolean allOngoing,
                                        List<ToVerify> partitions) {
    }

    /**
     * The producer of a request's transactional batches (null if it has none), in one pass that looks each of their
     * logs up once: for whether the request asks the coordinator, for what it asks, and for an append made at once.
     */
    private TransactionalBatches transactionalBatches(short version, ProduceRequestView body) {
        boolean byId = version >= TOPIC_IDS_FROM_VERSION;
        boolean any = false;
        long producerId = -1;
        short epoch = -1;
        boolean allOngoing = true;
        List<ToVerify> partitions = new ArrayList<>();
        for (TopicProduceData topicData : body.topicData()) {
            Optional<TopicMetadata> topic = topics.resolve(byId, byId ? null : topicData.name(),
                    byId ? topicData.topicId() : null);
            for (PartitionProduceData partitionData : topicData.partitionData()) {
                partitions.add(null);
                ByteBuf records = partitionData.records();
                if (topic.isEmpty() || records == null || partitionData.index() < 0) {
                    continue; // answered by the append's own checks
                }
                try {
                    RecordBatch batch = RecordBatch.wrap(records);
                    if (batch.isTransactional()) {
                        any = true;
                        producerId = batch.producerId();
                        epoch = batch.producerEpoch();
                        PartitionLog log = topics.partitionLog(topic.get(), partitionData.index()).orElse(null);
                        partitions.set(partitions.size() - 1, new ToVerify(
                                new TopicPartition(topic.get().name(), partitionData.index()), log,
                                batch.baseSequence()));
                        allOngoing = allOngoing && log != null && log.hasOngoingTransaction(producerId, epoch);
                    }
                } catch (ProtocolException e) {
                    // a malformed batch is the append's to refuse
                }
            }
        }
        return any ? new TransactionalBatches(producerId, epoch, allOngoing, partitions) : null;
    }

    /**
     * @param found the logs {@link #transactionalBatches} found, by the partition's position in the request, to append
     *              to without looking them up again; null to look every log up
     */
    private CompletionStage<Struct> appendAll(Request request, ProduceRequestView body, Verified verified,
                                              List<ToVerify> found) {
        short acks = body.acks();
        boolean validAcks = acks == 0 || acks == 1 || acks == -1;
        boolean byId = request.version() >= TOPIC_IDS_FROM_VERSION;
        ProduceResponseView response = new ProduceResponseView();
        List<DelayedProduce.PendingAppend> pending = acks == -1 ? new ArrayList<>(1) : List.of();
        PendingFlushes flushes = new PendingFlushes();
        boolean anyError = false;
        int position = 0;
        for (TopicProduceData topicData : body.topicData()) {
            String name = byId ? null : topicData.name();
            UUID id = byId ? topicData.topicId() : null;
            TopicProduceResponse topicResponse = response.addResponse();
            if (byId) {
                topicResponse.topicId(id);
            } else {
                topicResponse.name(name);
            }
            Optional<TopicMetadata> topic = topics.resolve(byId, name, id);
            for (PartitionProduceData partitionData : topicData.partitionData()) {
                int index = partitionData.index();
                PartitionProduceResponse result = topicResponse.addPartitionResponse().index(index).baseOffset(-1L);
                ToVerify known = found == null ? null : found.get(position);
                position++;
                // The log found while checking the transaction, unless its topic went meanwhile (a deletion
                // between the two looks): then the partition is not here, as below.
                Optional<PartitionLog> log = known != null && known.log() != null && topic.isPresent()
                        ? Optional.of(known.log()) : topic.flatMap(t -> topics.partitionLog(t, index));
                if (log.isEmpty()) {
                    Errors notHere = topics.partitionNotHere(byId, name, id, index);
                    // A partition the cluster has is ReplicaManager's to answer, which checks the acks first.
                    result.errorCode((!validAcks && notHere == Errors.NOT_LEADER_OR_FOLLOWER
                            ? Errors.INVALID_REQUIRED_ACKS : notHere).code());
                    anyError = true;
                    continue;
                }
                RecordBatch batch;
                try { // Kafka's KafkaApis runs ProduceRequest.validateRecords before any other check of the partition
                    batch = validatedRecords(request.version(), partitionData.records());
                } catch (ProtocolException e) { // refused before the log: not counted as a produce, no log start
                    result.errorCode(e.error().code());
                    anyError = true;
                    continue;
                }
                if (!validAcks) {
                    result.errorCode(Errors.INVALID_REQUIRED_ACKS.code());
                    anyError = true;
                    continue;
                }
                Errors byCoordinator = verified.refused().getOrDefault(log.get().topicPartition(), Errors.NONE);
                if (byCoordinator != Errors.NONE) {
                    result.errorCode(byCoordinator.code());
                    anyError = true;
                    continue;
                }
                BrokerTopicMetrics.TopicMeters meters = topicMetrics.topic(log.get().topicPartition().topic());
                meters.totalProduceRequests().increment();
                if (InternalTopics.isInternal(log.get().topicPartition().topic())
                        && !ADMIN_CLIENT_ID.equals(request.header().clientId())) {
                    // Kafka's appendToLocalLog: not counted as a failed produce, no log start offset
                    result.errorCode(Errors.INVALID_TOPIC_EXCEPTION.code());
                    anyError = true;
                    continue;
                }
                int minInsync = acks == -1 ? minInsyncReplicas(topic.get()) : 0;
                LogException refused = leadership.appendRefusal(log.get().topicPartition(), minInsync);
                AppendResult appended = null;
                if (refused != null) {
                    result.errorCode(refused.error().code());
                    withLogStartOffsetIfFailed(result, log.get());
                } else {
                    VerificationGuard guard = verificationRequired
                            ? verified.guards().getOrDefault(log.get().topicPartition(), VerificationGuard.SENTINEL)
                            : null;
                    appended = append(log.get(), batch, guard, result, meters);
                }
                if (appended == null) {
                    if (BrokerTopicMetrics.failsProduce(Errors.forCode(result.errorCode()))) {
                        meters.failedProduceRequests().increment();
                    }
                    anyError = true;
                    continue;
                }
                leadership.onLeaderAppend(log.get().topicPartition());
                fetchPurgatory.checkAndComplete(log.get().topicPartition());
                if (appended.flushDue()) {
                    flushes.add(log.get(), appended.lastOffset(), result);
                } else if (log.get().leaderEpochCheckpointPending()) {
                    flushes.addLeaderEpochCheckpoint(log.get(), result);
                }
                if (acks == -1) {
                    pending.add(new DelayedProduce.PendingAppend(log.get(), appended.lastOffset() + 1, minInsync,
                            result));
                }
            }
        }
        if (acks == 0 && anyError) {
            return CompletableFuture.failedFuture(new CloseConnection("an acks=0 produce failed on some partition"));
        }
        Struct answer = acks == 0 ? null : response.struct();
        int timeoutMs = Math.max(0, body.timeoutMs()); // a negative one has run out already, as in Kafka
        // Nothing to fsync (the common case) answers without a stage for the flush.
        return flushes.isEmpty() ? awaitReplication(pending, timeoutMs, answer)
                : flushes.flushOn(disk).thenCompose(nothing -> awaitReplication(pending, timeoutMs, answer));
    }

    /** Kafka's ProduceRequest.validateRecords: the partition's one batch, or its refusal. */
    private static RecordBatch validatedRecords(short version, ByteBuf records) {
        if (records == null) {
            throw new ProtocolException(Errors.CORRUPT_MESSAGE, "no records");
        }
        return ProduceRecords.validate(version, records);
    }

    /**
     * Kafka answers the log start offset with a refusal it counts as a failed produce (processFailedRecord: the
     * producer-state, validation and min.insync.replicas errors), -1 with the others.
     */
    private static void withLogStartOffsetIfFailed(PartitionProduceResponse result, PartitionLog log) {
        if (BrokerTopicMetrics.failsProduce(Errors.forCode(result.errorCode()))) {
            result.logStartOffset(log.logStartOffset());
        }
    }

    /** The answer once every acks=all partition's records are replicated (at once if there is none). */
    private CompletionStage<Struct> awaitReplication(List<DelayedProduce.PendingAppend> pending, int timeoutMs,
                                                     Struct answer) {
        if (pending.isEmpty()) {
            return CompletableFuture.completedFuture(answer);
        }
        List<TopicPartition> keys = new ArrayList<>(pending.size());
        for (DelayedProduce.PendingAppend append : pending) {
            keys.add(append.log().topicPartition());
        }
        CompletableFuture<Struct> replicated = new CompletableFuture<>();
        producePurgatory.tryCompleteElseWatch(new DelayedProduce(timeoutMs, pending, leadership, answer, replicated),
                keys);
        return replicated;
    }

    /**
     * Appends one partition's batch, as {@link #validatedRecords} found it, and fills its response; null (with the
     * error set) if refused. A retried
     * batch of an idempotent producer is not written again: it is answered with the offsets it got the first
     * time, as Kafka does.
     *
     * @param guard what a transactional batch presents to its log: see {@link PartitionLog#appendIdempotentUnflushed}
     */
    private AppendResult append(PartitionLog log, RecordBatch batch, VerificationGuard guard,
                                PartitionProduceResponse result, BrokerTopicMetrics.TopicMeters meters) {
        try {
            // The one batch, without any trailing bytes (Kafka ignores them too). Its base offset is checked before its
            // size (max.message.bytes), as Kafka's analyzeAndValidateRecords does, by the log's validator.
            ByteBuf records = batch.slice();
            AppendResult appended;
            try (CheckedAppend checked = log.checkForAppend(records)) {
                int leaderEpoch = leadership.leaderEpoch(log.topicPartition());
                // An idempotent producer's batch is checked against its state in the log, under the write's lock.
                appended = batch.producerId() < 0 ? log.appendUnflushed(checked, leaderEpoch)
                        : log.appendIdempotentUnflushed(checked, batch, leaderEpoch, guard);
            }
            result.baseOffset(appended.firstOffset())
                    .logAppendTimeMs(appended.logAppendTime())
                    .logStartOffset(log.logStartOffset());
            meters.produced(appended.lastOffset() - appended.firstOffset() + 1, batch.sizeInBytes());
            return appended;
        } catch (RecordValidationException e) {
            // As Kafka: the bad records by index, so a client fails those with their reason and the rest apart.
            result.errorCode(e.error().code()).errorMessage(e.getMessage())
                    .logStartOffset(log.logStartOffset());
            for (RecordValidationException.RecordError error : e.recordErrors()) {
                result.addRecordError().batchIndex(error.batchIndex())
                        .batchIndexErrorMessage(error.message());
            }
        } catch (LogException e) {
            result.errorCode(e.error().code());
            withLogStartOffsetIfFailed(result, log);
        } catch (UncheckedIOException e) { // a full disk, or a log closed by a topic deletion under us
            result.errorCode(Errors.KAFKA_STORAGE_ERROR.code());
        }
        return null;
    }

    private int minInsyncReplicas(TopicMetadata topic) {
        return TopicConfig.minInsyncReplicas(brokerConfig, topic.configOverrides());
    }
}
