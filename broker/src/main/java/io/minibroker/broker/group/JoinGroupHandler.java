package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
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
        Struct body = request.body();
        LinkedHashMap<String, byte[]> protocols = new LinkedHashMap<>();
        for (Struct protocol : body.getStructs("Protocols")) {
            protocols.putIfAbsent(protocol.getString("Name"), protocol.getBytes("Metadata"));
        }
        int sessionTimeoutMs = body.getInt32("SessionTimeoutMs");
        int rebalanceTimeoutMs = request.version() >= 1 ? body.getInt32("RebalanceTimeoutMs") : sessionTimeoutMs;
        String clientId = request.header().clientId() == null ? "" : request.header().clientId();
        String clientHost = context.clientAddress() == null ? "" : context.clientAddress().toString();
        JoinRequest join = new JoinRequest(body.getString("GroupId"),
                body.getString("MemberId"), request.version() >= 5 ? body.getString("GroupInstanceId") : null,
                clientId, clientHost, sessionTimeoutMs, rebalanceTimeoutMs, body.getString("ProtocolType"),
                protocols, request.version());
        return coordinator.join(join);
    }
}
