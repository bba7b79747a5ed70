package io.minibroker.broker.admin;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterPartitionReassignmentsOptions;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * AlterPartitionReassignments and ListPartitionReassignments on a single node, which is every partition's only
 * replica and the only registered broker: a move to itself completes at once, anything else is refused with the code
 * and message a Kafka 4.3.1 node answers (checked side by side against one), and nothing is ever in progress.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PartitionReassignmentsSingleNodeTest {

    @TempDir
    Path logDir;
    private Broker broker;
    private Admin admin;
    private int self;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        admin = TestBrokers.admin(broker);
        admin.createTopics(List.of(new NewTopic("t", 2, (short) 1))).all().get();
        self = admin.describeCluster().nodes().get().iterator().next().id();
    }

    @AfterEach
    void stop() throws Exception {
        admin.close();
        broker.close();
    }

    private KafkaFuture<Void> reassign(String topic, int partition, Integer... replicas) {
        TopicPartition tp = new TopicPartition(topic, partition);
        Optional<NewPartitionReassignment> target = replicas == null ? Optional.empty()
                : Optional.of(new NewPartitionReassignment(Arrays.asList(replicas)));
        return admin.alterPartitionReassignments(Map.of(tp, target)).values().get(tp);
    }

    private static void assertRefused(KafkaFuture<Void> outcome, Class<? extends Throwable> error, String message) {
        assertThatThrownBy(outcome::get).isInstanceOf(ExecutionException.class).cause().isInstanceOf(error)
                .hasMessage(message);
    }

    @Test
    void aMoveToItselfCompletesAtOnceAndNothingIsInProgress() throws Exception {
        reassign("t", 0, self).get();
        admin.alterPartitionReassignments(Map.of(new TopicPartition("t", 1),
                        Optional.of(new NewPartitionReassignment(List.of(self)))),
                new AlterPartitionReassignmentsOptions().allowReplicationFactorChange(false)).all().get();

        assertThat(admin.listPartitionReassignments().reassignments().get()).isEmpty();
        assertThat(admin.listPartitionReassignments(Set.of(new TopicPartition("t", 0),
                new TopicPartition("nope", 0))).reassignments().get()).isEmpty();
        assertThat(admin.describeTopics(List.of("t")).allTopicNames().get().get("t").partitions())
                .allSatisfy(p -> assertThat(p.replicas()).extracting(n -> n.id()).containsExactly(self));
    }

    @Test
    void whatIsNotThereOrNotPlaceableIsRefusedAsKafkasController() {
        assertRefused(reassign("nope", 0, self), UnknownTopicOrPartitionException.class,
                "Unable to find a topic named nope.");
        assertRefused(reassign("t", 2, self), UnknownTopicOrPartitionException.class,
                "Unable to find partition t:2.");
        assertRefused(reassign("t", 0, self, self), InvalidReplicaAssignmentException.class,
                "The manual partition assignment includes the broker " + self + " more than once.");
        assertRefused(reassign("t", 0, self, self + 6), InvalidReplicaAssignmentException.class,
                "The manual partition assignment includes broker " + (self + 6) + ", but no such broker is registered.");
        // Checked in increasing broker id, as Kafka sorts them: the unknown -3 before the duplicate.
        assertRefused(reassign("t", 0, self, -3, self), InvalidReplicaAssignmentException.class,
                "The manual partition assignment includes broker -3, but no such broker is registered.");
    }

    @Test
    void cancellingWhereNothingMovesIsNoReassignmentInProgressWithoutAMessage() throws Exception {
        Struct request = alterRequest(30_000, "t", 0, null);
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.ALTER_PARTITION_REASSIGNMENTS, (short) 1, 3, request));
            Struct partition = onlyPartition(client.receive(ApiKey.ALTER_PARTITION_REASSIGNMENTS, (short) 1).body());
            assertThat(partition.getInt16("ErrorCode")).isEqualTo(Errors.NO_REASSIGNMENT_IN_PROGRESS.code());
            assertThat(partition.getString("ErrorMessage")).isNull();
        }
        assertThatThrownBy(() -> reassign("t", 1, (Integer[]) null).get()).cause()
                .isInstanceOf(NoReassignmentInProgressException.class);
    }

    @Test
    void listingAnswersNullMessageAndNothingMoving() throws Exception {
        Struct request = ApiKey.LIST_PARTITION_REASSIGNMENTS.request().newMessage().set("TimeoutMs", 0);
        request.addElement("Topics").set("Name", "t").set("PartitionIndexes", List.of(0, 9));
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.LIST_PARTITION_REASSIGNMENTS, (short) 0, 7, request));
            Struct response = client.receive(ApiKey.LIST_PARTITION_REASSIGNMENTS, (short) 0).body();
            assertThat(response.getInt16("ErrorCode")).as("no deadline: TimeoutMs 0 is not looked at").isZero();
            assertThat(response.getString("ErrorMessage")).isNull();
            assertThat(response.getStructs("Topics")).isEmpty();
        }
    }

    @Test
    void anEmptyReplicaListIsAnInvalidAssignment() throws Exception {
        // Not through Admin, which refuses an empty list itself.
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.ALTER_PARTITION_REASSIGNMENTS, (short) 0, 6,
                    alterRequest(30_000, "t", 0, List.of())));
            Struct partition = onlyPartition(client.receive(ApiKey.ALTER_PARTITION_REASSIGNMENTS, (short) 0).body());
            assertThat(partition.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_REPLICA_ASSIGNMENT.code());
            assertThat(partition.getString("ErrorMessage"))
                    .isEqualTo("The manual partition assignment includes an empty replica list.");
        }
    }

    @Test
    void aZeroTimeoutIsTimedOutEverywhereAndTheFlagIsEchoedOtherwise() throws Exception {
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.ALTER_PARTITION_REASSIGNMENTS, (short) 1, 4,
                    alterRequest(0, "nope", 0, List.of(self)).set("AllowReplicationFactorChange", false)));
            Struct timedOut = client.receive(ApiKey.ALTER_PARTITION_REASSIGNMENTS, (short) 1).body();
            client.send(RawClient.request(ApiKey.ALTER_PARTITION_REASSIGNMENTS, (short) 1, 5,
                    alterRequest(30_000, "t", 0, List.of(self)).set("AllowReplicationFactorChange", false)));
            Struct done = client.receive(ApiKey.ALTER_PARTITION_REASSIGNMENTS, (short) 1).body();

            assertThat(timedOut.getInt16("ErrorCode")).isEqualTo(Errors.REQUEST_TIMED_OUT.code());
            assertThat(timedOut.getString("ErrorMessage")).isNull();
            assertThat(done.getString("ErrorMessage")).as("null, as Kafka's controller sets it").isNull();
            assertThat(timedOut.getBool("AllowReplicationFactorChange")).as("Kafka's error answer: the default").isTrue();
            assertThat(onlyPartition(timedOut).getInt16("ErrorCode")).isEqualTo(Errors.REQUEST_TIMED_OUT.code());
            assertThat(onlyPartition(timedOut).getString("ErrorMessage")).isNull();
            assertThat(done.getInt16("ErrorCode")).isZero();
            assertThat(done.getBool("AllowReplicationFactorChange")).isFalse();
            assertThat(onlyPartition(done).getInt16("ErrorCode")).isZero();
        }
    }

    private static Struct alterRequest(int timeoutMs, String topic, int partition, List<Integer> replicas) {
        Struct request = ApiKey.ALTER_PARTITION_REASSIGNMENTS.request().newMessage().set("TimeoutMs", timeoutMs);
        request.addElement("Topics").set("Name", topic).addElement("Partitions").set("PartitionIndex", partition)
                .set("Replicas", replicas);
        return request;
    }

    private static Struct onlyPartition(Struct response) {
        List<Struct> topics = response.getStructs("Responses");
        assertThat(topics).hasSize(1);
        List<Struct> partitions = topics.get(0).getStructs("Partitions");
        assertThat(partitions).hasSize(1);
        return partitions.get(0);
    }
}
