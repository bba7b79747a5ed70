package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.BrokerHeartbeatRequestView;
import io.minibroker.protocol.message.view.BrokerHeartbeatResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * BrokerHeartbeat, on the controller's listener: keeps a broker's session. CurrentMetadataOffset is the image version
 * the broker has applied (its metadata fetch's offset): IsCaughtUp when that is the current one, and a registering
 * broker stays fenced until it reaches the version it registered at ({@link BrokerMembership#heartbeat}).
 *
 * <p>A broker asking to shut down (KIP-841) is fenced, and in the same step its partitions get new leaders and it
 * leaves every ISR ({@link TopicAssignments#electLeadersAwayFrom}, which looks at its partitions only), as Kafka's
 * ReplicationControlManager handleBrokerInControlledShutdown does, before ShouldShutDown is answered: its leaders do
 * not wait for the next fencing check, a quarter of the session later. That step fsyncs, so it runs on {@code disk}.
 */
public final class BrokerHeartbeatHandler implements ApiHandler {

    private final BrokerMembership membership;
    private final TopicAssignments assignments;
    private final Executor disk;

    public BrokerHeartbeatHandler(BrokerMembership membership, TopicAssignments assignments, Executor disk) {
        this.membership = membership;
        this.assignments = assignments;
        this.disk = disk;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        BrokerHeartbeatRequestView heartbeat = new BrokerHeartbeatRequestView(request.body());
        BrokerMembership.Heartbeat outcome = membership.heartbeat(heartbeat.brokerId(), heartbeat.brokerEpoch(),
                heartbeat.currentMetadataOffset(), heartbeat.wantFence(), heartbeat.wantShutDown());
        if (!outcome.shouldShutDown()) {
            return CompletableFuture.completedFuture(answer(outcome));
        }
        return CompletableFuture.supplyAsync(() -> {
            assignments.electLeadersAwayFrom(heartbeat.brokerId());
            return answer(outcome);
        }, disk);
    }

    private static Struct answer(BrokerMembership.Heartbeat outcome) {
        return new BrokerHeartbeatResponseView()
                .errorCode(outcome.error().code())
                .isCaughtUp(outcome.caughtUp())
                .isFenced(outcome.fenced())
                .shouldShutDown(outcome.shouldShutDown())
                .struct();
    }
}
