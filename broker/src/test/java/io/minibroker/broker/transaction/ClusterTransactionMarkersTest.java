package io.minibroker.broker.transaction;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.FetchResponseView.AbortedTransaction;
import io.minibroker.protocol.message.view.FetchResponseView.PartitionData;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static io.minibroker.broker.transaction.TxnWire.READ_COMMITTED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Markers on three nodes: written by the partition's leader only, answered once replicated, and carried by the
 * followers' logs with the transactions still open, so a new leader after a failover answers read_committed fetches
 * with the same last stable offset and aborted transactions.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS) // a parked fetch never woken fails here
class ClusterTransactionMarkersTest {

    private static final String TOPIC = "txn-replicated";
    private static final String ABORTER = "aborter";
    private static final String OPEN = "open";

    /**
     * The cluster's clock moves on by itself ({@link SessionClock#startRunning}): followers' fetches parked at a
     * leader return within a step, so a follower takes up a partition it begins to follow (the transaction state
     * topic's, created by the first FindCoordinator) at once; a still clock would leave that to the follower's socket
     * timeout. Sessions still run out only for a node that stops heartbeating, however slow the machine.
     */
    private SessionClock.Running running;
    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        running = SessionClock.startRunning(3, 1_500, Map.of("replica.lag.time.max.ms", "3000",
                "min.insync.replicas", "2"));
        cluster = running.cluster();
        try (Admin admin = partition().admin()) {
            // Led by node 1, so that killing the leader leaves the controller's node up.
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(1, 2, 0))))).all().get();
        }
        await(() -> partition().isr().size() == 3, "the ISR to be every replica");
    }

    @AfterEach
    void close() {
        running.close();
    }

    /** Partition 0 as the controller has it: a node's Metadata may be a change behind, naming the killed leader. */
    private FirstPartition partition() {
        return new FirstPartition(cluster, TOPIC);
    }

    private TxnWire wireTo(int node) throws IOException {
        return new TxnWire(cluster.node(node).boundPort("PLAINTEXT"));
    }

    /** A transaction opened on the transactional id's coordinator, on partition 0 of the topic. */
    private TxnWire.Producer beginTransaction(String transactionalId) throws IOException {
        int[] coordinator = {-1};
        try (TxnWire any = wireTo(0)) {
            await(() -> {
                coordinator[0] = any.findTransactionCoordinator(transactionalId);
                return coordinator[0] >= 0;
            }, "a coordinator for " + transactionalId);
        }
        try (TxnWire wire = wireTo(coordinator[0])) {
            return wire.beginTransaction(transactionalId, TOPIC);
        }
    }

    private static short errorOf(WriteTxnMarkersResponseView response) {
        return response.markers().get(0).topics().get(0).partitions().get(0).errorCode();
    }

    /** Whether the node answers ListOffsets, which only a partition's leader does. */
    private static boolean leads(TxnWire wire) {
        try {
            return wire.latest(TOPIC, READ_COMMITTED).errorCode() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean stableAt(TxnWire wire, long lastStableOffset, long abortedProducer) {
        try {
            PartitionData fetched = wire.fetch(TOPIC, 0, READ_COMMITTED);
            return fetched.errorCode() == 0 && fetched.lastStableOffset() == lastStableOffset
                    && fetched.abortedTransactions().stream().map(AbortedTransaction::producerId).toList()
                    .equals(List.of(abortedProducer));
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void theLeaderWritesTheMarkerAndANewLeaderKeepsTheLastStableOffset() throws Exception {
        TxnWire.Producer aborter = beginTransaction(ABORTER);
        TxnWire.Producer open = beginTransaction(OPEN);
        try (TxnWire leader = wireTo(1); TxnWire follower = wireTo(0)) {
            assertThat(leader.produce(TOPIC, aborter, 0, "a0", "a1").errorCode()).isZero(); // 0..1
            assertThat(leader.produce(TOPIC, open, 0, "o0").baseOffset()).isEqualTo(2);

            assertThat(errorOf(follower.writeMarker(aborter.id(), aborter.epoch(), 0, false, TOPIC)))
                    .isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER.code());
            // Answered once replicated (min.insync.replicas 2, acks=all's rule): at offset 3.
            assertThat(errorOf(leader.writeMarker(aborter.id(), aborter.epoch(), 0, false, TOPIC))).isZero();
            PartitionData fetched = leader.fetch(TOPIC, 0, READ_COMMITTED);
            assertThat(fetched.highWatermark()).isEqualTo(4);
            assertThat(fetched.lastStableOffset()).isEqualTo(2); // the open transaction holds it
            assertThat(fetched.abortedTransactions()).extracting(AbortedTransaction::producerId)
                    .containsExactly(aborter.id());
        }

        cluster.kill(1); // its session runs out on the running clock, and the controller elects from the ISR
        int[] elected = {-1}; // read once per check: a second read may catch the metadata between leaders
        await(() -> {
            elected[0] = partition().leader();
            return elected[0] == 0 || elected[0] == 2;
        }, "a new leader from the ISR");
        int newLeader = elected[0];
        try (TxnWire wire = wireTo(newLeader); TxnWire consumer = wireTo(newLeader)) {
            // The follower's log tracked the open transaction and indexed the abort as it replicated them.
            // ListOffsets first: a follower serves consumers' fetches too (KIP-392), only the leader answers it.
            await(() -> leads(wire) && stableAt(wire, 2, aborter.id()),
                    "the new leader to lead and answer LSO 2 with the aborted transaction");
            // Parked at the LSO for longer than the test may run: only the commit's replication can answer it.
            consumer.sendFetch(TOPIC, 2, READ_COMMITTED, 600_000);
            assertThat(errorOf(wire.writeMarker(open.id(), open.epoch(), 1, true, TOPIC))).isZero(); // offset 4
            PartitionData woken = consumer.receiveFetch();
            assertThat(woken.lastStableOffset()).isEqualTo(5);
            assertThat(TxnWire.batches(woken)).extracting(TxnWire.FetchedBatch::baseOffset).containsExactly(2L, 3L, 4L);
            assertThat(stableAt(wire, 5, aborter.id())).isTrue();
        }
    }
}
