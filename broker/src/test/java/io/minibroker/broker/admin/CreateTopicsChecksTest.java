package io.minibroker.broker.admin;

import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView.CreatableTopic;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView.CreatableTopicConfigs;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A single node's CreateTopics checks what Kafka's controller checks (ControllerApis.createTopics,
 * ReplicationControlManager.createTopic), in its order and with its codes and messages; a created topic's message is
 * null, as Kafka's controller sets it (kafkajs's suite asserts it).
 */
class CreateTopicsChecksTest {

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private CreateTopicsHandler handler;

    @BeforeEach
    void open() throws IOException {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString(), "log.retention.hours", "2"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("orders", 1, 1, Map.of(), false);
        handler = new CreateTopicsHandler(topics, new LocalNode(1, "cluster", List::of, null), config,
                new ControllerMutationQuotas(ClientQuotas.mirror(), () -> 0, 11, 1));
    }

    @AfterEach
    void close() throws IOException {
        topics.close();
    }

    @Test
    void duplicatesAndTheMetadataLogAreRefusedAfterTheOthers() {
        assertThat(create(topic("a", 1, 1), topic("__cluster_metadata", 1, 1), topic("b", 1, 1), topic("a", 1, 1)))
                .containsExactly(tuple("b", Errors.NONE.code(), null),
                        tuple("a", Errors.INVALID_REQUEST.code(), "Duplicate topic name."),
                        tuple("__cluster_metadata", Errors.INVALID_REQUEST.code(),
                                "Creation of internal topic __cluster_metadata is prohibited."));
        assertThat(topics.get("a")).isEmpty();
        assertThat(topics.get("__cluster_metadata")).isEmpty();
    }

    /** An invalid name in the words a Kafka 4.3.1 node answered (session 26), not the older Kafka's. */
    @Test
    void anInvalidNameGetsKafkasMessage() {
        assertThat(create(topic("bad name", 1, 1), topic("..", 1, 1))).containsExactly(
                tuple("bad name", Errors.INVALID_TOPIC_EXCEPTION.code(), "Topic name is invalid: 'bad name' contains"
                        + " one or more characters other than ASCII alphanumerics, '.', '_' and '-'"),
                tuple("..", Errors.INVALID_TOPIC_EXCEPTION.code(), "Topic name is invalid: '..' is not allowed"));
    }

    @Test
    void countsAndAssignmentsGetKafkasCodesAndMessages() {
        assertThat(create(topic("t", 0, 0))).containsExactly(tuple("t", Errors.INVALID_REPLICATION_FACTOR.code(),
                "Replication factor must be larger than 0, or -1 to use the default value."));
        assertThat(create(topic("t", 0, 1))).containsExactly(tuple("t", Errors.INVALID_PARTITIONS.code(),
                "Number of partitions was set to an invalid non-positive value."));
        assertThat(create(topic("t", -1, 1, List.of(1)))).containsExactly(tuple("t", Errors.INVALID_REQUEST.code(),
                "A manual partition assignment was specified, but replication factor was not set to -1."));
        assertThat(create(topic("t", 1, -1, List.of(1)))).containsExactly(tuple("t", Errors.INVALID_REQUEST.code(),
                "A manual partition assignment was specified, but numPartitions was not set to -1."));
        assertThat(create(topic("t", -1, -1, List.of(1, 1)))).containsExactly(tuple("t",
                Errors.INVALID_REPLICA_ASSIGNMENT.code(),
                "The manual partition assignment includes the broker 1 more than once."));
        assertThat(create(topic("t", -1, -1, List.of(2)))).containsExactly(tuple("t",
                Errors.INVALID_REPLICA_ASSIGNMENT.code(),
                "The manual partition assignment includes broker 2, but no such broker is registered."));
        assertThat(topics.get("t")).isEmpty();

        assertThat(create(topic("t", -1, -1, List.of(1), List.of(1)))).containsExactly(tuple("t",
                Errors.NONE.code(), null));
        assertThat(topics.get("t").orElseThrow().partitions()).isEqualTo(2);
    }

    @Test
    void existenceAndConfigsAreCheckedBeforeCounts() {
        assertThat(create(topic("orders", 0, 0))).extracting(t -> t.toList().get(1))
                .containsExactly(Errors.TOPIC_ALREADY_EXISTS.code());
        assertThat(create(topic("orders", -1, -1, List.of(1, 1)))).extracting(t -> t.toList().get(1))
                .containsExactly(Errors.TOPIC_ALREADY_EXISTS.code());
        assertThat(create(request -> request.addTopic().name("t").numPartitions(0).replicationFactor((short) 0)
                .addConfig().name("segment.ms").value("0"))).containsExactly(tuple("t",
                Errors.INVALID_CONFIG.code(),
                "Invalid value 0 for configuration segment.ms: Value must be at least 1"));
    }

    /** v5+ lists the new topic's configs by name, each with Kafka's source: the topic's, the broker file's, default. */
    @Test
    void createdConfigsAreListedByNameWithWhereTheyComeFrom() {
        CreateTopicsRequestView body = new CreateTopicsRequestView().timeoutMs(1_000);
        body.addTopic().name("t").numPartitions(1).replicationFactor((short) 1).addConfig().name("segment.ms")
                .value("100000");
        List<CreatableTopicConfigs> configs = answer(body).topics().get(0).configs();
        assertThat(configs).extracting(CreatableTopicConfigs::name).isSorted();
        assertThat(configs).filteredOn(c -> List.of("segment.ms", "retention.ms", "max.message.bytes")
                .contains(c.name())).extracting(c -> tuple(c.name(), c.value(), c.configSource())).containsExactly(
                tuple("max.message.bytes", "1048588", (byte) 5),
                tuple("retention.ms", "7200000", (byte) 4),
                tuple("segment.ms", "100000", (byte) 1));
    }

    @SafeVarargs
    private static Consumer<CreateTopicsRequestView> topic(String name, int partitions, int replicationFactor,
                                                           List<Integer>... replicaLists) {
        return request -> {
            CreatableTopic topic = request.addTopic().name(name).numPartitions(partitions)
                    .replicationFactor((short) replicationFactor);
            for (int partition = 0; partition < replicaLists.length; partition++) {
                topic.addAssignment().partitionIndex(partition).brokerIds(replicaLists[partition]);
            }
        };
    }

    @SafeVarargs
    private List<Tuple> create(Consumer<CreateTopicsRequestView>... named) {
        CreateTopicsRequestView body = new CreateTopicsRequestView().timeoutMs(1_000);
        for (Consumer<CreateTopicsRequestView> topic : named) {
            topic.accept(body);
        }
        return answer(body).topics().stream().map(r -> tuple(r.name(), r.errorCode(), r.errorMessage())).toList();
    }

    private CreateTopicsResponseView answer(CreateTopicsRequestView body) {
        Request request = new Request(new RequestHeader(ApiKey.CREATE_TOPICS.id(), (short) 7, 1, "test"),
                ApiKey.CREATE_TOPICS, body.struct());
        return new CreateTopicsResponseView(handler.handle(TestContexts.on("PLAINTEXT"), request)
                .toCompletableFuture().join());
    }
}
