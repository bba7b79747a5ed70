package io.minibroker.broker.fetch;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A replicated leader's records above the high watermark may still be cut by a failover: a timestamp lookup and
 * MAX_TIMESTAMP never answer one of them to a client (Kafka's lastFetchableOffset), while the debugging replica id
 * reads the whole log. With them, the request checks Kafka makes before any lookup (versions, duplicates).
 */
class ListOffsetsBelowHighWatermarkTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final long MAX_TIMESTAMP = -3;
    private static final long LATEST = -1;
    private static final int CONSUMER = -1;
    private static final int DEBUGGING_REPLICA = -2;

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private ListOffsetsHandler handler;

    @BeforeEach
    void start() throws Exception {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dirs", logDir.toString())), Clock.systemUTC());
        topics.create("t", 1, 1, Map.of(), false);
        PartitionLog log = topics.partitionLog(topics.get("t").orElseThrow(), 0).orElseThrow();
        for (int i = 0; i < 4; i++) { // offsets 0..3 at T0, T0 + 10, T0 + 20, T0 + 30
            ByteBuf batch = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, T0 + 10 * i)
                    .append(T0 + 10 * i, null, ("v" + i).getBytes(StandardCharsets.UTF_8), List.of()).build();
            log.append(batch, 0);
            batch.release();
        }
        log.setReplicatedHighWatermark(2); // offsets 2 and 3 are not on the followers yet
        handler = new ListOffsetsHandler(topics, PartitionLeadership.SINGLE_NODE);
    }

    @AfterEach
    void stop() throws Exception {
        topics.close();
    }

    @Test
    void aTimestampLookupFindsOnlyCommittedRecords() {
        assertThat(offsetFor(T0 + 5, CONSUMER)).as("offset 1, committed").isEqualTo(1);
        assertThat(offsetFor(T0 + 15, CONSUMER)).as("offset 2 lies above the high watermark").isEqualTo(-1);
        assertThat(offsetFor(MAX_TIMESTAMP, CONSUMER)).as("the largest timestamp is uncommitted").isEqualTo(-1);
        assertThat(offsetFor(LATEST, CONSUMER)).isEqualTo(2);
    }

    @Test
    void theDebuggingReplicaReadsTheWholeLog() {
        assertThat(offsetFor(T0 + 15, DEBUGGING_REPLICA)).isEqualTo(2);
        assertThat(offsetFor(MAX_TIMESTAMP, DEBUGGING_REPLICA)).isEqualTo(3);
        assertThat(offsetFor(LATEST, DEBUGGING_REPLICA)).isEqualTo(4);
    }

    @Test
    void aNewLeaderWhoseHighWatermarkHasNotReachedItsEpochAnswersOffsetNotAvailable() {
        topics.partitionLog(topics.get("t").orElseThrow(), 0).orElseThrow().assignLeaderEpoch(1); // starts at 4

        assertThat(errorFor(LATEST)).isEqualTo(Errors.OFFSET_NOT_AVAILABLE);
        assertThat(errorFor(T0 + 15)).as("nothing below the high watermark").isEqualTo(Errors.OFFSET_NOT_AVAILABLE);
        assertThat(errorFor(T0 + 5)).as("offset 1 is committed whoever leads").isEqualTo(Errors.NONE);
        assertThat(offsetFor(LATEST, DEBUGGING_REPLICA)).isEqualTo(4);
        assertThat(errorFor(LATEST, (short) 4)).as("before v5, Kafka's LEADER_NOT_AVAILABLE")
                .isEqualTo(Errors.LEADER_NOT_AVAILABLE);
        assertThat(errorFor(LATEST, (short) 5)).isEqualTo(Errors.OFFSET_NOT_AVAILABLE);
    }

    /** Kafka's isListOffsetsTimestampUnsupported: each special timestamp from its version on, no other negative. */
    @Test
    void aSpecialTimestampOlderThanTheVersionIsUnsupportedVersion() {
        assertThat(errorFor(MAX_TIMESTAMP, (short) 6)).isEqualTo(Errors.UNSUPPORTED_VERSION);
        assertThat(errorFor(MAX_TIMESTAMP, (short) 7)).isEqualTo(Errors.NONE);
        assertThat(errorFor(-4, (short) 7)).isEqualTo(Errors.UNSUPPORTED_VERSION);
        assertThat(errorFor(-4, (short) 8)).isEqualTo(Errors.NONE);
        assertThat(errorFor(-5, (short) 8)).isEqualTo(Errors.UNSUPPORTED_VERSION);
        assertThat(errorFor(-6, (short) 10)).isEqualTo(Errors.UNSUPPORTED_VERSION);
        assertThat(errorFor(-7, (short) 11)).as("no such timestamp").isEqualTo(Errors.UNSUPPORTED_VERSION);
        Struct pendingUpload = partitionResult(-6, CONSUMER, (short) 11, 1);
        assertThat(List.of(pendingUpload.getInt16("ErrorCode"), pendingUpload.getInt64("Offset"),
                pendingUpload.getInt32("LeaderEpoch"))).as("nothing waits to be tiered")
                .containsExactly(Errors.NONE.code(), -1L, -1);
    }

    /**
     * Kafka answers a partition a request names twice once, INVALID_REQUEST: its ReplicaManager.fetchOffset keeps
     * the results in a map by partition (a Kafka 4.3.1 node answered so, 2026-11-29; RepeatedEntriesTest).
     */
    @Test
    void aPartitionNamedTwiceIsInvalidRequestOnce() {
        assertThat(request(LATEST, CONSUMER, (short) 7, 2).getStructs("Topics").get(0).getStructs("Partitions"))
                .extracting(partition -> Errors.forCode(partition.getInt16("ErrorCode")))
                .containsExactly(Errors.INVALID_REQUEST);
    }

    /**
     * Duplicates are found however the request names them: a topic named in two entries, an index above those told
     * apart by bits, a request of many topics; partitions named once beside them are served.
     */
    @Test
    void duplicatesAreFoundWhateverTheRequestsShape() {
        assertThat(errors(new String[] {"t", "t"}, new int[][] {{0}, {0}})).as("a topic named twice")
                .containsExactly(Errors.INVALID_REQUEST);
        assertThat(errors(new String[] {"t", "t"}, new int[][] {{0}, {70}})).as("a topic named twice, apart")
                .containsExactly(Errors.NONE, Errors.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(errors(new String[] {"t"}, new int[][] {{70, 0, 70}})).as("an index past 63")
                .containsExactly(Errors.INVALID_REQUEST, Errors.NONE);
        String[] many = new String[20];
        int[][] partitions = new int[20][];
        for (int i = 0; i < many.length; i++) {
            many[i] = i == 19 ? "t" : "other-" + i;
            partitions[i] = i == 19 ? new int[] {0, 0} : new int[] {0};
        }
        assertThat(errors(many, partitions).subList(19, 20)).as("twenty topics")
                .containsExactly(Errors.INVALID_REQUEST);
    }

    /** The errors of a request naming {@code partitions[i]} of {@code names[i]}, in the order named. */
    private List<Errors> errors(String[] names, int[][] partitions) {
        Struct body = ApiKey.LIST_OFFSETS.request().newMessage().set("ReplicaId", CONSUMER)
                .set("IsolationLevel", (byte) 0);
        for (int i = 0; i < names.length; i++) {
            Struct named = body.addElement("Topics").set("Name", names[i]);
            for (int index : partitions[i]) {
                named.addElement("Partitions").set("PartitionIndex", index).set("CurrentLeaderEpoch", -1)
                        .set("Timestamp", LATEST);
            }
        }
        return answer(body, (short) 7).getStructs("Topics").stream()
                .flatMap(topic -> topic.getStructs("Partitions").stream())
                .map(partition -> Errors.forCode(partition.getInt16("ErrorCode"))).toList();
    }

    /**
     * A negative index or an empty name is a partition not here, answered UNKNOWN_TOPIC_OR_PARTITION beside the
     * request's other partitions, as Kafka answers it; the request itself is not refused.
     */
    @Test
    void aNegativeIndexOrAnEmptyNameIsUnknownBesideTheOtherPartitions() {
        Struct body = ApiKey.LIST_OFFSETS.request().newMessage().set("ReplicaId", CONSUMER)
                .set("IsolationLevel", (byte) 0);
        Struct named = body.addElement("Topics").set("Name", "t");
        for (int index : new int[] {-1, 0}) {
            named.addElement("Partitions").set("PartitionIndex", index).set("CurrentLeaderEpoch", -1)
                    .set("Timestamp", LATEST);
        }
        body.addElement("Topics").set("Name", "").addElement("Partitions").set("PartitionIndex", 0)
                .set("CurrentLeaderEpoch", -1).set("Timestamp", LATEST);
        assertThat(answer(body, (short) 7).getStructs("Topics"))
                .flatExtracting(topic -> topic.getStructs("Partitions"))
                .extracting(partition -> Errors.forCode(partition.getInt16("ErrorCode")))
                .containsExactly(Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.NONE, Errors.UNKNOWN_TOPIC_OR_PARTITION);
    }

    private Errors errorFor(long timestamp) {
        return errorFor(timestamp, (short) 7);
    }

    private Errors errorFor(long timestamp, short version) {
        return Errors.forCode(partitionResult(timestamp, CONSUMER, version, 1).getInt16("ErrorCode"));
    }

    private long offsetFor(long timestamp, int replicaId) {
        return partitionResult(timestamp, replicaId, (short) 7, 1).getInt64("Offset");
    }

    private Struct partitionResult(long timestamp, int replicaId, short version, int times) {
        return request(timestamp, replicaId, version, times).getStructs("Topics").get(0).getStructs("Partitions")
                .get(0);
    }

    /** The answer to a ListOffsets of partition 0, named {@code times} times. */
    private Struct request(long timestamp, int replicaId, short version, int times) {
        Struct body = ApiKey.LIST_OFFSETS.request().newMessage().set("ReplicaId", replicaId)
                .set("IsolationLevel", (byte) 0);
        Struct topic = body.addElement("Topics").set("Name", "t");
        for (int i = 0; i < times; i++) {
            topic.addElement("Partitions").set("PartitionIndex", 0).set("CurrentLeaderEpoch", -1)
                    .set("Timestamp", timestamp);
        }
        return answer(body, version);
    }

    private Struct answer(Struct body, short version) {
        ByteBuf encoded = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.LIST_OFFSETS.id(), version, 1, "test"), body);
        Request request = MessageCodec.decodeRequest(Frames.readFrame(encoded, Integer.MAX_VALUE));
        return handler.handle(TestContexts.on("PLAINTEXT"), request).toCompletableFuture().join();
    }
}
