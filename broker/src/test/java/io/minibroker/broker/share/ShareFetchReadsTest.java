package io.minibroker.broker.share;

import io.minibroker.broker.server.Eventually;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.netty.buffer.ByteBuf;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.share.ShareWire.acquired;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a ShareFetch reads its records: on the thread that answers it, as Fetch does, not on the disk-io thread, so
 * an fsync or admin change that holds that thread delays no share fetch, answered at once or parked and woken by a
 * produce (docs/architecture.md, "Where log reads run"): the disk-io thread is held by a blocking task throughout,
 * and a read queued behind it would leave the member's socket read to time out. A fetch parked when the broker stops
 * is answered, with what it can acquire, before its connection closes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareFetchReadsTest {

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest();

    /**
     * {@code values} to the topic, one batch each, from a producer that needs nothing of the disk-io thread: not
     * idempotent, as InitProducerId reserves producer ids on that thread.
     */
    private void produce(String... values) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.port(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
                ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))) {
            for (String value : values) {
                producer.send(new ProducerRecord<>(ShareBroker.TOPIC, value)).get();
            }
        }
    }

    /** The values of the records a response carries. */
    private static List<String> values(ShareFetchResponseView response) {
        List<String> values = new ArrayList<>();
        for (ShareFetchResponseView.ShareFetchableTopicResponse topic : response.responses()) {
            for (ShareFetchResponseView.PartitionData partition : topic.partitions()) {
                ByteBuf records = partition.records();
                byte[] bytes = new byte[records.readableBytes()];
                records.getBytes(records.readerIndex(), bytes);
                for (Record record : MemoryRecords.readableRecords(ByteBuffer.wrap(bytes)).records()) {
                    byte[] value = new byte[record.valueSize()];
                    record.value().get(value);
                    values.add(new String(value, StandardCharsets.UTF_8));
                }
            }
        }
        return values;
    }

    /** Waits until {@code count} share fetches are parked. */
    private void awaitParked(int count) {
        Eventually.await(() -> broker.parkedShareFetches() == count, count + " share fetches parked");
    }

    @Test
    void aShareFetchAnsweredAtOnceIsNotQueuedBehindTheDiskThreadsWork() throws Exception {
        try (ShareWire member = broker.member("g", "member-a")) {
            member.fetch(100); // opens the session and loads the share partition (its state topic is made on disk-io)
            produce("a", "b", "c");
            try (AutoCloseable held = broker.occupyDiskThread()) {
                ShareFetchResponseView response = member.fetch(100);
                assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
                assertThat(acquired(response)).containsExactly(List.of(0L, 2L, 1L));
                assertThat(values(response)).containsExactly("a", "b", "c");
            }
        }
    }

    @Test
    void aParkedShareFetchWokenByAProduceReadsItsRecordsWhileTheDiskThreadIsBusy() throws Exception {
        try (ShareWire member = broker.member("g", "member-a")) {
            member.fetch(100);
            produce("zero"); // the partition's first append under its leader epoch is fsynced on disk-io: not held yet
            assertThat(acquired(member.fetch(100))).containsExactly(List.of(0L, 0L, 1L));
            try (AutoCloseable held = broker.occupyDiskThread()) {
                member.sendFetch(60_000, 1, 100); // the default MinBytes: known ready from offsets
                awaitParked(1);
                produce("first");
                ShareFetchResponseView woken = member.receiveFetch();
                assertThat(acquired(woken)).containsExactly(List.of(1L, 1L, 1L));
                assertThat(values(woken)).containsExactly("first");

                // MinBytes above one batch: each wake counts the log's bytes from batch headers, then reads.
                member.sendFetch(60_000, 200, 100);
                awaitParked(1);
                produce("second");
                assertThat(broker.parkedShareFetches()).as("one small batch is under MinBytes").isEqualTo(1);
                produce("third", "fourth");
                ShareFetchResponseView counted = member.receiveFetch();
                assertThat(acquired(counted)).containsExactly(List.of(2L, 4L, 1L));
                assertThat(values(counted)).containsExactly("second", "third", "fourth");
            }
        }
    }

    @Test
    void aShareFetchParkedAtAStopIsAnsweredWithTheRecordsThereAre() throws Exception {
        try (ShareWire member = broker.member("g", "member-a")) {
            member.fetch(100);
            produce("zero");
            member.sendFetch(60_000, 10_000, 100); // one small batch is far under its MinBytes: it stays parked
            awaitParked(1);

            CompletableFuture<Void> stopped = CompletableFuture.runAsync(broker::close);
            ShareFetchResponseView answered = member.receiveFetch(); // the stop flushes it before closing the socket
            assertThat(answered.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(acquired(answered)).containsExactly(List.of(0L, 0L, 1L));
            assertThat(values(answered)).containsExactly("zero");
            stopped.get();
        }
    }
}
