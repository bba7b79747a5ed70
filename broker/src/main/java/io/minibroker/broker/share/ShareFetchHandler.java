package io.minibroker.broker.share;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.fetch.FetchBytes;
import io.minibroker.broker.share.ShareSessionCache.Resolution;
import io.minibroker.broker.share.ShareSessionCache.TopicIdPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ShareFetchRequestView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.ToIntBiFunction;

/**
 * ShareFetch (KIP-932): the member's share session is resolved by its epoch, the acknowledgements it carries are
 * applied and made durable, then records are acquired for the member from the session's partitions (not those its
 * acknowledgements released), at once when
 * there are {@code MinBytes} of them (or no wait is allowed), otherwise after parking in the "ShareFetch" purgatory
 * until there are or {@code MaxWaitMs} passes. A final-epoch request only acknowledges: the session closes and
 * whatever the member still holds is released to the others. MaxBytes and MinBytes are bounded as Fetch's are
 * ({@link FetchBytes}): by {@code fetch.max.bytes} and the client's fetch quota window, as Kafka's KafkaApis bounds
 * them.
 */
public final class ShareFetchHandler implements ApiHandler {

    /** ShareAcquireMode (KIP-1206) and IsRenewAck (KIP-1222). */
    private static final int ACQUIRE_MODE_FROM_VERSION = 2;

    private final SharePartitionManager manager;
    private final ShareSessionCache sessions;
    private final ShareLogs logs;
    /** How long a fetch asking not to wait waits for its share partitions' state to load. */
    private final long loadWaitMs;
    /** {@code fetch.max.bytes}: the most bytes an answer holds, whatever the request asks. */
    private final int fetchMaxBytes;
    /** The most bytes the client's fetch quota lets through in a window, by user and request. */
    private final ToIntBiFunction<String, Request> quotaWindowBytes;

