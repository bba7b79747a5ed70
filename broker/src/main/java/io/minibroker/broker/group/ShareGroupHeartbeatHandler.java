package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.share.ShareMemberIds;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** ShareGroupHeartbeat (KIP-932): a share-group member joins, heartbeats or leaves, and learns its partitions. */
public final class ShareGroupHeartbeatHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public ShareGroupHeartbeatHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ShareGroupHeartbeatRequestView body = new ShareGroupHeartbeatRequestView(request.body());
        if (!ShareMemberIds.isValid(body.memberId())) {
            // Kafka's KafkaApis, before its group coordinator's checks; its error answer drops the message.
            return CompletableFuture.completedFuture(new ShareGroupHeartbeatResponseView()
                    .errorCode(Errors.INVALID_REQUEST.code()).struct());
        }
        String clientId = request.header().clientId() == null ? "" : request.header().clientId();
        String clientHost = context.clientHost();
        ShareGroupHeartbeat.Request heartbeat = new ShareGroupHeartbeat.Request(body.groupId(), body.memberId(),
                body.memberEpoch(), body.rackId(), body.subscribedTopicNames(), clientId, clientHost);
        return coordinator.shareGroupHeartbeat(heartbeat).thenApply(ShareGroupHeartbeatHandler::response);
    }

    private static Struct response(ShareGroupHeartbeat.Response answer) {
        ShareGroupHeartbeatResponseView response = new ShareGroupHeartbeatResponseView()
                .errorCode(answer.error().code()).errorMessage(answer.message()).memberId(answer.memberId())
                .memberEpoch(answer.memberEpoch()).heartbeatIntervalMs(answer.heartbeatIntervalMs());
        if (answer.assignment() != null) {
            ShareGroupHeartbeatResponseView.Assignment assignment = new ShareGroupHeartbeatResponseView.Assignment();
            answer.assignment().forEach((topic, partitions) -> assignment.addTopicPartition().topicId(topic)
                    .partitions(List.copyOf(partitions)));
            response.assignment(assignment);
        }
        return response.struct();
    }
}
