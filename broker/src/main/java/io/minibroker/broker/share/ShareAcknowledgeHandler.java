package io.minibroker.broker.share;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.share.ShareSessionCache.Resolution;
import io.minibroker.broker.share.ShareSessionCache.TopicIdPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ShareAcknowledgeRequestView;
import io.minibroker.protocol.message.view.ShareAcknowledgeResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ShareAcknowledge (KIP-932): acknowledgements outside a fetch, in the member's share session (epoch 0 is
 * INVALID_SHARE_SESSION_EPOCH: this request never opens one). Answered once the new state is durable; with the
 * final epoch the session then closes and the member's remaining records are released.
 */
public final class ShareAcknowledgeHandler implements ApiHandler {

    /** AcquisitionLockTimeoutMs and IsRenewAck (KIP-1222). */
    private static final int LOCK_TIMEOUT_FROM_VERSION = 2;

    private final SharePartitionManager manager;
    private final ShareSessionCache sessions;
    private final ShareLogs logs;

    public ShareAcknowledgeHandler(SharePartitionManager manager, ShareSessionCache sessions, ShareLogs logs) {
        this.manager = manager;
        this.sessions = sessions;
        this.logs = logs;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ShareAcknowledgeRequestView body = new ShareAcknowledgeRequestView(request.body());
        String groupId = body.groupId();
        String memberId = body.memberId();
        int epoch = body.shareSessionEpoch();
        if (!ShareRequests.namesMember(groupId, memberId)) {
            return error(Errors.INVALID_REQUEST);
        }
        Map<TopicIdPartition, List<Acknowledgement>> acks = ShareRequests.newAcknowledgements();
        for (ShareAcknowledgeRequestView.AcknowledgeTopic topic : body.topics()) {
            for (ShareAcknowledgeRequestView.AcknowledgePartition partition : topic.partitions()) {
                ShareRequests.addAcknowledgements(acks, new TopicIdPartition(topic.topicId(), partition.partitionIndex()),
                        partition.acknowledgementBatches(),
                        b -> new Acknowledgement(b.firstOffset(), b.lastOffset(), b.acknowledgeTypes()));
            }
        }
        Resolution resolution = sessions.forAcknowledge(groupId, memberId, epoch);
        if (resolution.error() != Errors.NONE) {
            return error(resolution.error());
        }
        ShareSessionCache.ShareSession session = resolution.session();
        CompletableFuture<Map<TopicIdPartition, AcknowledgeResult>> acked =
                ShareAcknowledgements.apply(manager, logs, groupId, memberId, acks,
                        request.version() >= LOCK_TIMEOUT_FROM_VERSION && body.isRenewAck());
        return acked.thenApply(results -> {
            if (epoch == ShareSessionCache.FINAL_EPOCH) {
                manager.releaseAll(groupId, memberId, session.partitions());
                sessions.remove(session);
                manager.sessionEnded(groupId, sessions);
            }
            ShareAcknowledgeResponseView response = new ShareAcknowledgeResponseView();
            if (request.version() >= LOCK_TIMEOUT_FROM_VERSION) {
                response.acquisitionLockTimeoutMs(manager.settings(groupId).recordLockDurationMs());
            }
            Map<UUID, ShareAcknowledgeResponseView.ShareAcknowledgeTopicResponse> topics = new LinkedHashMap<>();
            ShareLeaderHints hints = new ShareLeaderHints(logs, context.listenerName());
            results.forEach((tp, result) -> {
                ShareAcknowledgeResponseView.PartitionData data = topics
                        .computeIfAbsent(tp.topicId(), id -> response.addResponse().topicId(id))
                        .addPartition().partitionIndex(tp.partition()).errorCode(result.error().code())
                        .errorMessage(result.message());
                hints.leaderOf(tp.topicId(), tp.partition(), data.errorCode()).ifPresent(leader ->
                        data.currentLeader().leaderId(leader.leaderId()).leaderEpoch(leader.leaderEpoch()));
            });
            hints.writeEndpoints(endpoint -> response.addNodeEndpoint().nodeId(endpoint.leaderId())
                    .host(endpoint.host()).port(endpoint.port()).rack(endpoint.rack()));
            return response.struct();
        });
    }

    private static CompletionStage<Struct> error(Errors error) {
        return CompletableFuture.completedFuture(new ShareAcknowledgeResponseView().errorCode(error.code()).struct());
    }
}
