package io.minibroker.broker.admin;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ElectLeaders on a single node, which leads every partition as its only replica: no election is ever needed,
 * and what is not there, or not asked properly, is answered as Kafka's controller answers it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ElectLeadersSingleNodeTest {

    @TempDir
    Path logDir;
    private Broker broker;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
    }

    @AfterEach
    void stop() throws Exception {
        broker.close();
    }

    @Test
    void everyElectionIsNotNeededAndUnknownPartitionsAreSaidSo() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("t", 2, (short) 1))).all().get();
            TopicPartition first = new TopicPartition("t", 0);
            TopicPartition missing = new TopicPartition("t", 2);
            for (ElectionType type : ElectionType.values()) {
                Map<TopicPartition, Optional<Throwable>> results =
                        admin.electLeaders(type, Set.of(first, missing)).partitions().get();
                assertThat(results.get(first)).as(type.name()).containsInstanceOf(ElectionNotNeededException.class);
                assertThat(results.get(missing)).as(type.name())
                        .containsInstanceOf(UnknownTopicOrPartitionException.class);
                assertThat(results.get(missing).orElseThrow()).hasMessage("No such partition as t-2");
            }
            assertThat(admin.electLeaders(ElectionType.PREFERRED, null).partitions().get()).isEmpty();
        }
    }

    @Test
    void anUnknownElectionTypeRefusesTheWholeRequest() throws Exception {
        Struct request = ApiKey.ELECT_LEADERS.request().newMessage().set("ElectionType", (byte) 2);
        request.addElement("TopicPartitions").set("Topic", "t").set("Partitions", List.of(0, 1));
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.ELECT_LEADERS, (short) 2, 7, request));
            Struct response = client.receive(ApiKey.ELECT_LEADERS, (short) 2).body();

            assertThat(response.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_REQUEST.code());
            List<Struct> partitions = response.getStructs("ReplicaElectionResults").get(0).getStructs("PartitionResult");
            assertThat(partitions).hasSize(2).allSatisfy(partition -> {
                assertThat(partition.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_REQUEST.code());
                assertThat(partition.getString("ErrorMessage")).isEqualTo("Unknown election type 2");
            });
        }
    }

    @Test
    void anEmptyListIsAnsweredEmptyWhateverTheElectionType() throws Exception {
        Struct request = ApiKey.ELECT_LEADERS.request().newMessage().set("ElectionType", (byte) 2)
                .set("TopicPartitions", List.of());
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.ELECT_LEADERS, (short) 2, 8, request));
            Struct response = client.receive(ApiKey.ELECT_LEADERS, (short) 2).body();

            assertThat(response.getInt16("ErrorCode")).as("as Kafka's controller, before the type").isZero();
            assertThat(response.getStructs("ReplicaElectionResults")).isEmpty();
        }
    }

    @Test
    void aZeroTimeoutIsAnsweredTimedOutAsKafkasControllerDoes() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("t", 2, (short) 1))).all().get();
        }
        Struct request = ApiKey.ELECT_LEADERS.request().newMessage().set("ElectionType", (byte) 0).set("TimeoutMs", 0);
        request.addElement("TopicPartitions").set("Topic", "t").set("Partitions", List.of(0, 1));
        Struct all = ApiKey.ELECT_LEADERS.request().newMessage().set("ElectionType", (byte) 0).set("TimeoutMs", 0)
                .set("TopicPartitions", null);
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.ELECT_LEADERS, (short) 2, 9, request));
            Struct named = client.receive(ApiKey.ELECT_LEADERS, (short) 2).body();
            client.send(RawClient.request(ApiKey.ELECT_LEADERS, (short) 2, 10, all));
            Struct every = client.receive(ApiKey.ELECT_LEADERS, (short) 2).body();

            assertThat(named.getInt16("ErrorCode")).isEqualTo(Errors.REQUEST_TIMED_OUT.code());
            List<Struct> partitions = named.getStructs("ReplicaElectionResults").get(0).getStructs("PartitionResult");
            assertThat(partitions).extracting(p -> p.getInt32("PartitionId")).containsExactly(0, 1);
            assertThat(partitions).allSatisfy(partition -> {
                assertThat(partition.getInt16("ErrorCode")).isEqualTo(Errors.REQUEST_TIMED_OUT.code());
                assertThat(partition.getString("ErrorMessage")).isNull();
            });
            assertThat(every.getInt16("ErrorCode")).isEqualTo(Errors.REQUEST_TIMED_OUT.code());
            assertThat(every.getStructs("ReplicaElectionResults")).isEmpty();
        }
    }
}
