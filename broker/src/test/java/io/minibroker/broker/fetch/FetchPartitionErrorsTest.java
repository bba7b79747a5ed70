package io.minibroker.broker.fetch;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fetch's partition errors as Kafka answers them: the leader epoch a fetcher names, a fetch offset out of range,
 * and a topic the broker does not know beside one it has.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FetchPartitionErrorsTest {

    private static final short FETCH_V12 = 12;
    private static final String TOPIC = "fetched";

    private Broker broker;
    private int port;

    @TempDir
    Path logDir;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        port = broker.boundPort("PLAINTEXT");
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        }
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    private double parkedFetches() {
        return broker.meterRegistry().get("purgatory.delayed.operations").tag("delayedOperation", "Fetch").gauge()
                .value();
    }

    /** A consumer's fetch of partition 0 of each topic from offset {@code fetchOffset}. */
    private static Struct fetch(int maxWaitMs, int currentLeaderEpoch, long fetchOffset, String... topics) {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("ReplicaId", -1).set("MaxWaitMs", maxWaitMs)
                .set("MinBytes", 1).set("MaxBytes", 1 << 20).set("SessionId", 0).set("SessionEpoch", -1);
        for (String topic : topics) {
            fetch.addElement("Topics").set("Topic", topic).addElement("Partitions").set("Partition", 0)
                    .set("CurrentLeaderEpoch", currentLeaderEpoch).set("FetchOffset", fetchOffset)
                    .set("PartitionMaxBytes", 1 << 20);
        }
        return fetch;
    }

    private Struct send(Struct fetch) throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(RawClient.request(ApiKey.FETCH, FETCH_V12, 1, fetch));
            return client.receive(ApiKey.FETCH, FETCH_V12).body();
        }
    }

    private static Struct partition(Struct response, int topic) {
        return response.getStructs("Responses").get(topic).getStructs("Partitions").get(0);
    }

    /** Kafka's localLogWithEpochOrThrow: a newer epoch than the leader's is UNKNOWN_LEADER_EPOCH (a single node's is 0). */
    @Test
    void aNewerCurrentLeaderEpochIsUnknownAndTheLeadersOwnIsServed() throws Exception {
        assertThat(partition(send(fetch(0, 1, 0, TOPIC)), 0).getInt16("ErrorCode"))
                .isEqualTo(Errors.UNKNOWN_LEADER_EPOCH.code());
        assertThat(partition(send(fetch(0, 0, 0, TOPIC)), 0).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(partition(send(fetch(0, -1, 0, TOPIC)), 0).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
    }

    /**
     * Kafka's followerReplicaOrThrow: a single node has no followers, so a follower's fetch is refused at once, not
     * parked for its wait: UNKNOWN_LEADER_EPOCH when it names the leader's epoch, NOT_LEADER_OR_FOLLOWER when not.
     */
    @Test
    void aFollowersFetchFromABrokerThatIsNoReplicaIsRefusedAtOnce() throws Exception {
        assertThat(partition(send(fetch(30_000, 0, 0, TOPIC).set("ReplicaId", 2)), 0).getInt16("ErrorCode"))
                .isEqualTo(Errors.UNKNOWN_LEADER_EPOCH.code());
        assertThat(partition(send(fetch(30_000, -1, 0, TOPIC).set("ReplicaId", 2)), 0).getInt16("ErrorCode"))
                .isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER.code());
    }

    /** Kafka's createLogReadResult for a failed read: the partition's offsets are unknown, -1. */
    @Test
    void anOffsetOutOfRangeIsAnsweredWithUnknownOffsets() throws Exception {
        Struct partition = partition(send(fetch(0, -1, 5, TOPIC)), 0);

        assertThat(partition.getInt16("ErrorCode")).isEqualTo(Errors.OFFSET_OUT_OF_RANGE.code());
        assertThat(partition.getInt64("HighWatermark")).isEqualTo(-1);
        assertThat(partition.getInt64("LastStableOffset")).isEqualTo(-1);
        assertThat(partition.getInt64("LogStartOffset")).isEqualTo(-1);
    }

    /** As Kafka's maybeConvertFetchedData: before Fetch v10 (KIP-110) a topic kept in zstd cannot be read. */
    @Test
    void aFetchOlderThanV10OfAZstdTopicIsUnsupportedCompressionType() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("zstd", 1, (short) 1)
                    .configs(Map.of("compression.type", "zstd")))).all().get();
        }
        try (RawClient client = new RawClient(port)) {
            for (short version : new short[] {9, 10}) {
                client.send(RawClient.request(ApiKey.FETCH, version, version, fetch(0, -1, 0, "zstd")));
                Struct partition = partition(client.receive(ApiKey.FETCH, version).body(), 0);
                assertThat(partition.getInt16("ErrorCode")).as("v" + version).isEqualTo(version < 10
                        ? Errors.UNSUPPORTED_COMPRESSION_TYPE.code() : Errors.NONE.code());
            }
        }
    }

    /** KAFKA_STORAGE_ERROR came with Fetch v6: Kafka tells older fetchers NOT_LEADER_OR_FOLLOWER, so they retry. */
    @Test
    void aStorageErrorIsNotLeaderOrFollowerBeforeV6() {
        assertThat(FetchReader.storageErrorFor((short) 5, Errors.KAFKA_STORAGE_ERROR))
                .isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
        assertThat(FetchReader.storageErrorFor((short) 6, Errors.KAFKA_STORAGE_ERROR))
                .isEqualTo(Errors.KAFKA_STORAGE_ERROR);
        assertThat(FetchReader.storageErrorFor((short) 4, Errors.OFFSET_OUT_OF_RANGE))
                .isEqualTo(Errors.OFFSET_OUT_OF_RANGE);
    }

    /**
     * Kafka's KafkaApis answers a topic it does not know apart and parks the fetch on the partitions it has: the
     * answer waits for the record produced once the fetch is parked (a record there before it would be answered at
     * once, parked or not).
     */
    @Test
    void aFetchNamingAnUnknownTopicStillWaitsForDataOnTheOthers() throws Exception {
        try (RawClient client = new RawClient(port);
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + port),
                     new StringSerializer(), new StringSerializer())) {
            client.send(RawClient.request(ApiKey.FETCH, FETCH_V12, 1, fetch(30_000, -1, 0, "no-such-topic", TOPIC)));
            await(() -> parkedFetches() == 1, "the fetch to be parked");
            producer.send(new ProducerRecord<>(TOPIC, "k", "v")).get();

            Struct response = client.receive(ApiKey.FETCH, FETCH_V12).body();
            assertThat(partition(response, 0).getInt16("ErrorCode"))
                    .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(partition(response, 1).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(partition(response, 1).getRecords("Records").readableBytes()).as("the record").isPositive();
        }
    }
}
