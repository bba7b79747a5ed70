package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.BrokerHeartbeatRequestView;
import io.minibroker.protocol.message.view.BrokerHeartbeatResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * BrokerHeartbeat, on the controller's listener: keeps a broker's session. IsCaughtUp is always true: the
 * controller keeps no metadata log that a broker could lag behind on.
 */
public final class BrokerHeartbeatHandler implements ApiHandler {

    private final BrokerMembership membership;

    public BrokerHeartbeatHandler(BrokerMembership membership) {
        this.membership = membership;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        BrokerHeartbeatRequestView heartbeat = new BrokerHeartbeatRequestView(request.body());
        BrokerMembership.Heartbeat outcome = membership.heartbeat(heartbeat.brokerId(), heartbeat.brokerEpoch(),
                heartbeat.wantFence(), heartbeat.wantShutDown());
        return CompletableFuture.completedFuture(new BrokerHeartbeatResponseView()
                .errorCode(outcome.error().code())
                .isCaughtUp(true)
                .isFenced(outcome.fenced())
                .shouldShutDown(outcome.shouldShutDown())
                .struct());
    }
}
