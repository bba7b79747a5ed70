package io.minibroker.broker.cluster;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.DescribeTopicPartitionsRequestView;
import io.minibroker.protocol.message.view.DescribeTopicPartitionsResponseView;
import io.minibroker.protocol.message.view.DescribeTopicPartitionsResponseView.DescribeTopicPartitionsResponseTopic;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DescribeTopicPartitions on a single node, with topics a (3 partitions), b (2) and c (1): pages cut where Kafka
 * 4.3.1 cuts them for the same requests (each case below was sent to one, with the same topics), and
 * kafka-clients' describeTopics paging through it.
 */
@Timeout(60)
class DescribeTopicPartitionsTest {

    /** Every topic operation (Kafka's authorized operations without an authorizer), as a 4.3.1 node answered. */
    private static final int ALL_TOPIC_OPERATIONS = 3576;

    @TempDir
    Path logDir;
    private Broker broker;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("a", 3, (short) 1), new NewTopic("b", 2, (short) 1),
                    new NewTopic("c", 1, (short) 1))).all().get();
        }
    }

    @AfterEach
    void stop() throws Exception {
        broker.close();
    }

    @Test
    void pagesAreCutByTheLimitAndGoOnFromTheCursor() throws Exception {
        DescribeTopicPartitionsResponseView page = describe(2, List.of("a", "b", "c"), null, 0);
        assertThat(partitions(page)).containsExactly("a-0", "a-1");
        assertThat(cursor(page)).isEqualTo("a-2");
        assertThat(page.topics().get(0).topicAuthorizedOperations()).isEqualTo(ALL_TOPIC_OPERATIONS);

        page = describe(4, List.of(), null, 0);
        assertThat(partitions(page)).containsExactly("a-0", "a-1", "a-2", "b-0");
        assertThat(cursor(page)).isEqualTo("b-1");

        page = describe(2, List.of(), "b", 1);
        assertThat(partitions(page)).containsExactly("b-1", "c-0");
        assertThat(page.nextCursor()).isNull();

        page = describe(3, List.of("a", "b", "zzz", "c"), null, 0);
        assertThat(partitions(page)).as("the limit reached at a topic's end: the cursor at the next")
                .containsExactly("a-0", "a-1", "a-2");
        assertThat(cursor(page)).isEqualTo("b-0");

        page = describe(0, List.of("a"), null, 0);
        assertThat(partitions(page)).as("a limit below 1 is 1").containsExactly("a-0");
        assertThat(cursor(page)).isEqualTo("a-1");

        page = describe(5, List.of("a", "b"), "b", 5);
        assertThat(page.topics()).extracting(DescribeTopicPartitionsResponseTopic::name).containsExactly("b");
        assertThat(page.topics().get(0).partitions()).isEmpty();
        assertThat(page.nextCursor()).isNull();
    }

    @Test
    void unknownAndInvalidTopicsAndACursorOutsideTheTopicsAreAnsweredAsKafka() throws Exception {
        DescribeTopicPartitionsResponseView page = describe(10, List.of("a", "zzz", "a b"), null, 0);
        assertThat(page.topics()).extracting(DescribeTopicPartitionsResponseTopic::name)
                .containsExactly("a", "a b", "zzz");
        assertThat(page.topics()).extracting(DescribeTopicPartitionsResponseTopic::errorCode).containsExactly(
                Errors.NONE.code(), Errors.INVALID_TOPIC_EXCEPTION.code(), Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(page.topics()).allSatisfy(topic ->
                assertThat(topic.topicAuthorizedOperations()).isEqualTo(ALL_TOPIC_OPERATIONS));

        page = describe(5, List.of("a", "c"), "b", 0);
        assertThat(page.topics()).extracting(DescribeTopicPartitionsResponseTopic::name).containsExactly("a", "c");
        assertThat(page.topics()).allSatisfy(topic -> {
            assertThat(topic.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
            assertThat(topic.topicAuthorizedOperations()).isEqualTo(Integer.MIN_VALUE);
            assertThat(topic.partitions()).isEmpty();
        });

        assertThat(describe(5, List.of(), "zzz", 0).topics()).as("all topics after the cursor: none").isEmpty();
    }

    @Test
    void theAdminClientPagesThroughEveryPartition() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            Map<String, TopicDescription> described = admin.describeTopics(List.of("a", "b", "c"),
                    new DescribeTopicsOptions().partitionSizeLimitPerResponse(2)).allTopicNames().get();

            assertThat(described).containsOnlyKeys("a", "b", "c");
            assertThat(described.get("a").partitions()).extracting(TopicPartitionInfo::partition)
                    .containsExactly(0, 1, 2);
            assertThat(described.get("b").partitions()).extracting(TopicPartitionInfo::partition)
                    .containsExactly(0, 1);
            assertThat(described.get("a").partitions().get(2).leader().id()).isEqualTo(1);
            assertThat(described.get("a").partitions().get(2).isr()).extracting(node -> node.id()).containsExactly(1);
            assertThat(described.get("a").partitions().get(2).elr()).isEmpty();
        }
    }

    private DescribeTopicPartitionsResponseView describe(int limit, List<String> topics, String cursorTopic,
                                                         int cursorPartition) throws Exception {
        DescribeTopicPartitionsRequestView request = new DescribeTopicPartitionsRequestView()
                .responsePartitionLimit(limit);
        topics.forEach(name -> request.addTopic().name(name));
        if (cursorTopic != null) {
            request.cursor(new DescribeTopicPartitionsRequestView.Cursor().topicName(cursorTopic)
                    .partitionIndex(cursorPartition));
        }
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.DESCRIBE_TOPIC_PARTITIONS, (short) 0, 5, request.struct()));
            return new DescribeTopicPartitionsResponseView(
                    client.receive(ApiKey.DESCRIBE_TOPIC_PARTITIONS, (short) 0).body());
        }
    }

    private static List<String> partitions(DescribeTopicPartitionsResponseView page) {
        List<String> partitions = new ArrayList<>();
        page.topics().forEach(topic -> topic.partitions().forEach(p -> {
            assertThat(p.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(p.leaderId()).isEqualTo(1);
            assertThat(p.isrNodes()).containsExactly(1);
            assertThat(p.eligibleLeaderReplicas()).isEmpty();
            assertThat(p.lastKnownElr()).isEmpty();
            partitions.add(topic.name() + "-" + p.partitionIndex());
        }));
        return partitions;
    }

    private static String cursor(DescribeTopicPartitionsResponseView page) {
        assertThat(page.nextCursor()).isNotNull();
        return page.nextCursor().topicName() + "-" + page.nextCursor().partitionIndex();
    }
}
