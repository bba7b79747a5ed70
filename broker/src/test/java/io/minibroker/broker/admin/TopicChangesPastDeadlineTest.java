package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.DeleteTopicsRequestView;
import io.minibroker.protocol.message.view.DeleteTopicsResponseView;
import io.minibroker.protocol.schema.Struct;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * CreateTopics, CreatePartitions and DeleteTopics with a TimeoutMs of 0 or less, as a Kafka 4.3.1 controller answers
 * them (a probe against a Kafka 4.3.1 node, docs/compatibility.md's kafka-go note 5): past its deadline before it
 * runs, the request is answered whole REQUEST_TIMED_OUT with no message and nothing changes; a request whose own
 * checks leave nothing to change (every name repeated) is answered those checks at once, deadline or not.
 */
class TopicChangesPastDeadlineTest {

    private static final short TIMED_OUT = Errors.REQUEST_TIMED_OUT.code();

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private LocalNode node;
    private ControllerMutationQuotas quotas;

    @BeforeEach
    void open() throws IOException {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        topics.create("orders", 1, 1, Map.of(), false);
        node = new LocalNode(0, "cluster", List::of, null);
        quotas = new ControllerMutationQuotas(ClientQuotas.mirror(), () -> 0, 11, 1);
    }

    @AfterEach
    void close() throws IOException {
        topics.close();
    }

    @Test
    void createTopicsPastItsDeadlineCreatesNothingAndAnswersEveryEntry() {
        CreateTopicsRequestView request = new CreateTopicsRequestView().timeoutMs(0);
        request.addTopic().name("fresh").numPartitions(1).replicationFactor((short) 1);
        request.addTopic().name("orders").numPartitions(1).replicationFactor((short) 1);
        request.addTopic().name("twice").numPartitions(1).replicationFactor((short) 1);
        request.addTopic().name("twice").numPartitions(1).replicationFactor((short) 1);

        assertThat(createTopics(request)).as("the repeated name too, as CreateTopicsRequest.getErrorResponse")
                .containsExactly(tuple("fresh", TIMED_OUT, null), tuple("orders", TIMED_OUT, null),
                        tuple("twice", TIMED_OUT, null), tuple("twice", TIMED_OUT, null));
        assertThat(topics.get("fresh")).isEmpty();

        CreateTopicsRequestView validateOnly = new CreateTopicsRequestView().timeoutMs(-1).validateOnly(true);
        validateOnly.addTopic().name("fresh").numPartitions(1).replicationFactor((short) 1);
        assertThat(createTopics(validateOnly)).containsExactly(tuple("fresh", TIMED_OUT, null));
    }

    @Test
    void createTopicsWithNothingLeftToCreateIsAnsweredItsOwnChecks() {
        CreateTopicsRequestView request = new CreateTopicsRequestView().timeoutMs(0);
        request.addTopic().name("twice").numPartitions(1).replicationFactor((short) 1);
        request.addTopic().name("twice").numPartitions(1).replicationFactor((short) 1);

        assertThat(createTopics(request)).containsExactly(tuple("twice", Errors.INVALID_REQUEST.code(),
                CreatePartitionsHandler.DUPLICATE_TOPIC));
    }

    @Test
    void createTopicsWithATimeoutCreates() {
        CreateTopicsRequestView request = new CreateTopicsRequestView().timeoutMs(1);
        request.addTopic().name("fresh").numPartitions(1).replicationFactor((short) 1);

        assertThat(createTopics(request)).containsExactly(tuple("fresh", Errors.NONE.code(), null));
        assertThat(topics.get("fresh")).isPresent();
    }

    @Test
    void createPartitionsPastItsDeadlineAddsNothing() {
        CreatePartitionsRequestView request = new CreatePartitionsRequestView().timeoutMs(0);
        request.addTopic().name("orders").count(2).assignments(null);
        request.addTopic().name("absent").count(2).assignments(null);

        assertThat(createPartitions(request)).containsExactly(tuple("orders", TIMED_OUT, null),
                tuple("absent", TIMED_OUT, null));
        assertThat(topics.get("orders").map(TopicMetadata::partitions)).contains(1);

        CreatePartitionsRequestView repeated = new CreatePartitionsRequestView().timeoutMs(0);
        repeated.addTopic().name("orders").count(2).assignments(null);
        repeated.addTopic().name("orders").count(3).assignments(null);
        assertThat(createPartitions(repeated)).as("nothing left to add: answered at once")
                .containsExactly(tuple("orders", Errors.INVALID_REQUEST.code(), CreatePartitionsHandler.DUPLICATE_TOPIC));
    }

    @Test
    void deleteTopicsPastItsDeadlineDeletesNothing() {
        DeleteTopicsRequestView byName = new DeleteTopicsRequestView().timeoutMs(0).topicNames(List.of("orders",
                "absent"));
        assertThat(deleteTopics((short) 5, byName)).containsExactly(tuple("orders", TIMED_OUT, null),
                tuple("absent", TIMED_OUT, null));
        assertThat(topics.get("orders")).isPresent();

        DeleteTopicsRequestView byId = new DeleteTopicsRequestView().timeoutMs(0);
        byId.addTopic().name(null).topicId(topics.get("orders").orElseThrow().id());
        assertThat(deleteTopics((short) 6, byId)).extracting(tuple -> tuple.toList().get(1))
                .containsExactly(TIMED_OUT);
        assertThat(topics.get("orders")).isPresent();

        DeleteTopicsRequestView repeated = new DeleteTopicsRequestView().timeoutMs(0).topicNames(List.of("orders",
                "orders"));
        assertThat(deleteTopics((short) 5, repeated)).as("nothing left to look up: answered at once")
                .containsExactly(tuple("orders", Errors.INVALID_REQUEST.code(), CreatePartitionsHandler.DUPLICATE_TOPIC));

        DeleteTopicsRequestView withTimeout = new DeleteTopicsRequestView().timeoutMs(1).topicNames(List.of("orders"));
        assertThat(deleteTopics((short) 5, withTimeout)).containsExactly(tuple("orders", Errors.NONE.code(), null));
        assertThat(topics.get("orders")).isEmpty();
    }

    private List<Tuple> createTopics(CreateTopicsRequestView body) {
        CreateTopicsHandler handler = new CreateTopicsHandler(topics, node,
                BrokerConfig.of(Map.of("log.dir", logDir.toString())), quotas);
        return new CreateTopicsResponseView(call(handler, ApiKey.CREATE_TOPICS, (short) 7, body.struct())).topics()
                .stream().map(r -> tuple(r.name(), r.errorCode(), r.errorMessage())).toList();
    }

    private List<Tuple> createPartitions(CreatePartitionsRequestView body) {
        CreatePartitionsHandler handler = new CreatePartitionsHandler(topics, node, quotas);
        return new CreatePartitionsResponseView(call(handler, ApiKey.CREATE_PARTITIONS, (short) 3, body.struct()))
                .results().stream().map(r -> tuple(r.name(), r.errorCode(), r.errorMessage())).toList();
    }

    private List<Tuple> deleteTopics(short version, DeleteTopicsRequestView body) {
        DeleteTopicsHandler handler = new DeleteTopicsHandler(topics, true, quotas);
        return new DeleteTopicsResponseView(call(handler, ApiKey.DELETE_TOPICS, version, body.struct())).responses()
                .stream().map(r -> tuple(r.name(), r.errorCode(), r.errorMessage())).toList();
    }

    private static Struct call(ApiHandler handler, ApiKey api, short version, Struct body) {
        Request request = new Request(new RequestHeader(api.id(), version, 1, "test"), api, body);
        return handler.handle(TestContexts.on("PLAINTEXT"), request).toCompletableFuture().join();
    }
}
