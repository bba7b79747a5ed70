package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/** ConsumerGroupHeartbeat (KIP-848): a consumer-protocol member joins, heartbeats, reconciles or leaves. */
public final class ConsumerGroupHeartbeatHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public ConsumerGroupHeartbeatHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ConsumerGroupHeartbeatRequestView body = new ConsumerGroupHeartbeatRequestView(request.body());
        Map<UUID, Set<Integer>> owned = null;
        if (body.topicPartitions() != null) {
            owned = new HashMap<>();
            for (ConsumerGroupHeartbeatRequestView.TopicPartitions topic : body.topicPartitions()) {
                owned.computeIfAbsent(topic.topicId(), id -> new HashSet<>()).addAll(topic.partitions());
            }
            owned = TopicAssignment.copyOf(owned);
        }
        String clientId = request.header().clientId() == null ? "" : request.header().clientId();
        String clientHost = context.clientHost();
        ConsumerGroupHeartbeat.Request heartbeat = new ConsumerGroupHeartbeat.Request(body.groupId(),
                body.memberId(), body.memberEpoch(), body.instanceId(), body.rackId(), body.rebalanceTimeoutMs(),
                body.subscribedTopicNames(), request.version() >= 1 ? body.subscribedTopicRegex() : null,
                body.serverAssignor(), owned, clientId, clientHost, request.version(),
                context.topicRights()::mayDescribe);
        return coordinator.consumerGroupHeartbeat(heartbeat).thenApply(ConsumerGroupHeartbeatHandler::response);
    }

    private static Struct response(ConsumerGroupHeartbeat.Response answer) {
        ConsumerGroupHeartbeatResponseView response = new ConsumerGroupHeartbeatResponseView()
                .errorCode(answer.error().code()).errorMessage(answer.message()).memberId(answer.memberId())
                .memberEpoch(answer.memberEpoch()).heartbeatIntervalMs(answer.heartbeatIntervalMs());
        if (answer.assignment() != null) {
            ConsumerGroupHeartbeatResponseView.Assignment assignment =
                    new ConsumerGroupHeartbeatResponseView.Assignment();
            answer.assignment().forEach((topic, partitions) -> assignment.addTopicPartition().topicId(topic)
                    .partitions(List.copyOf(partitions)));
            response.assignment(assignment);
        }
        return response.struct();
    }
}
