package io.minibroker.broker.admin;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Admin requests that name one thing twice, or a config resource of a type Kafka does not serve, answered as a Kafka
 * 4.3.1 single node (KRaft, broker and controller in one process) answered the same raw requests, sent side by side
 * to it and to minibroker on 2026-11-29 (session 25): codes, messages, and the entries' order and count.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RepeatedEntriesTest {

    @TempDir
    Path logDir;
    private Broker broker;
    private Admin admin;
    private int correlationId;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        admin = TestBrokers.admin(broker);
        admin.createTopics(List.of(new NewTopic("t", 2, (short) 1))).all().get();
    }

    @AfterEach
    void stop() throws Exception {
        admin.close();
        broker.close();
    }

    private Struct exchange(ApiKey api, short version, Struct request) throws Exception {
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(RawClient.request(api, version, ++correlationId, request));
            return client.receive(api, version).body();
        }
    }

    /** One resource with one config set to a value (a SET in IncrementalAlterConfigs). */
    private static void addResource(ApiKey api, Struct request, int type, String name, String config, String value) {
        Struct resource = request.addElement("Resources").set("ResourceType", (byte) type).set("ResourceName", name);
        Struct entry = resource.addElement("Configs").set("Name", config).set("Value", value);
        if (api == ApiKey.INCREMENTAL_ALTER_CONFIGS) {
            entry.set("ConfigOperation", AlterConfigOp.SET);
        }
    }

    /** Each resource's answer as "type name code message", in the answer's order. */
    private static List<String> answers(Struct response) {
        return response.getStructs("Responses").stream().map(r -> r.getInt8("ResourceType") + " "
                + r.getString("ResourceName") + " " + r.getInt16("ErrorCode") + " " + r.getString("ErrorMessage"))
                .toList();
    }

    /**
     * A type neither request serves is INVALID_REQUEST "Unknown resource type N", N its code as sent, from Kafka's
     * ConfigAdminManager.preprocess on the broker; the other resources are served at their places. Kafka answered
     * so for 0, 1, 3, 5, 99 and -1 in both requests, with validateOnly either way, and for 8 (BROKER_LOGGER) in the
     * legacy AlterConfigs.
     */
    @Test
    void aResourceTypeNotServedIsAnUnknownResourceType() throws Exception {
        for (ApiKey api : List.of(ApiKey.ALTER_CONFIGS, ApiKey.INCREMENTAL_ALTER_CONFIGS)) {
            short version = (short) (api == ApiKey.ALTER_CONFIGS ? 2 : 1);
            for (int type : new int[]{0, 1, 3, 5, 99, -1}) {
                for (boolean validateOnly : new boolean[]{false, true}) {
                    Struct request = api.request().newMessage().set("ValidateOnly", validateOnly);
                    addResource(api, request, type, "x", "max.message.bytes", "100000");
                    assertThat(answers(exchange(api, version, request))).as("%s type %d", api, type)
                            .containsExactly(type + " x 42 Unknown resource type " + type);
                }
            }
            Struct mixed = api.request().newMessage();
            addResource(api, mixed, 99, "x", "max.message.bytes", "100000");
            addResource(api, mixed, ConfigResources.TOPIC, "t", "max.message.bytes", "100000");
            assertThat(answers(exchange(api, version, mixed))).as("%s", api)
                    .containsExactly("99 x 42 Unknown resource type 99", "2 t 0 null");
        }
        Struct logger = ApiKey.ALTER_CONFIGS.request().newMessage();
        addResource(ApiKey.ALTER_CONFIGS, logger, ConfigResources.BROKER_LOGGER, "1", "root", "DEBUG");
        assertThat(answers(exchange(ApiKey.ALTER_CONFIGS, (short) 2, logger)))
                .containsExactly("8 1 42 Unknown resource type 8");
    }

    /** A v6+ DeleteTopics entry: a name, an id, both, or neither (null and the zero id). */
    private static void addTopic(Struct request, String name, UUID id) {
        request.addElement("Topics").set("Name", name).set("TopicId", id);
    }

    /** Each DeleteTopics result as "name code message" (Kafka shuffles them: compared in any order). */
    private static List<String> deleteResults(Struct response) {
        return response.getStructs("Responses").stream().map(r -> r.getString("Name") + " " + r.getInt16("ErrorCode")
                + " " + r.getString("ErrorMessage")).toList();
    }

    /**
     * Kafka's ControllerApis.deleteTopics answers an entry with both a name and an id, or with neither, each time it
     * appears, and only a name or an id given alone twice once ("Duplicate topic name.", from a set). Kafka 4.3.1 gave
     * five results to these five entries, and two to the same {name, id} twice or to two empty entries.
     */
    @Test
    void entriesWithBothOrNeitherAreAnsweredEachTime() throws Exception {
        Uuid topicId = admin.describeTopics(List.of("t")).allTopicNames().get().get("t").topicId();
        UUID id = new UUID(topicId.getMostSignificantBits(), topicId.getLeastSignificantBits());
        UUID zero = new UUID(0, 0);
        Struct request = ApiKey.DELETE_TOPICS.request().newMessage().set("TimeoutMs", 30_000);
        addTopic(request, "t", id);
        addTopic(request, null, zero);
        addTopic(request, "t", id);
        addTopic(request, null, zero);
        addTopic(request, "nope", zero);
        addTopic(request, "nope", zero);
        String both = "t 42 You may not specify both topic name and topic id.";
        String neither = "null 42 Neither topic name nor id were specified.";
        assertThat(deleteResults(exchange(ApiKey.DELETE_TOPICS, (short) 6, request)))
                .containsExactlyInAnyOrder(both, both, neither, neither, "nope 42 Duplicate topic name.");
        assertThat(admin.listTopics().names().get()).contains("t");
    }

    /**
     * An unknown name (v5+, which has the message field) or id carries its error's default message, as Kafka's
     * controller's look-ups answer them; before v5 there is no message to send.
     */
    @Test
    void anUnknownTopicCarriesItsErrorsDefaultMessage() throws Exception {
        for (short version = 1; version <= 5; version++) {
            Struct byName = ApiKey.DELETE_TOPICS.request().newMessage().set("TimeoutMs", 30_000)
                    .set("TopicNames", List.of("nope"));
            assertThat(deleteResults(exchange(ApiKey.DELETE_TOPICS, version, byName))).as("v%d", version)
                    .containsExactly("nope 3 " + (version < 5 ? null : "This server does not host this topic-partition."));
        }
        Struct request = ApiKey.DELETE_TOPICS.request().newMessage().set("TimeoutMs", 30_000);
        addTopic(request, "nope", new UUID(0, 0));
        addTopic(request, null, new UUID(0, 1));
        assertThat(deleteResults(exchange(ApiKey.DELETE_TOPICS, (short) 6, request))).containsExactlyInAnyOrder(
                "nope 3 This server does not host this topic-partition.",
                "null 100 This server does not host this topic ID.");
    }

    /**
     * OffsetFetch answers each asked topic as asked, a partition asked twice twice and a topic asked twice in two
     * entries, in the request's order: Kafka 4.3.1 answered v7's [t: 0, 0], [t: 1] with t [0, 0] then t [1].
     * minibroker had kept the last entry of a topic only.
     */
    @Test
    void offsetFetchAnswersEachAskedTopicAsAsked() throws Exception {
        admin.alterConsumerGroupOffsets("g", Map.of(new TopicPartition("t", 0), new OffsetAndMetadata(1))).all().get();
        Struct request = ApiKey.OFFSET_FETCH.request().newMessage().set("GroupId", "g");
        request.addElement("Topics").set("Name", "t").set("PartitionIndexes", List.of(0, 0));
        request.addElement("Topics").set("Name", "t").set("PartitionIndexes", List.of(1));
        Struct response = exchange(ApiKey.OFFSET_FETCH, (short) 7, request);
        assertThat(response.getStructs("Topics")).map(topic -> topic.getString("Name") + " " + topic
                        .getStructs("Partitions").stream().map(p -> p.getInt32("PartitionIndex") + "@"
                                + p.getInt64("CommittedOffset") + ":" + p.getInt16("ErrorCode")).toList())
                .containsExactly("t [0@1:0, 0@1:0]", "t [1@-1:0]");
    }

    /**
     * ListOffsets answers a partition named twice once, INVALID_REQUEST, and a topic named in two entries in one
     * entry: Kafka 4.3.1 answered [t: 0, 0] with t [0 INVALID_REQUEST], and [t: 0], [t: 1, 0] with one t holding
     * partition 1 answered and partition 0 INVALID_REQUEST once. (Kafka orders the partitions by its map's hashing;
     * minibroker by their first mention.)
     */
    @Test
    void listOffsetsAnswersARepeatedPartitionOnceInOneTopic() throws Exception {
        Struct twice = ApiKey.LIST_OFFSETS.request().newMessage().set("ReplicaId", -1);
        addListOffsetsTopic(twice, "t", 0, 0);
        assertThat(listOffsetsResults(exchange(ApiKey.LIST_OFFSETS, (short) 9, twice))).containsExactly("t [0:42]");
        Struct twoEntries = ApiKey.LIST_OFFSETS.request().newMessage().set("ReplicaId", -1);
        addListOffsetsTopic(twoEntries, "t", 0);
        addListOffsetsTopic(twoEntries, "t", 1, 0);
        assertThat(listOffsetsResults(exchange(ApiKey.LIST_OFFSETS, (short) 9, twoEntries))).singleElement()
                .satisfies(topic -> assertThat(topic).isIn("t [0:42, 1:0]", "t [1:0, 0:42]"));
    }

    private static void addListOffsetsTopic(Struct request, String name, int... partitions) {
        Struct topic = request.addElement("Topics").set("Name", name);
        for (int partition : partitions) {
            topic.addElement("Partitions").set("PartitionIndex", partition).set("CurrentLeaderEpoch", -1)
                    .set("Timestamp", -1L);
        }
    }

    /** Each topic's results as "name [partition:code, ...]". */
    private static List<String> listOffsetsResults(Struct response) {
        return response.getStructs("Topics").stream().map(topic -> topic.getString("Name") + " " + topic
                .getStructs("Partitions").stream().map(p -> p.getInt32("PartitionIndex") + ":" + p.getInt16("ErrorCode"))
                .toList()).toList();
    }

    /**
     * DeleteRecords takes a partition named twice once, at the offset named last, and answers a topic named in two
     * entries in one: Kafka 4.3.1, with three records in t-0, answered [t-0 to 1, t-0 to 2] with one t-0 at low
     * watermark 2, [t-1 to 0], [t-1 to 0, t-0 to 2] with one t holding t-1 and t-0, and [t-0 to 2, t-0 to 9] with one
     * t-0 OFFSET_OUT_OF_RANGE (nothing deleted).
     */
    @Test
    void deleteRecordsTakesARepeatedPartitionOnceAtItsLastOffset() throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT")),
                new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>("t", 0, null, "r" + i));
            }
            producer.flush();
        }
        Struct outOfRange = ApiKey.DELETE_RECORDS.request().newMessage().set("TimeoutMs", 30_000);
        addDeleteRecordsTopic(outOfRange, "t", 0, 2, 0, 9);
        assertThat(deleteRecordsResults(exchange(ApiKey.DELETE_RECORDS, (short) 2, outOfRange)))
                .containsExactly("t [0@-1:1]");
        Struct twice = ApiKey.DELETE_RECORDS.request().newMessage().set("TimeoutMs", 30_000);
        addDeleteRecordsTopic(twice, "t", 0, 1, 0, 2);
        assertThat(deleteRecordsResults(exchange(ApiKey.DELETE_RECORDS, (short) 2, twice)))
                .containsExactly("t [0@2:0]");
        Struct twoEntries = ApiKey.DELETE_RECORDS.request().newMessage().set("TimeoutMs", 30_000);
        addDeleteRecordsTopic(twoEntries, "t", 1, 0);
        addDeleteRecordsTopic(twoEntries, "t", 1, 0, 0, 2);
        assertThat(deleteRecordsResults(exchange(ApiKey.DELETE_RECORDS, (short) 2, twoEntries)))
                .containsExactly("t [1@0:0, 0@2:0]");
    }

    /** A DeleteRecords topic entry with partitions and offsets given as partition, offset, partition, offset... */
    private static void addDeleteRecordsTopic(Struct request, String name, long... partitionsAndOffsets) {
        Struct topic = request.addElement("Topics").set("Name", name);
        for (int i = 0; i < partitionsAndOffsets.length; i += 2) {
            topic.addElement("Partitions").set("PartitionIndex", (int) partitionsAndOffsets[i])
                    .set("Offset", partitionsAndOffsets[i + 1]);
        }
    }

    /** Each topic's results as "name [partition@lowWatermark:code, ...]". */
    private static List<String> deleteRecordsResults(Struct response) {
        return response.getStructs("Topics").stream().map(topic -> topic.getString("Name") + " " + topic
                .getStructs("Partitions").stream().map(p -> p.getInt32("PartitionIndex") + "@" + p.getInt64("LowWatermark")
                        + ":" + p.getInt16("ErrorCode")).toList()).toList();
    }

    /**
     * OffsetDelete answers every partition asked, one asked twice twice, in one entry per topic, the partitions this
     * broker does not know first: Kafka 4.3.1 answered [t: 0, 0], [t: 1, 0], [nope: 0, 0] for a group with commits
     * on t with nope [0 UNKNOWN_TOPIC_OR_PARTITION twice], then t [0, 0, 1, 0], all NONE. (A partition past a known
     * topic's count is the broker's too: Kafka answered [t: 0, 0], [t: 1, 0, 9], [nope: 0, 0] with t [9, 0, 0, 1, 0].)
     */
    @Test
    void offsetDeleteAnswersEveryPartitionAskedUnknownTopicsFirst() throws Exception {
        admin.alterConsumerGroupOffsets("g", Map.of(new TopicPartition("t", 0), new OffsetAndMetadata(1),
                new TopicPartition("t", 1), new OffsetAndMetadata(0))).all().get();
        Struct request = ApiKey.OFFSET_DELETE.request().newMessage().set("GroupId", "g");
        for (Map.Entry<String, List<Integer>> topic : List.of(Map.entry("t", List.of(0, 0)),
                Map.entry("t", List.of(1, 0, 9)), Map.entry("nope", List.of(0, 0)))) {
            Struct asked = request.addElement("Topics").set("Name", topic.getKey());
            topic.getValue().forEach(partition -> asked.addElement("Partitions").set("PartitionIndex", partition));
        }
        Struct response = exchange(ApiKey.OFFSET_DELETE, (short) 0, request);
        assertThat(response.getInt16("ErrorCode")).isZero();
        assertThat(response.getStructs("Topics")).map(topic -> topic.getString("Name") + " " + topic
                        .getStructs("Partitions").stream().map(p -> p.getInt32("PartitionIndex") + ":"
                                + p.getInt16("ErrorCode")).toList())
                .containsExactly("t [9:3, 0:0, 0:0, 1:0, 0:0]", "nope [0:3, 0:3]");
    }

    /**
     * DescribeProducers answers an invalid name and a topic it does not know with a message on each partition, as
     * Kafka's KafkaApis (Topic.validate's words, and the error's default), a partition's own error without one;
     * entries asked twice are answered twice. What Kafka 4.3.1 answered, 2026-11-29.
     */
    @Test
    void describeProducersAnswersUnknownAndInvalidTopicsWithAMessage() throws Exception {
        Struct request = ApiKey.DESCRIBE_PRODUCERS.request().newMessage();
        for (Map.Entry<String, List<Integer>> topic : List.of(Map.entry("", List.of(0)),
                Map.entry("bad name", List.of(0, 1)), Map.entry("nope", List.of(0, 0)), Map.entry("t", List.of(9, -1)),
                Map.entry("t", List.of(1, 1)))) {
            request.addElement("Topics").set("Name", topic.getKey()).set("PartitionIndexes", topic.getValue());
        }
        String badName = "17 Topic name is invalid: 'bad name' contains one or more characters other than ASCII"
                + " alphanumerics, '.', '_' and '-'";
        String unknown = "3 This server does not host this topic-partition.";
        assertThat(exchange(ApiKey.DESCRIBE_PRODUCERS, (short) 0, request).getStructs("Topics")).map(topic ->
                topic.getString("Name") + " " + topic.getStructs("Partitions").stream().map(p -> p.getInt32("PartitionIndex")
                        + " " + p.getInt16("ErrorCode") + " " + p.getString("ErrorMessage")).toList()).containsExactly(
                " [0 17 Topic name is invalid: the empty string is not allowed]",
                "bad name [0 " + badName + ", 1 " + badName + "]",
                "nope [0 " + unknown + ", 0 " + unknown + "]",
                "t [9 3 null, -1 3 null]",
                "t [1 0 null, 1 0 null]");
    }

    /** ListTransactions lists an unknown state filter named twice once, as Kafka 4.3.1 did ([Nope]). */
    @Test
    void listTransactionsListsAnUnknownStateFilterOnce() throws Exception {
        Struct request = ApiKey.LIST_TRANSACTIONS.request().newMessage()
                .set("StateFilters", List.of("Nope", "Nope", "Ongoing", "Ongoing"));
        assertThat(exchange(ApiKey.LIST_TRANSACTIONS, (short) 1, request).<String>getList("UnknownStateFilters"))
                .containsExactly("Nope");
    }
}
