package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.JoinGroupRequestView;
import io.minibroker.protocol.message.view.JoinGroupRequestView.JoinGroupRequestProtocol;
import io.minibroker.protocol.schema.Struct;

import java.util.LinkedHashMap;
import java.util.concurrent.CompletionStage;

/**
 * JoinGroup: hands the request to the coordinator, which may park it until the rebalance's join phase ends.
 * v0 has no rebalance timeout: it is the session timeout, as in Kafka.
 */
public final class JoinGroupHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public JoinGroupHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        JoinGroupRequestView body = new JoinGroupRequestView(request.body());
        LinkedHashMap<String, byte[]> protocols = new LinkedHashMap<>();
        for (JoinGroupRequestProtocol protocol : body.protocols()) {
            protocols.putIfAbsent(protocol.name(), protocol.metadata());
        }
        int sessionTimeoutMs = body.sessionTimeoutMs();
        int rebalanceTimeoutMs = request.version() >= 1 ? body.rebalanceTimeoutMs() : sessionTimeoutMs;
        String clientId = request.header().clientId() == null ? "" : request.header().clientId();
        String clientHost = context.clientHost();
        JoinRequest join = new JoinRequest(body.groupId(),
                body.memberId(), request.version() >= 5 ? body.groupInstanceId() : null,
                clientId, clientHost, sessionTimeoutMs, rebalanceTimeoutMs, body.protocolType(),
                protocols, request.version());
        return coordinator.join(join);
    }
}
