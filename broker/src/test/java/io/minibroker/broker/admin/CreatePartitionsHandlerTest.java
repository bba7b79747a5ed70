package io.minibroker.broker.admin;

import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView.CreatePartitionsTopic;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView.CreatePartitionsTopicResult;
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
 * A single node's CreatePartitions checks what Kafka's controller checks (ReplicationControlManager.createPartitions,
 * ControllerApis.createPartitions), with its codes and messages, as Kafka 4.3.1 answered them.
 */
class CreatePartitionsHandlerTest {

    private static final int NODE = 0;

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private CreatePartitionsHandler handler;

    @BeforeEach
    void open() throws IOException {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        topics.create("orders", 1, 1, Map.of(), false);
        handler = new CreatePartitionsHandler(topics, new LocalNode(NODE, "cluster", List::of, null),
                new ControllerMutationQuotas(ClientQuotas.mirror(), () -> 0, 11, 1));
    }

    @AfterEach
    void close() throws IOException {
        topics.close();
    }

    @Test
    void assignmentsAreCheckedAsKafkasControllerChecksThem() {
        assertThat(answer(topic("orders", 3, List.of(NODE)))).containsExactly(tuple("orders",
                Errors.INVALID_REPLICA_ASSIGNMENT.code(),
                "Attempted to add 2 additional partition(s), but only 1 assignment(s) were specified."));
        assertThat(answer(topic("orders", 2, List.of()))).containsExactly(tuple("orders",
                Errors.INVALID_REPLICA_ASSIGNMENT.code(),
                "The manual partition assignment includes an empty replica list."));
        assertThat(answer(topic("orders", 2, List.of(NODE, NODE)))).containsExactly(tuple("orders",
                Errors.INVALID_REPLICA_ASSIGNMENT.code(),
                "The manual partition assignment includes the broker 0 more than once."));
        assertThat(answer(topic("orders", 2, List.of(3)))).containsExactly(tuple("orders",
                Errors.INVALID_REPLICA_ASSIGNMENT.code(),
                "The manual partition assignment includes broker 3, but no such broker is registered."));
        assertThat(answer(topic("absent", 2, List.of(3)))).as("existence first, no message as Kafka 4.3.1's")
                .containsExactly(tuple("absent", Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), null));
        assertThat(topics.get("orders").map(TopicMetadata::partitions)).contains(1);

        assertThat(answer(topic("orders", 2, List.of(NODE)))).containsExactly(tuple("orders", Errors.NONE.code(),
                null));
        assertThat(topics.get("orders").map(TopicMetadata::partitions)).contains(2);
    }

    @Test
    void aCountThatIsNoIncreaseGetsKafkasMessages() {
        assertThat(answer(topic("orders", 1))).containsExactly(tuple("orders", Errors.INVALID_PARTITIONS.code(),
                "Topic already has 1 partition(s)."));
        assertThat(answer(topic("orders", 0))).containsExactly(tuple("orders", Errors.INVALID_PARTITIONS.code(),
                "The topic orders currently has 1 partition(s); 0 would not be an increase."));
    }

    @Test
    void aTopicNamedTwiceIsAnsweredOnceAndLeftAlone() {
        topics.create("clicks", 1, 1, Map.of(), false);
        assertThat(answer(topic("orders", 2), topic("clicks", 2), topic("orders", 3))).containsExactly(
                tuple("orders", Errors.INVALID_REQUEST.code(), "Duplicate topic name."),
                tuple("clicks", Errors.NONE.code(), null));
        assertThat(topics.get("orders").map(TopicMetadata::partitions)).contains(1);
        assertThat(topics.get("clicks").map(TopicMetadata::partitions)).contains(2);
    }

    @SafeVarargs
    private static Consumer<CreatePartitionsRequestView> topic(String name, int count, List<Integer>... replicas) {
        return request -> {
            CreatePartitionsTopic topic = request.addTopic().name(name).count(count);
            if (replicas.length > 0) {
                for (List<Integer> brokers : replicas) {
                    topic.addAssignment().brokerIds(brokers);
                }
            } else {
                topic.assignments(null);
            }
        };
    }

    @SafeVarargs
    private List<org.assertj.core.groups.Tuple> answer(Consumer<CreatePartitionsRequestView>... named) {
        CreatePartitionsRequestView body = new CreatePartitionsRequestView().timeoutMs(1_000);
        for (Consumer<CreatePartitionsRequestView> topic : named) {
            topic.accept(body);
        }
        Request request = new Request(new RequestHeader(ApiKey.CREATE_PARTITIONS.id(), (short) 3, 1, "test"),
                ApiKey.CREATE_PARTITIONS, body.struct());
        List<CreatePartitionsTopicResult> results = new CreatePartitionsResponseView(handler.handle(
                TestContexts.on("PLAINTEXT"), request).toCompletableFuture().join()).results();
        return results.stream().map(r -> tuple(r.name(), r.errorCode(), r.errorMessage())).toList();
    }
}
