package io.minibroker.broker.share;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.netty.buffer.ByteBuf;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.share.ShareWire.acquired;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A share fetch over a backlog reads the log's batch headers and sends only the batches holding the records it
 * acquired, from the segment file, as Kafka's share fetch does: with MaxBytes a share consumer's default 50 MiB and
 * MaxRecords small, neither the response nor what the broker reads grows with the backlog, however many members
 * fetch at once. What the broker reads is the process's {@code rchar} (/proc/self/io: bytes read by system calls,
 * a pread into a buffer or a sendfile alike), counted around the fetches alone; copying the backlog to acquire from
 * it, as a read into memory would, reads it once per fetch.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ShareFetchBacklogTest {

    private static final int MEMBERS = 4;
    private static final int BATCH_BYTES = 64 * 1024;
    private static final int VALUE_BYTES = 1024;
    private static final int BACKLOG_BYTES = 32 << 20;
    private static final int MAX_RECORDS = 10;

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest();

    /** About {@link #BACKLOG_BYTES} of 1 KiB records in batches of up to {@link #BATCH_BYTES}. */
    private void produceBacklog() throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.port(),
                ProducerConfig.BATCH_SIZE_CONFIG, BATCH_BYTES,
                ProducerConfig.LINGER_MS_CONFIG, 100,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "none",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()))) {
            byte[] value = new byte[VALUE_BYTES];
            for (int i = 0; i < BACKLOG_BYTES / VALUE_BYTES; i++) {
                producer.send(new ProducerRecord<>(ShareBroker.TOPIC, value));
            }
            producer.flush();
        }
    }

    /** The bytes this process has read by system calls so far (Linux's rchar). */
    private static long bytesRead() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
            if (line.startsWith("rchar:")) {
                return Long.parseLong(line.substring("rchar:".length()).trim());
            }
        }
        throw new IllegalStateException("no rchar in /proc/self/io");
    }

    /** The records of the only partition of a response. */
    private static ByteBuffer records(ShareFetchResponseView response) {
        ByteBuf records = response.responses().get(0).partitions().get(0).records();
        byte[] bytes = new byte[records.readableBytes()];
        records.getBytes(records.readerIndex(), bytes);
        return ByteBuffer.wrap(bytes);
    }

    @Test
    void concurrentShareFetchesOverABacklogReadAndSendOnlyTheBatchesOfTheRecordsAcquired() throws Exception {
        List<ShareWire> members = new ArrayList<>();
        try {
            for (int i = 0; i < MEMBERS; i++) { // a group each: every member acquires from the backlog's start
                ShareWire member = broker.member("group-" + i, "member-" + i);
                member.maxBytes = 50 << 20;
                members.add(member);
                assertThat(acquired(member.fetch(MAX_RECORDS))).isEmpty(); // opens the session at the log end
            }
            produceBacklog();

            long readBefore = bytesRead();
            for (ShareWire member : members) {
                member.sendFetch(0, MAX_RECORDS);
            }
            List<ShareFetchResponseView> responses = new ArrayList<>();
            for (ShareWire member : members) {
                responses.add(member.receiveFetch());
            }
            long read = bytesRead() - readBefore;

            for (ShareFetchResponseView response : responses) {
                assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
                ByteBuffer records = records(response);
                List<RecordBatch> batches = new ArrayList<>();
                MemoryRecords.readableRecords(records).batches().forEach(batches::add);
                assertThat(batches).as("the batches holding offsets 0-9: the first of the backlog").hasSize(1);
                assertThat(batches.get(0).baseOffset()).isZero();
                assertThat(batches.get(0).lastOffset()).isGreaterThanOrEqualTo(MAX_RECORDS - 1);
                // batch_optimized, a share consumer's default: the batch reaching MaxRecords is acquired whole
                assertThat(acquired(response)).containsExactly(List.of(0L, batches.get(0).lastOffset(), 1L));
                assertThat(records.remaining()).as("response records").isLessThanOrEqualTo(BATCH_BYTES + 1024);
            }
            // Each response's batch is read twice here (sent by the broker, received by the client): far below one
            // backlog, which a copy per fetch would read MEMBERS times.
            assertThat(read).as("bytes read by the process during %d share fetches of a %d-byte backlog", MEMBERS,
                    BACKLOG_BYTES).isLessThan(BACKLOG_BYTES / 8);
        } finally {
            for (ShareWire member : members) {
                member.close();
            }
        }
    }
}
