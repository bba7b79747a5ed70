package io.minibroker.broker.controller;

import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.topic.PartitionRules;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.BrokerHeartbeatRequestView;
import io.minibroker.protocol.message.view.BrokerHeartbeatResponseView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A controlled shutdown (KIP-841) moves the broker's leaders and takes it out of the ISRs in the step that answers
 * ShouldShutDown, as Kafka's handleBrokerInControlledShutdown: no fencing check has to run first.
 */
class BrokerHeartbeatHandlerTest {

    @TempDir
    Path dir;

    @Test
    void aBrokerShuttingDownLeadsNothingAndIsInNoIsrOnceToldToShutDown() throws Exception {
        AtomicLong now = new AtomicLong(1_000);
        BrokerMembership membership = new BrokerMembership(9_000, now::get, () -> 0, id -> Long.MAX_VALUE,
                () -> { }); // whatever a broker reports, its fetches vouch for
        Map<Integer, Long> epochs = new HashMap<>();
        for (int id = 0; id < 3; id++) {
            long epoch = membership.register(id, UUID.randomUUID(),
                    List.of(new Endpoint("PLAINTEXT", "localhost", 9092)), null).epoch();
            membership.heartbeat(id, epoch, 0, false, false);
            epochs.put(id, epoch);
        }
        TopicAssignments assignments = TopicAssignments.open(membership, dir, () -> { });
        assertThat(assignments.create("t", new PartitionRules.NewTopic(-1, -1,
                List.of(new PartitionRules.ManualAssignment(0, List.of(0, 1, 2))), 1, 1), Map.of(), false).error())
                .isEqualTo(Errors.NONE);
        BrokerHeartbeatHandler handler = new BrokerHeartbeatHandler(membership, assignments, Runnable::run);

        BrokerHeartbeatRequestView heartbeat = new BrokerHeartbeatRequestView().brokerId(0)
                .brokerEpoch(epochs.get(0)).currentMetadataOffset(0).wantFence(false).wantShutDown(true);
        Request request = new Request(new RequestHeader(ApiKey.BROKER_HEARTBEAT.id(), (short) 1, 1, "broker-0"),
                ApiKey.BROKER_HEARTBEAT, heartbeat.struct());
        BrokerHeartbeatResponseView answer = new BrokerHeartbeatResponseView(
                handler.handle(TestContexts.on("CONTROLLER"), request).toCompletableFuture().get());

        assertThat(answer.shouldShutDown()).isTrue();
        PartitionImage partition = assignments.image().topic("t").orElseThrow().partitions().get(0);
        assertThat(partition.leader()).as("moved in the same step").isEqualTo(1);
        assertThat(partition.leaderEpoch()).isEqualTo(1);
        assertThat(partition.isr()).containsExactly(1, 2);
    }
}