    public ShareFetchHandler(SharePartitionManager manager, ShareSessionCache sessions, ShareLogs logs,
                             long loadWaitMs, int fetchMaxBytes, ToIntBiFunction<String, Request> quotaWindowBytes) {
        this.manager = manager;
        this.sessions = sessions;
        this.logs = logs;
        this.loadWaitMs = loadWaitMs;
        this.fetchMaxBytes = fetchMaxBytes;
        this.quotaWindowBytes = quotaWindowBytes;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ShareFetchRequestView body = new ShareFetchRequestView(request.body());
        String groupId = body.groupId();
        String memberId = body.memberId();
        int epoch = body.shareSessionEpoch();
        if (!ShareRequests.namesMember(groupId, memberId)) {
            return error(Errors.INVALID_REQUEST);
        }
        boolean renewOnly = request.version() >= ACQUIRE_MODE_FROM_VERSION && body.isRenewAck();
        if (renewOnly && (body.maxBytes() != 0 || body.minBytes() != 0 || body.maxRecords() != 0
                || body.maxWaitMs() != 0)) {
            return error(Errors.INVALID_REQUEST); // Kafka: a renewing request fetches nothing, and must say so
        }
        List<TopicIdPartition> added = new ArrayList<>();
        Map<TopicIdPartition, List<Acknowledgement>> acks = ShareRequests.newAcknowledgements();
        for (ShareFetchRequestView.FetchTopic topic : body.topics()) {
            for (ShareFetchRequestView.FetchPartition partition : topic.partitions()) {
                TopicIdPartition tp = new TopicIdPartition(topic.topicId(), partition.partitionIndex());
                added.add(tp);
                ShareRequests.addAcknowledgements(acks, tp, partition.acknowledgementBatches(),
                        b -> new Acknowledgement(b.firstOffset(), b.lastOffset(), b.acknowledgeTypes()));
            }
        }
        List<TopicIdPartition> forgotten = new ArrayList<>();
        for (ShareFetchRequestView.ForgottenTopic topic : body.forgottenTopicsData()) {
            topic.partitions().forEach(p -> forgotten.add(new TopicIdPartition(topic.topicId(), p)));
        }
        ShareAcquireMode mode = request.version() >= ACQUIRE_MODE_FROM_VERSION
                ? ShareAcquireMode.forId(body.shareAcquireMode()) : ShareAcquireMode.BATCH_OPTIMIZED;
        if (mode == null) {
            return error(Errors.INVALID_REQUEST); // Kafka fails such a request (UNKNOWN_SERVER_ERROR, its exception)
        }
        if (epoch == ShareSessionCache.INITIAL_EPOCH && !acks.isEmpty()) {
            return error(Errors.INVALID_REQUEST); // nothing can be acquired before a session opens
        }
        Resolution resolution = sessions.forFetch(groupId, memberId, epoch, added, forgotten,
                context.clientAddress());
        if (resolution.error() != Errors.NONE) {
            return error(resolution.error());
        }
        ShareSessionCache.ShareSession session = resolution.session();
        ShareFetchWork.RecordLimit recordLimit = new ShareFetchWork.RecordLimit(mode, body.maxRecords(),
                body.batchSize());
        FetchBytes bytes = FetchBytes.capped(body.minBytes(), body.maxBytes(),
                Math.min(fetchMaxBytes, quotaWindowBytes.applyAsInt(context.principal().name(), request)));
        CompletableFuture<Map<TopicIdPartition, AcknowledgeResult>> acked =
                ShareAcknowledgements.apply(manager, logs, groupId, memberId, acks, renewOnly);
        Function<Map<TopicIdPartition, AcknowledgeResult>, CompletionStage<Struct>> fetch = ackResults -> {
            if (epoch == ShareSessionCache.FINAL_EPOCH) {
                manager.releaseAll(groupId, memberId, session.partitions());
                sessions.remove(session);
                manager.sessionEnded(groupId, sessions);
            }
            List<TopicIdPartition> fetched = epoch == ShareSessionCache.FINAL_EPOCH || renewOnly
                    ? List.of() : rotated(session.partitions(), epoch);
            ShareFetchWork work = new ShareFetchWork(manager, logs, groupId, memberId, fetched,
                    context.topicRights(), bytes.minBytes(), body.maxWaitMs(), bytes.maxBytes(), recordLimit, acks,
                    ackResults,
                    context.eventLoop(), context.listenerName());
            if (fetched.isEmpty() || work.asksForNothing() || work.canAnswer()) {
                // read here, as Fetch reads
                return CompletableFuture.completedFuture(work.respond());
            }
            CompletableFuture<Struct> answer = new CompletableFuture<>();
            manager.fetchPurgatory().tryCompleteElseWatch(new DelayedShareFetch(work.waitMs(loadWaitMs), work,
                    answer), work.watchKeys());
            return answer;
        };
        // Acknowledgements still being made durable: the fetch goes on on the connection's event loop, not on the
        // thread that completes them (on one node the share coordinator's, whose every other state write would wait
        // behind this fetch's log reads). None, or all answered already: here, with no task queued on the loop.
        return acked.isDone() ? acked.thenCompose(fetch) : acked.thenComposeAsync(fetch, context.eventLoop());
    }

    /**
     * The session's partitions starting one further along at each epoch (Kafka's round-robin
     * PartitionRotateStrategy: moved left by the epoch modulo their count; the opening epoch keeps their order), so
     * that the records and bytes limits of an answer do not spend themselves on the same first partitions each
     * time while a busy partition starves the ones after it.
     */
    private static List<TopicIdPartition> rotated(List<TopicIdPartition> partitions, int epoch) {
        if (partitions.size() < 2 || epoch < 1 || epoch % partitions.size() == 0) {
            return partitions;
        }
        List<TopicIdPartition> rotated = new ArrayList<>(partitions);
        Collections.rotate(rotated, -(epoch % partitions.size()));
        return rotated;
    }

    private static CompletionStage<Struct> error(Errors error) {
        return CompletableFuture.completedFuture(new ShareFetchResponseView().errorCode(error.code()).struct());
    }
}
