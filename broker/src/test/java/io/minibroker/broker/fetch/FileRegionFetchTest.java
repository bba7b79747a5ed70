package io.minibroker.broker.fetch;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;


/**
 * Fetches over a socket, answered from the segment files: the batches come back byte for byte as produced
 * (compressed or not, from a fetch offset inside a batch too), parsed by kafka-clients in a non-flexible
 * version, a flexible one by topic name and the newest by topic id, with partitions with and without data; small
 * record sets copied into the answer, and a larger one sent from the file beside them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileRegionFetchTest {

    private static final String TOPIC = "zero-copy";
    /** The epoch the broker stamps on appended batches (one replica, epoch 0). */
    private static final int LEADER_EPOCH = 0;

    @TempDir
    Path logDir;
    private Broker broker;
    private RawClient client;
    private int correlationId;
    private UUID topicId;
    private final List<byte[]> partition0 = new ArrayList<>();
    private final List<byte[]> partition2 = new ArrayList<>();

    @BeforeEach
    void produce() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        client = new RawClient(broker.boundPort("PLAINTEXT"));
        Struct create = ApiKey.CREATE_TOPICS.request().newMessage();
        create.addElement("Topics").set("Name", TOPIC).set("NumPartitions", 3).set("ReplicationFactor", (short) 1);
        Struct created = call(ApiKey.CREATE_TOPICS, (short) 7, create).getStructs("Topics").get(0);
        assertThat(created.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        topicId = created.getUuid("TopicId");

        partition0.add(produce(0, Compression.NONE, "a0", "a1", "a2"));
        partition0.add(produce(0, Compression.gzip().build(), "b3", "b4"));
        partition0.add(produce(0, Compression.lz4().build(), "c5", "c6", "c7"));
        partition2.add(produce(2, Compression.zstd().build(), "z0", "z1"));
        partition2.add(produce(2, Compression.snappy().build(), "s2"));
    }

    @AfterEach
    void stop() throws IOException {
        client.close();
        broker.close();
    }

    private Struct call(ApiKey api, short version, Struct body) throws IOException {
        client.send(RawClient.request(api, version, ++correlationId, body));
        return client.receive(api, version).body();
    }

    /** Produces one batch and returns its bytes as the log must hold them: offsets assigned, epoch stamped. */
    private byte[] produce(int partition, Compression compression, String... values) throws IOException {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(1_700_000_000_000L + i, values[i].getBytes());
        }
        ByteBuffer batch = MemoryRecords.withRecords(compression, records).buffer();
        byte[] bytes = Utils.toArray(batch);
        Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", (short) -1).set("TimeoutMs", 5000);
        body.addElement("TopicData").set("Name", TOPIC)
                .addElement("PartitionData").set("Index", partition).set("Records", Unpooled.wrappedBuffer(bytes));
        Struct answer = call(ApiKey.PRODUCE, (short) 9, body).getStructs("Responses").get(0)
                .getStructs("PartitionResponses").get(0);
        assertThat(answer.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        ByteBuffer stored = ByteBuffer.wrap(bytes);
        stored.putLong(0, answer.getInt64("BaseOffset")).putInt(12, LEADER_EPOCH); // outside the CRC
        return bytes;
    }

    /** Partition 0 from offset 1 (inside its first batch), partition 1 (empty) and partition 2 from 0. */
    private FetchResponseData fetch(short version) throws IOException {
        Struct body = ApiKey.FETCH.request().newMessage().set("MaxWaitMs", 0).set("MinBytes", 1)
                .set("MaxBytes", 1 << 20);
        Struct topic = body.addElement("Topics");
        if (version >= 13) {
            topic.set("TopicId", topicId);
        } else {
            topic.set("Topic", TOPIC);
        }
        long[] offsets = {1, 0, 0};
        for (int partition = 0; partition < offsets.length; partition++) {
            topic.addElement("Partitions").set("Partition", partition).set("FetchOffset", offsets[partition])
                    .set("PartitionMaxBytes", 1 << 20);
        }
        client.send(RawClient.request(ApiKey.FETCH, version, ++correlationId, body));
        byte[] frame = client.receiveFrame();
        return ((FetchResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(frame),
                new RequestHeader(ApiKeys.FETCH, version, "raw-client", correlationId))).data();
    }

    @Test
    void aNonFlexibleFetchGetsTheBatchesByteForByte() throws IOException {
        assertFetchedAsProduced(fetch((short) 4));
    }

    @Test
    void aFlexibleFetchByTopicNameGetsTheBatchesByteForByte() throws IOException {
        assertFetchedAsProduced(fetch((short) 12));
    }

    @Test
    void theNewestFetchByTopicIdGetsTheBatchesByteForByte() throws IOException {
        assertFetchedAsProduced(fetch(ApiKey.FETCH.highestStableVersion()));
    }

    @Test
    void aSetSentFromTheFileAndASmallOneCopiedInTheSameAnswerBothArriveByteForByte() throws IOException {
        String large = "l".repeat(12_000);
        partition0.add(produce(0, Compression.NONE, large, large)); // beyond the 16 KB a plaintext connection copies

        List<FetchResponseData.PartitionData> partitions = fetch((short) 12).responses().get(0).partitions();
        assertThat(recordBytes(partitions.get(0))).hasSizeGreaterThan(16 * 1024).isEqualTo(concat(partition0));
        assertThat(recordBytes(partitions.get(1))).isEmpty();
        assertThat(recordBytes(partitions.get(2))).isEqualTo(concat(partition2));
        assertThat(values(partitions.get(0))).hasSize(10).endsWith(large, large);
    }

    private void assertFetchedAsProduced(FetchResponseData response) {
        assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(response.responses()).hasSize(1);
        List<FetchResponseData.PartitionData> partitions = response.responses().get(0).partitions();
        assertThat(partitions).extracting(FetchResponseData.PartitionData::errorCode).containsOnly(Errors.NONE.code());
        assertThat(partitions).extracting(FetchResponseData.PartitionData::highWatermark).containsExactly(8L, 0L, 3L);

        assertThat(recordBytes(partitions.get(0))).isEqualTo(concat(partition0));
        assertThat(recordBytes(partitions.get(1))).isEmpty();
        assertThat(recordBytes(partitions.get(2))).isEqualTo(concat(partition2));
        assertThat(values(partitions.get(0))).containsExactly("a0", "a1", "a2", "b3", "b4", "c5", "c6", "c7");
        assertThat(values(partitions.get(2))).containsExactly("z0", "z1", "s2");
    }

    private static byte[] recordBytes(FetchResponseData.PartitionData partition) {
        return Utils.toArray(((MemoryRecords) partition.records()).buffer());
    }

    private static List<String> values(FetchResponseData.PartitionData partition) {
        List<String> values = new ArrayList<>();
        for (MutableRecordBatch batch : ((MemoryRecords) partition.records()).batches()) {
            batch.ensureValid();
            for (Record record : batch) {
                values.add(new String(Utils.toArray(record.value())));
            }
        }
        return values;
    }

    private static byte[] concat(List<byte[]> batches) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        batches.forEach(out::writeBytes);
        return out.toByteArray();
    }
}
