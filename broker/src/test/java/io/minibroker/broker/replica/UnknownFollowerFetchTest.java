package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A follower's fetch from a broker that is not a replica of the partition as its leader has it: what a reassignment's
 * new replica sends when it has taken the image that adds it before its leader has. Kafka's leader refuses it at once
 * (Partition.followerReplicaOrThrow), UNKNOWN_LEADER_EPOCH when it names the leader's epoch and NOT_LEADER_OR_FOLLOWER
 * when it names none, and the fetcher asks again after its backoff. Parked instead, as it was, it waited for an append
 * or its timeout, and the leader never heard of the new replica meanwhile: on a manual clock that nothing moves, an idle
 * partition's move waited for good (ReplicationThrottleTest's timeout under load). Here the clock never moves and the
 * fetch asks to wait longer than the test may run, so only an answer at once lets it pass (the timeout fails the test
 * from another thread: the read of a parked fetch's answer is not interrupted).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UnknownFollowerFetchTest {

    private static final String TOPIC = "on-two-nodes";
    private static final int NOT_A_REPLICA = 2;
    private static final int WAIT_MS = 600_000;

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;
    private FirstPartition partition;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", "60000", "replica.fetch.wait.max.ms", "100"), clock);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        partition = new FirstPartition(cluster, TOPIC);
        try (Admin admin = partition.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0, 1))))).all().get();
        }
        await(() -> partition.leader() >= 0, "a leader");
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aFetchFromABrokerTheLeaderDoesNotHaveAsAReplicaIsRefusedAtOnce() throws Exception {
        try (NodeChannel leader = new NodeChannel("localhost", cluster.node(partition.leader()).boundPort("PLAINTEXT"),
                "unknown-follower-test", WAIT_MS + 10_000)) {
            // A consumer's fetch without a wait is served once the leader has taken the image that makes it leader
            await(() -> error(leader, -1, partition.leaderEpoch(), 0) == Errors.NONE, "the leader to lead");
            assertThat(error(leader, NOT_A_REPLICA, partition.leaderEpoch(), WAIT_MS)).as("naming the leader's epoch")
                    .isEqualTo(Errors.UNKNOWN_LEADER_EPOCH);
            assertThat(error(leader, NOT_A_REPLICA, -1, WAIT_MS)).as("naming no epoch")
                    .isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
        }
    }

    /** The error of a fetch of partition 0 (Fetch v12) by {@code replicaId} (-1: a consumer) from offset 0. */
    private static Errors error(NodeChannel channel, int replicaId, int currentLeaderEpoch, int maxWaitMs) {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("ReplicaId", replicaId).set("MaxWaitMs", maxWaitMs)
                .set("MinBytes", 1).set("MaxBytes", 1 << 20).set("SessionId", 0).set("SessionEpoch", -1);
        fetch.addElement("Topics").set("Topic", TOPIC).addElement("Partitions").set("Partition", 0)
                .set("CurrentLeaderEpoch", currentLeaderEpoch).set("FetchOffset", 0L).set("LogStartOffset", 0L)
                .set("LastFetchedEpoch", -1).set("PartitionMaxBytes", 1 << 20);
        try {
            Struct answer = channel.send(ApiKey.FETCH, (short) 12, fetch).getStructs("Responses").get(0)
                    .getStructs("Partitions").get(0);
            return Errors.forCode(answer.getInt16("ErrorCode"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
