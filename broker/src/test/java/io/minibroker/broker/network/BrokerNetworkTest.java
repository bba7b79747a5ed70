package io.minibroker.broker.network;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Response;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The broker's network edge, driven byte by byte from a raw socket. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BrokerNetworkTest {

    private static final short API_VERSIONS_V3 = 3;

    private Broker broker;
    private int port;

    @TempDir
    Path logDir;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of(
                "socket.request.max.bytes", "1024",
                "cluster.id", "test-cluster",
                "node.id", "3"));
        port = broker.boundPort("PLAINTEXT");
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    private static byte[] apiVersions(int correlationId) {
        return RawClient.apiVersions(API_VERSIONS_V3, correlationId);
    }

    private static byte[] metadata(int correlationId) {
        return RawClient.request(ApiKey.METADATA, (short) 12, correlationId,
                ApiKey.METADATA.request().newMessage().set("Topics", null));
    }

    @Test
    void apiVersionsAdvertisesExactlyWhatIsImplemented() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(apiVersions(7));
            Response response = client.receive(ApiKey.API_VERSIONS, API_VERSIONS_V3);

            ApiVersionsResponseView view = new ApiVersionsResponseView(response.body());
            assertThat(response.correlationId()).isEqualTo(7);
            assertThat(view.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(view.apiKeys()).extracting(ApiVersionsResponseView.ApiVersion::apiKey)
                    .containsExactlyInAnyOrder(ApiKey.API_VERSIONS.id(), ApiKey.METADATA.id(),
                            ApiKey.DESCRIBE_CLUSTER.id(), ApiKey.CREATE_TOPICS.id(), ApiKey.DELETE_TOPICS.id(),
                            ApiKey.PRODUCE.id(), ApiKey.FETCH.id(), ApiKey.LIST_OFFSETS.id(),
                            ApiKey.INIT_PRODUCER_ID.id(), ApiKey.CREATE_PARTITIONS.id(), ApiKey.DELETE_RECORDS.id(),
                            ApiKey.DESCRIBE_CONFIGS.id(), ApiKey.ALTER_CONFIGS.id(), ApiKey.INCREMENTAL_ALTER_CONFIGS.id(),
                            ApiKey.OFFSET_FOR_LEADER_EPOCH.id(), ApiKey.FIND_COORDINATOR.id(), ApiKey.JOIN_GROUP.id(),
                            ApiKey.SYNC_GROUP.id(), ApiKey.HEARTBEAT.id(), ApiKey.LEAVE_GROUP.id(),
                            ApiKey.OFFSET_COMMIT.id(), ApiKey.OFFSET_FETCH.id(), ApiKey.LIST_GROUPS.id(),
                            ApiKey.DESCRIBE_GROUPS.id(), ApiKey.DELETE_GROUPS.id(), ApiKey.OFFSET_DELETE.id(),
                            ApiKey.TXN_OFFSET_COMMIT.id(),
                            ApiKey.ELECT_LEADERS.id(), ApiKey.ALTER_PARTITION_REASSIGNMENTS.id(),
                            ApiKey.LIST_PARTITION_REASSIGNMENTS.id(), ApiKey.SASL_HANDSHAKE.id(), ApiKey.SASL_AUTHENTICATE.id(),
                            ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS.id(), ApiKey.ALTER_USER_SCRAM_CREDENTIALS.id(),
                            ApiKey.DESCRIBE_CLIENT_QUOTAS.id(), ApiKey.ALTER_CLIENT_QUOTAS.id(),
                            ApiKey.DESCRIBE_LOG_DIRS.id(), ApiKey.ALTER_REPLICA_LOG_DIRS.id(), ApiKey.DESCRIBE_ACLS.id(), ApiKey.CREATE_ACLS.id(),
                            ApiKey.DELETE_ACLS.id(), ApiKey.DESCRIBE_PRODUCERS.id(), ApiKey.LIST_TRANSACTIONS.id(),
                            ApiKey.DESCRIBE_TRANSACTIONS.id(), ApiKey.CONSUMER_GROUP_HEARTBEAT.id(),
                            ApiKey.CONSUMER_GROUP_DESCRIBE.id(), ApiKey.STREAMS_GROUP_HEARTBEAT.id(),
                            ApiKey.STREAMS_GROUP_DESCRIBE.id(), ApiKey.ADD_PARTITIONS_TO_TXN.id(),
                            ApiKey.ADD_OFFSETS_TO_TXN.id(), ApiKey.END_TXN.id(), ApiKey.WRITE_TXN_MARKERS.id(),
                            ApiKey.SHARE_GROUP_HEARTBEAT.id(), ApiKey.SHARE_GROUP_DESCRIBE.id(),
                            ApiKey.SHARE_FETCH.id(), ApiKey.SHARE_ACKNOWLEDGE.id(),
                            ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS.id(), ApiKey.ALTER_SHARE_GROUP_OFFSETS.id(),
                            ApiKey.DELETE_SHARE_GROUP_OFFSETS.id(), ApiKey.READ_SHARE_GROUP_STATE.id(),
                            ApiKey.WRITE_SHARE_GROUP_STATE.id(), ApiKey.DELETE_SHARE_GROUP_STATE.id(),
                            ApiKey.INITIALIZE_SHARE_GROUP_STATE.id(), ApiKey.READ_SHARE_GROUP_STATE_SUMMARY.id(),
                            ApiKey.DESCRIBE_QUORUM.id(), ApiKey.ADD_RAFT_VOTER.id(), ApiKey.REMOVE_RAFT_VOTER.id(),
                            ApiKey.UPDATE_FEATURES.id(),
                            ApiKey.DESCRIBE_TOPIC_PARTITIONS.id(), ApiKey.LIST_CONFIG_RESOURCES.id(),
                            ApiKey.UNREGISTER_BROKER.id(), ApiKey.CREATE_DELEGATION_TOKEN.id(),
                            ApiKey.RENEW_DELEGATION_TOKEN.id(), ApiKey.EXPIRE_DELEGATION_TOKEN.id(),
                            ApiKey.DESCRIBE_DELEGATION_TOKEN.id());
            assertThat(view.apiKeys()).filteredOn(v -> v.apiKey() == ApiKey.PRODUCE.id()).singleElement()
                    .satisfies(produce -> assertThat(produce.minVersion()).as("KAFKA-18659").isZero());
            // As a Kafka 4.3.1 node advertises them (kafka-broker-api-versions against one).
            assertThat(view.apiKeys()).filteredOn(v -> v.apiKey() == ApiKey.DESCRIBE_QUORUM.id()
                            || v.apiKey() == ApiKey.ADD_RAFT_VOTER.id() || v.apiKey() == ApiKey.REMOVE_RAFT_VOTER.id()
                            || v.apiKey() == ApiKey.UPDATE_FEATURES.id()
                            || v.apiKey() == ApiKey.DESCRIBE_TOPIC_PARTITIONS.id()
                            || v.apiKey() == ApiKey.DESCRIBE_CLUSTER.id()
                            || v.apiKey() == ApiKey.LIST_CONFIG_RESOURCES.id()
                            || v.apiKey() == ApiKey.ALTER_REPLICA_LOG_DIRS.id()
                            || v.apiKey() == ApiKey.UNREGISTER_BROKER.id()
                            || (v.apiKey() >= ApiKey.CREATE_DELEGATION_TOKEN.id()
                                && v.apiKey() <= ApiKey.DESCRIBE_DELEGATION_TOKEN.id()))
                    .extracting(v -> v.apiKey() + ":" + v.minVersion() + "-" + v.maxVersion())
                    .containsExactlyInAnyOrder("34:1-2", "55:0-2", "57:0-2", "60:0-2", "64:0-0", "74:0-1", "75:0-0",
                            "38:1-3", "39:1-2", "40:1-2", "41:1-3", "80:0-1", "81:0-0");
        }
    }

    /** As Kafka's ApiVersionsRequest.getErrorResponse (KIP-511): the ApiVersions range only, to retry within. */
    @Test
    void aTooNewApiVersionsRequestGetsTheV0AnswerWithTheApiVersionsRange() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(RawClient.withVersion(apiVersions(9), (short) 99));
            Response response = client.receive(ApiKey.API_VERSIONS, (short) 0);

            ApiVersionsResponseView view = new ApiVersionsResponseView(response.body());
            assertThat(response.correlationId()).isEqualTo(9);
            assertThat(view.errorCode()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            assertThat(view.apiKeys()).singleElement().satisfies(range -> {
                assertThat(range.apiKey()).isEqualTo(ApiKey.API_VERSIONS.id());
                assertThat(range.minVersion()).isZero();
                assertThat(range.maxVersion()).isEqualTo(ApiKey.API_VERSIONS.highestStableVersion());
            });
        }
    }

    /** Kafka's RequestContext takes any version it does not support, a negative one too, for the v0 fallback. */
    @Test
    void aNegativeApiVersionsRequestGetsTheV0FallbackToo() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(RawClient.withVersion(apiVersions(11), (short) -1));
            Response response = client.receive(ApiKey.API_VERSIONS, (short) 0);

            assertThat(response.correlationId()).isEqualTo(11);
            assertThat(new ApiVersionsResponseView(response.body()).errorCode())
                    .isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            assertThat(client.askApiVersions((short) 3, 12).errorCode()).isEqualTo(Errors.NONE.code());
        }
    }

    /** From v3 Kafka refuses a client software name or version outside KIP-511's form, advertising nothing. */
    @Test
    void apiVersionsWithAMalformedSoftwareNameIsAnInvalidRequest() throws Exception {
        for (String[] software : new String[][] {{"my client", "1"}, {"", "1"}, {"-x", "1"}, {"a_b", "1"},
                {"kcat", "1.7 beta"}}) {
            Struct body = RawClient.apiVersionsBody().clientSoftwareName(software[0])
                    .clientSoftwareVersion(software[1]).struct();
            try (RawClient client = new RawClient(port)) {
                client.send(RawClient.request(ApiKey.API_VERSIONS, (short) 3, 1, body));
                ApiVersionsResponseView view = new ApiVersionsResponseView(
                        client.receive(ApiKey.API_VERSIONS, (short) 3).body());
                assertThat(view.errorCode()).as(String.join("/", software)).isEqualTo(Errors.INVALID_REQUEST.code());
                assertThat(view.apiKeys()).isEmpty();
            }
        }
        Struct valid = RawClient.apiVersionsBody().clientSoftwareName("confluent-kafka-python")
                .clientSoftwareVersion("2.16.1-rdkafka-2.12.0").struct();
        try (RawClient client = new RawClient(port)) {
            client.send(RawClient.request(ApiKey.API_VERSIONS, (short) 3, 1, valid));
            assertThat(new ApiVersionsResponseView(client.receive(ApiKey.API_VERSIONS, (short) 3).body())
                    .errorCode()).isEqualTo(Errors.NONE.code());
        }
    }

    @Test
    void apiVersionsV5NamingAnotherClusterGetsRebootstrapRequired() throws Exception {
        Struct body = RawClient.apiVersionsBody().clusterId("another-cluster").nodeId(3).struct();
        try (RawClient client = new RawClient(port)) {
            client.send(RawClient.request(ApiKey.API_VERSIONS, (short) 5, 1, body));
            Response response = client.receive(ApiKey.API_VERSIONS, (short) 5);

            assertThat(new ApiVersionsResponseView(response.body()).errorCode())
                    .isEqualTo(Errors.REBOOTSTRAP_REQUIRED.code());
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        ByteArrayOutputStream burst = new ByteArrayOutputStream();
        for (int i = 0; i < 20; i++) {
            burst.write(i % 2 == 0 ? apiVersions(i) : metadata(i));
        }
        try (RawClient client = new RawClient(port)) {
            client.send(burst.toByteArray());
            for (int i = 0; i < 20; i++) {
                Response response = i % 2 == 0
                        ? client.receive(ApiKey.API_VERSIONS, API_VERSIONS_V3)
                        : client.receive(ApiKey.METADATA, (short) 12);
                assertThat(response.correlationId()).isEqualTo(i);
            }
        }
    }

    /**
     * Requests read together are answered together: their responses are flushed once, at the end of the read, so
     * they leave in one write call and the client's first read finds all of them (flushed one by one, it would
     * wake to the first).
     */
    @Test
    void metadataNamesThisBrokerAtItsRealPortAsController() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(metadata(1));
            Struct body = client.receive(ApiKey.METADATA, (short) 12).body();

            assertThat(body.getString("ClusterId")).isEqualTo("test-cluster");
            assertThat(body.getInt32("ControllerId")).isEqualTo(3);
            Struct only = body.getStructs("Brokers").get(0);
            assertThat(only.getInt32("NodeId")).isEqualTo(3);
            assertThat(only.getString("Host")).isEqualTo("localhost");
            assertThat(only.getInt32("Port")).isEqualTo(port);
        }
    }

    private static byte[] metadataFor(int correlationId, String topic, boolean allowAutoCreation) {
        Struct body = ApiKey.METADATA.request().newMessage().set("AllowAutoTopicCreation", allowAutoCreation);
        body.addElement("Topics").set("Name", topic);
        return RawClient.request(ApiKey.METADATA, (short) 12, correlationId, body);
    }

    @Test
    void metadataCreatesAnUnknownTopicWhenAllowedAndFindsItByIdAfterwards() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(metadataFor(1, "not-yet", false));
            Struct refused = client.receive(ApiKey.METADATA, (short) 12).body().getStructs("Topics").get(0);
            client.send(metadataFor(2, "auto-made", true));
            Struct creating = client.receive(ApiKey.METADATA, (short) 12).body().getStructs("Topics").get(0);
            client.send(metadataFor(4, "auto-made", false)); // the client's next ask, as after Kafka's answer
            Struct created = client.receive(ApiKey.METADATA, (short) 12).body().getStructs("Topics").get(0);

            assertThat(refused.getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(creating.getInt16("ErrorCode")).as("Kafka's answer while it creates the topic")
                    .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(creating.getStructs("Partitions")).isEmpty();
            assertThat(created.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(created.getStructs("Partitions")).singleElement()
                    .satisfies(p -> assertThat(p.getInt32("LeaderId")).isEqualTo(3));

            Struct byId = ApiKey.METADATA.request().newMessage();
            byId.addElement("Topics").set("Name", null).set("TopicId", created.getUuid("TopicId"));
            client.send(RawClient.request(ApiKey.METADATA, (short) 12, 3, byId));
            Struct found = client.receive(ApiKey.METADATA, (short) 12).body().getStructs("Topics").get(0);
            assertThat(found.getString("Name")).isEqualTo("auto-made");
        }
    }

    @Test
    void autoCreationOffLeavesUnknownTopicsUnknown(@TempDir Path otherDir) throws Exception {
        try (Broker strict = TestBrokers.start(otherDir, Map.of("auto.create.topics.enable", "false"));
             RawClient client = new RawClient(strict.boundPort("PLAINTEXT"))) {
            client.send(metadataFor(1, "wanted", true));
            Struct topic = client.receive(ApiKey.METADATA, (short) 12).body().getStructs("Topics").get(0);

            assertThat(topic.getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
    }

    private static Struct produceBody(String topic, short acks) {
        return produceBody(topic, acks, 5000);
    }

    private static Struct produceBody(String topic, short acks, int timeoutMs) {
        Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", acks).set("TimeoutMs", timeoutMs);
        ByteBuf built = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, 1L)
                .append(1L, null, "v".getBytes(java.nio.charset.StandardCharsets.UTF_8), List.of()).build();
        ByteBuf batch = Unpooled.wrappedBuffer(ByteBufUtil.getBytes(built)); // the body outlives no buffer
        built.release();
        body.addElement("TopicData").set("Name", topic).addElement("PartitionData").set("Index", 0).set("Records", batch);
        return body;
    }

    @Test
    void aFailedAcksZeroProduceClosesTheConnectionAsKafkaDoes() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(RawClient.request(ApiKey.PRODUCE, (short) 9, 1, produceBody("no-such-topic", (short) 0)));
            assertThat(client.closedByBroker()).isTrue();
        }
    }

    /**
     * min.insync.replicas counts up to the replicas there are (Kafka's effectiveMinIsr, KAFKA-15583): a topic of one
     * replica asking for two takes acks=all produces.
     */
    @Test
    void acksAllToATopicOfOneReplicaAskingForTwoInSyncIsAppended() throws Exception {
        try (RawClient client = new RawClient(port)) {
            Struct create = ApiKey.CREATE_TOPICS.request().newMessage().set("timeoutMs", 5000);
            Struct topic = create.addElement("Topics").set("Name", "strict").set("NumPartitions", 1)
                    .set("ReplicationFactor", (short) 1);
            topic.addElement("Configs").set("Name", "min.insync.replicas").set("Value", "2");
            client.send(RawClient.request(ApiKey.CREATE_TOPICS, (short) 7, 1, create));
            client.receive(ApiKey.CREATE_TOPICS, (short) 7);

            client.send(RawClient.request(ApiKey.PRODUCE, (short) 9, 2, produceBody("strict", (short) -1)));
            Struct partition = client.receive(ApiKey.PRODUCE, (short) 9).body().getStructs("Responses").get(0)
                    .getStructs("PartitionResponses").get(0);

            assertThat(partition.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(partition.getInt64("BaseOffset")).isZero();
        }
    }

    /** Kafka takes a negative timeout as one already run out; it must not fail the request or the connection. */
    @Test
    void anAcksAllProduceWithANegativeTimeoutIsAnsweredAndKeepsTheConnection() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(metadataFor(1, "negative-timeout", true));
            client.receive(ApiKey.METADATA, (short) 12);

            client.send(RawClient.request(ApiKey.PRODUCE, (short) 9, 2,
                    produceBody("negative-timeout", (short) -1, -1)));
            Struct partition = client.receive(ApiKey.PRODUCE, (short) 9).body().getStructs("Responses").get(0)
                    .getStructs("PartitionResponses").get(0);

            assertThat(partition.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            client.send(apiVersions(3));
            assertThat(client.receive(ApiKey.API_VERSIONS, API_VERSIONS_V3).body().getInt16("ErrorCode"))
                    .as("the connection is still open").isEqualTo(Errors.NONE.code());
        }
    }

    /** A Fetch of partition 0 from {@code offset} that waits up to 60 s for one byte. */
    private static Struct fetchBody(String topic, long offset) {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("ReplicaId", -1).set("MaxWaitMs", 60_000)
                .set("MinBytes", 1).set("MaxBytes", 1 << 20).set("SessionEpoch", -1);
        fetch.addElement("Topics").set("Topic", topic).addElement("Partitions").set("Partition", 0)
                .set("FetchOffset", offset).set("PartitionMaxBytes", 1 << 20);
        return fetch;
    }

    @Test
    void aFetchPastTheLogEndIsAnsweredAtOnceNotParked() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(metadataFor(1, "empty", true));
            client.receive(ApiKey.METADATA, (short) 12);
            client.send(RawClient.request(ApiKey.FETCH, (short) 12, 2, fetchBody("empty", 1_000L)));

            // Parked, it would wait 60 s and the client's 10 s read timeout would fail this test.
            Struct partition = client.receive(ApiKey.FETCH, (short) 12).body().getStructs("Responses").get(0)
                    .getStructs("Partitions").get(0);
            assertThat(partition.getInt16("ErrorCode")).isEqualTo(Errors.OFFSET_OUT_OF_RANGE.code());
        }
    }

    /**
     * As Kafka's socket server, which mutes a channel until its response is sent: a request pipelined behind a
     * parked one is served after that one's answer, so it sees what happened meanwhile (here the append that woke
     * the fetch; served at once, ListOffsets would have answered 0).
     */
    @Test
    void aRequestPipelinedBehindAParkedOneIsServedOnceThatOneIsAnswered() throws Exception {
        try (RawClient client = new RawClient(port); RawClient producer = new RawClient(port)) {
            client.send(metadataFor(1, "one-at-a-time", true));
            client.receive(ApiKey.METADATA, (short) 12);
            Struct listOffsets = ApiKey.LIST_OFFSETS.request().newMessage().set("ReplicaId", -1);
            listOffsets.addElement("Topics").set("Name", "one-at-a-time").addElement("Partitions")
                    .set("PartitionIndex", 0).set("Timestamp", -1L);
            ByteArrayOutputStream burst = new ByteArrayOutputStream();
            burst.write(RawClient.request(ApiKey.FETCH, (short) 12, 2, fetchBody("one-at-a-time", 0L)));
            burst.write(RawClient.request(ApiKey.LIST_OFFSETS, (short) 7, 3, listOffsets));
            client.send(burst.toByteArray());
            // Served at once, ListOffsets would be counted; waiting, it is counted as waiting.
            await(() -> meter("purgatory.delayed.operations", "delayedOperation", "Fetch") == 1
                    && meter("kafka.network.requestmetrics.requests", "request", "ListOffsets")
                    + meter("minibroker.network.requests.waiting", "listener", "PLAINTEXT") == 1,
                    "the fetch parked and the ListOffsets read");
            assertThat(meter("kafka.network.requestmetrics.requests", "request", "ListOffsets"))
                    .as("read with the fetch, not served yet").isZero();

            producer.send(RawClient.request(ApiKey.PRODUCE, (short) 9, 4, produceBody("one-at-a-time", (short) 1)));
            producer.receive(ApiKey.PRODUCE, (short) 9);

            assertThat(client.receive(ApiKey.FETCH, (short) 12).correlationId()).isEqualTo(2);
            Struct latest = client.receive(ApiKey.LIST_OFFSETS, (short) 7).body().getStructs("Topics").get(0)
                    .getStructs("Partitions").get(0);
            assertThat(latest.getInt64("Offset")).as("read after the append that woke the fetch").isEqualTo(1L);
        }
    }

    /** A counter's count or a gauge's value; 0 where the broker has no such meter. */
    private double meter(String name, String tag, String value) {
        io.micrometer.core.instrument.Meter meter = broker.meterRegistry().find(name).tag(tag, value).meter();
        return meter == null ? 0 : meter.measure().iterator().next().getValue();
    }

    @Test
    void aTopicNamedTwiceInOneCreateTopicsIsCreatedNeverAndRefusedOnce() throws Exception {
        try (RawClient client = new RawClient(port)) {
            Struct create = ApiKey.CREATE_TOPICS.request().newMessage().set("timeoutMs", 5000);
            for (int i = 0; i < 2; i++) {
                create.addElement("Topics").set("Name", "twice").set("NumPartitions", 1).set("ReplicationFactor", (short) 1);
            }
            client.send(RawClient.request(ApiKey.CREATE_TOPICS, (short) 7, 1, create));
            List<Struct> results = client.receive(ApiKey.CREATE_TOPICS, (short) 7).body().getStructs("Topics");

            // As Kafka's ControllerApis.createTopics: one result for the name, not one per copy.
            assertThat(results).singleElement().satisfies(r ->
                    assertThat(r.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_REQUEST.code()));
            client.send(metadataFor(2, "twice", false));
            assertThat(client.receive(ApiKey.METADATA, (short) 12).body().getStructs("Topics").get(0)
                    .getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
    }

    @Test
    void metadataV0WithAnEmptyTopicListMeansAllTopics() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(metadataFor(1, "listed", true));
            client.receive(ApiKey.METADATA, (short) 12);

            client.send(RawClient.request(ApiKey.METADATA, (short) 0, 2, ApiKey.METADATA.request().newMessage()));
            List<Struct> topics = client.receive(ApiKey.METADATA, (short) 0).body().getStructs("Topics");

            assertThat(topics).extracting(t -> t.getString("Name")).containsExactly("listed");
        }
    }

    @Test
    void offsetForLeaderEpochEndsEpochZeroAtTheLogEnd() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(RawClient.request(ApiKey.PRODUCE, (short) 9, 1, produceBody("epochs", (short) 1)));
            client.receive(ApiKey.PRODUCE, (short) 9); // unknown topic: created by the Metadata below, so resend
            client.send(metadataFor(2, "epochs", true));
            client.receive(ApiKey.METADATA, (short) 12);
            client.send(RawClient.request(ApiKey.PRODUCE, (short) 9, 3, produceBody("epochs", (short) 1)));
            client.receive(ApiKey.PRODUCE, (short) 9);

            Struct request = ApiKey.OFFSET_FOR_LEADER_EPOCH.request().newMessage().set("ReplicaId", -1);
            Struct partitions = request.addElement("Topics").set("Topic", "epochs");
            partitions.addElement("Partitions").set("Partition", 0).set("CurrentLeaderEpoch", 0).set("LeaderEpoch", 0);
            partitions.addElement("Partitions").set("Partition", 0).set("CurrentLeaderEpoch", 0).set("LeaderEpoch", 3);
            partitions.addElement("Partitions").set("Partition", 0).set("CurrentLeaderEpoch", 7).set("LeaderEpoch", 0);
            client.send(RawClient.request(ApiKey.OFFSET_FOR_LEADER_EPOCH, (short) 4, 4, request));
            List<Struct> results = client.receive(ApiKey.OFFSET_FOR_LEADER_EPOCH, (short) 4).body()
                    .getStructs("Topics").get(0).getStructs("Partitions");

            assertThat(results.get(0).getInt64("EndOffset")).isEqualTo(1);
            assertThat(results.get(0).getInt32("LeaderEpoch")).isZero();
            assertThat(results.get(1).getInt64("EndOffset")).as("an epoch never seen").isEqualTo(-1);
            assertThat(results.get(2).getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_LEADER_EPOCH.code());
        }
    }

    @Test
    void describeClusterServesBrokerEndpointsAndRefusesControllerEndpoints() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(RawClient.request(ApiKey.DESCRIBE_CLUSTER, (short) 1, 1,
                    ApiKey.DESCRIBE_CLUSTER.request().newMessage().set("EndpointType", (byte) 1)));
            Struct brokers = client.receive(ApiKey.DESCRIBE_CLUSTER, (short) 1).body();
            client.send(RawClient.request(ApiKey.DESCRIBE_CLUSTER, (short) 1, 2,
                    ApiKey.DESCRIBE_CLUSTER.request().newMessage().set("EndpointType", (byte) 2)));
            Struct controllers = client.receive(ApiKey.DESCRIBE_CLUSTER, (short) 1).body();

            assertThat(brokers.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(brokers.getStructs("Brokers")).singleElement()
                    .satisfies(b -> assertThat(b.getInt32("Port")).isEqualTo(port));
            assertThat(controllers.getInt16("ErrorCode")).isEqualTo(Errors.MISMATCHED_ENDPOINT_TYPE.code());
        }
    }

    /** Kafka's AuthHelper.computeDescribeClusterResponse: a type it does not know is its own error, with its text. */
    @Test
    void describeClusterRefusesAnUnknownEndpointTypeAsKafka() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(RawClient.request(ApiKey.DESCRIBE_CLUSTER, (short) 1, 1,
                    ApiKey.DESCRIBE_CLUSTER.request().newMessage().set("EndpointType", (byte) 7)));
            Struct answer = client.receive(ApiKey.DESCRIBE_CLUSTER, (short) 1).body();

            assertThat(answer.getInt16("ErrorCode")).isEqualTo(Errors.UNSUPPORTED_ENDPOINT_TYPE.code());
            assertThat(answer.getString("ErrorMessage")).isEqualTo("Unsupported endpoint type 7");
            assertThat(answer.getInt32("ControllerId")).as("left at its default").isEqualTo(-1);
        }
    }

    @Test
    void anOversizedFrameClosesThatConnectionOnlyAndBeforeItsBodyArrives() throws Exception {
        try (RawClient bad = new RawClient(port); RawClient good = new RawClient(port)) {
            bad.send(ByteBuffer.allocate(4).putInt(1025).array()); // just over socket.request.max.bytes
            assertThat(bad.closedByBroker()).isTrue();

            good.send(apiVersions(1));
            assertThat(good.receive(ApiKey.API_VERSIONS, API_VERSIONS_V3).correlationId()).isEqualTo(1);
        }
    }

    @Test
    void aNegativeSizeClosesTheConnection() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(ByteBuffer.allocate(4).putInt(-5).array());
            assertThat(client.closedByBroker()).isTrue();
        }
    }

    @Test
    void aGarbageBodyClosesTheConnection() throws Exception {
        try (RawClient client = new RawClient(port)) {
            byte[] request = metadata(1);
            for (int i = 4 + 8; i < request.length; i++) {
                request[i] = (byte) 0xFF; // header keeps its api key and version; the body is nonsense
            }
            client.send(request);
            assertThat(client.closedByBroker()).isTrue();
        }
    }

    @Test
    void anApiThatIsNotAdvertisedClosesTheConnection() throws Exception {
        try (RawClient client = new RawClient(port)) {
            // AlterPartition is served on a controller's listener only.
            client.send(RawClient.request(ApiKey.ALTER_PARTITION, (short) 3, 1,
                    ApiKey.ALTER_PARTITION.request().newMessage()));
            assertThat(client.closedByBroker()).isTrue();
        }
    }

    /**
     * InitProducerId v6 (KIP-939's Enable2Pc and KeepPreparedTxn) is unstable in Kafka 4.3.1 and 4.4.0: a 4.3.1 broker
     * advertises 0-5 and closes the connection of a v6 request (with {@code unstable.api.versions.enable} it would
     * answer Enable2Pc TRANSACTIONAL_ID_AUTHORIZATION_FAILED while {@code transaction.two.phase.commit.enable} is
     * false, KeepPreparedTxn UNSUPPORTED_VERSION). So does this broker, which has no unstable versions.
     */
    @Test
    void initProducerIdV6IsNeitherAdvertisedNorAcceptedAsByKafka431() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(apiVersions(1));
            ApiVersionsResponseView view = new ApiVersionsResponseView(
                    client.receive(ApiKey.API_VERSIONS, API_VERSIONS_V3).body());
            assertThat(view.apiKeys()).filteredOn(v -> v.apiKey() == ApiKey.INIT_PRODUCER_ID.id()).singleElement()
                    .satisfies(init -> assertThat(init.maxVersion()).isEqualTo((short) 5));
            client.send(RawClient.request(ApiKey.INIT_PRODUCER_ID, (short) 6, 2, ApiKey.INIT_PRODUCER_ID.request()
                    .newMessage().set("TransactionalId", "two-phase").set("TransactionTimeoutMs", 60_000)
                    .set("Enable2Pc", true)));
            assertThat(client.closedByBroker()).isTrue();
        }
    }

    @Test
    void produceVersionsBelowThreeAreAdvertisedButRefused() throws Exception {
        try (RawClient client = new RawClient(port)) {
            byte[] produceV3 = RawClient.request(ApiKey.PRODUCE, (short) 3, 1, ApiKey.PRODUCE.request().newMessage()
                    .set("Acks", (short) 1).set("TimeoutMs", 1000));
            client.send(RawClient.withVersion(produceV3, (short) 2));
            assertThat(client.closedByBroker()).isTrue();
        }
    }

    @Test
    void anUnknownApiKeyClosesTheConnection() throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(withApiKey(apiVersions(1), (short) 999));
            assertThat(client.closedByBroker()).isTrue();
        }
    }

    @Test
    void anIdleConnectionIsClosedAfterConnectionsMaxIdleMs(@TempDir Path otherDir) throws Exception {
        // A broker of its own: with 300 ms as every test's idle limit, a loaded machine closed other tests'
        // connections between their requests.
        try (Broker impatient = TestBrokers.start(otherDir, Map.of("connections.max.idle.ms", "300"));
             RawClient client = new RawClient(impatient.boundPort("PLAINTEXT"))) {
            client.send(apiVersions(1));
            client.receive(ApiKey.API_VERSIONS, API_VERSIONS_V3);

            assertThat(client.closedByBroker()).as("closed within the 10 s read timeout, idle limit 300 ms").isTrue();
        }
    }

    private static byte[] withApiKey(byte[] request, short apiKey) {
        ByteBuffer.wrap(request).putShort(4, apiKey);
        return request;
    }
}
