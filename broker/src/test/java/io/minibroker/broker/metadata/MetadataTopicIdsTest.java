package io.minibroker.broker.metadata;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Metadata requests naming topics by id, at the edges, answered as Kafka 4.3's KafkaApis.handleTopicMetadataRequest
 * answers them: before v12 a null name or a non-zero id is INVALID_REQUEST for every topic; from v12 a null name with
 * a zero id fails the whole request (UNKNOWN_SERVER_ERROR: Kafka takes the null for a topic name); once any topic
 * has a non-zero id only the topics named by id are answered, an unknown id UNKNOWN_TOPIC_ID; a topic with both a
 * name and an id goes by its id.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MetadataTopicIdsTest {

    private static final UUID ZERO = new UUID(0, 0);

    @TempDir
    Path logDir;
    private Broker broker;
    private RawClient client;
    private UUID ordersId;
    private int correlationId;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("auto.create.topics.enable", "true"));
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get();
            ByteBuffer id = ByteBuffer.wrap(Base64.getUrlDecoder().decode(admin.describeTopics(List.of("orders"))
                    .allTopicNames().get().get("orders").topicId().toString()));
            ordersId = new UUID(id.getLong(), id.getLong());
        }
        client = new RawClient(broker.boundPort("PLAINTEXT"));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    private MetadataResponseView metadata(int version, MetadataRequestView request) throws Exception {
        client.send(RawClient.request(ApiKey.METADATA, (short) version, ++correlationId, request.struct()));
        return new MetadataResponseView(client.receive(ApiKey.METADATA, (short) version).body());
    }

    private static MetadataRequestView request() {
        return new MetadataRequestView().allowAutoTopicCreation(true);
    }

    @Test
    void beforeV12ANullNameOrAnIdIsAnInvalidRequest() throws Exception {
        MetadataRequestView nullName = request();
        nullName.addTopic().name(null).topicId(ZERO);
        nullName.addTopic().name("orders").topicId(ZERO);
        MetadataResponseView answer = metadata(11, nullName);
        assertThat(answer.topics()).extracting(MetadataResponseView.MetadataResponseTopic::name)
                .containsExactly("", "orders");
        assertThat(answer.topics()).allSatisfy(topic -> {
            assertThat(topic.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
            assertThat(topic.partitions()).isEmpty();
        });

        MetadataRequestView withId = request();
        withId.addTopic().name("orders").topicId(ordersId);
        assertThat(metadata(10, withId).topics()).singleElement()
                .satisfies(topic -> assertThat(topic.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code()));
    }

    @Test
    void aNullNameWithAZeroIdFailsTheRequest() throws Exception {
        MetadataRequestView request = request();
        request.addTopic().name(null).topicId(ZERO);
        request.addTopic().name("orders").topicId(ZERO);
        MetadataResponseView answer = metadata(12, request);
        assertThat(answer.topics()).extracting(MetadataResponseView.MetadataResponseTopic::errorCode)
                .containsOnly(Errors.UNKNOWN_SERVER_ERROR.code());
        assertThat(answer.topics()).extracting(MetadataResponseView.MetadataResponseTopic::name)
                .containsExactly("", "orders");
        assertThat(metadata(13, request).errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
    }

    @Test
    void theErrorResponseAnswersEachTopicAsOftenAsItIsAskedFor() throws Exception {
        MetadataRequestView request = request();
        request.addTopic().name(null).topicId(ZERO);
        request.addTopic().name("orders").topicId(ZERO);
        request.addTopic().name("orders").topicId(ZERO);
        request.addTopic().name(null).topicId(ZERO);
        assertThat(metadata(12, request).topics()).extracting(MetadataResponseView.MetadataResponseTopic::name)
                .as("as Kafka's MetadataRequest.getErrorResponse: one entry per topic asked for")
                .containsExactly("", "orders", "orders", "");
    }

    @Test
    void onceATopicIsNamedByIdOnlyTopicsNamedByIdAreAnswered() throws Exception {
        UUID unknown = UUID.randomUUID();
        MetadataRequestView request = request();
        request.addTopic().name(null).topicId(ordersId);
        request.addTopic().name(null).topicId(unknown);
        request.addTopic().name(null).topicId(ZERO); // neither a name nor an id: not answered
        request.addTopic().name("created-if-named").topicId(ZERO); // nor is a name, nor created
        MetadataResponseView answer = metadata(12, request);
        assertThat(answer.topics()).hasSize(2);
        assertThat(answer.topics().get(0).name()).isEqualTo("orders");
        assertThat(answer.topics().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(answer.topics().get(1).topicId()).isEqualTo(unknown);
        assertThat(answer.topics().get(1).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_ID.code());

        MetadataRequestView named = request();
        named.addTopic().name("created-if-named").topicId(ZERO);
        assertThat(metadata(12, named).topics()).as("created, answered as Kafka while it creates").singleElement()
                .satisfies(topic -> assertThat(topic.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
        assertThat(metadata(12, named).topics()).singleElement()
                .satisfies(topic -> assertThat(topic.errorCode()).isEqualTo(Errors.NONE.code()));
    }

    @Test
    void aNameAndAnIdGoByTheId() throws Exception {
        UUID unknown = UUID.randomUUID();
        MetadataRequestView request = request();
        request.addTopic().name("orders").topicId(unknown);
        assertThat(metadata(12, request).topics()).singleElement().satisfies(topic -> {
            assertThat(topic.topicId()).isEqualTo(unknown);
            assertThat(topic.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_ID.code());
        });
    }
}
