package io.minibroker.benchmarks.txn;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The end-to-end latency a read_committed consumer sees: a transactional producer sends {@code --rate} records a
 * second of {@code --size} bytes and commits every {@code --commit-ms}; a read_committed consumer, assigned the
 * topic's partition 0 at its end, reads them. Each record carries its send time (System.nanoTime, both clients
 * in this one process); latency is receive time minus send time, so it includes the wait for the commit marker.
 * That wait is mostly the client's: a record sent at the start of a transaction waits up to {@code --commit-ms} for
 * the commit call. So the broker's share is also measured apart, per transaction, as commit latency: from the
 * producer's commitTransaction() call to the consumer receiving the transaction's first record (EndTxn, the
 * markers, the last stable offset's move and the parked fetch's wake-up, all on the broker).
 * The first {@code --warmup-seconds} (default 0) of records are sent, committed and read the same way but not
 * measured, and a transaction ends where they end: the first transactions of a fresh JVM, this one's clients and
 * the broker alike, run interpreted and link their call sites, and at some 490 transactions a run, p99 is the fifth
 * slowest, so a few cold transactions would otherwise set it for either broker.
 * Prints one line: records, p50, p99, p99.9 in ms, then transactions and commit_p50/p99/p99.9 in ms (measured
 * records and transactions only). Run by benchmarks/transactional-perf.sh (Kafka's EndToEndLatency tool has no
 * transactional mode).
 */
public final class TransactionalLatency {

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        int records = Integer.parseInt(args[2]);
        int rate = Integer.parseInt(args[3]);
        long commitNanos = Long.parseLong(args[4]) * 1_000_000L;
        int size = Integer.parseInt(args[5]);
        int warmup = args.length > 6 ? Integer.parseInt(args[6]) * rate : 0; // records sent before measuring
        int total = warmup + records;
        long[] latencies = new long[records];
        // Per transaction: when its commit was asked for (this thread's only) and when its first record arrived,
        // and whether it is measured, as its records say (the reader's only; read here after joining it).
        long[] commitCalled = new long[total + 2];
        long[] firstSeen = new long[total + 2];
        boolean[] measured = new boolean[total + 2];
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap,
                "transactional.id", "txn-latency-" + topic, "linger.ms", "0"),
                new ByteArraySerializer(), new ByteArraySerializer());
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                     "isolation.level", "read_committed", "fetch.max.wait.ms", "500"),
                     new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            producer.initTransactions();
            consumer.assign(List.of(partition));
            consumer.seekToEnd(List.of(partition));
            consumer.position(partition); // resolves the end now, before anything is sent
            Thread reader = new Thread(() -> {
                int seen = 0;
                int sampled = 0;
                while (seen < total) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                        long now = System.nanoTime();
                        seen++;
                        ByteBuffer value = ByteBuffer.wrap(record.value());
                        long sent = value.getLong();
                        int transaction = value.getInt();
                        measured[transaction] = value.get() == 1;
                        if (measured[transaction]) {
                            latencies[sampled++] = now - sent;
                        }
                        if (firstSeen[transaction] == 0) {
                            firstSeen[transaction] = now;
                        }
                    }
                }
            });
            reader.start();
            long start = System.nanoTime();
            long intervalNanos = 1_000_000_000L / rate;
            long transactionStart = start;
            int transaction = 0;
            producer.beginTransaction();
            for (int i = 0; i < total; i++) {
                long due = start + i * intervalNanos;
                // Parked, not spinning: on a two-core machine a spinning sender takes a core from the broker and
                // the consumer, and the latencies measured would be the scheduler's. The schedule is fixed
                // (start + i * interval), so a late wake-up is made up by the next send, not carried forward.
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                if (System.nanoTime() - transactionStart >= commitNanos || (i == warmup && i > 0)) {
                    commitCalled[transaction] = System.nanoTime();
                    producer.commitTransaction();
                    producer.beginTransaction();
                    transactionStart = System.nanoTime();
                    transaction++;
                }
                byte[] value = new byte[size];
                ByteBuffer.wrap(value).putLong(System.nanoTime()).putInt(transaction).put((byte) (i >= warmup ? 1 : 0));
                producer.send(new ProducerRecord<>(topic, 0, null, value));
            }
            commitCalled[transaction] = System.nanoTime();
            producer.commitTransaction();
            reader.join(120_000);
        }
        long[] commits = new long[firstSeen.length];
        int transactions = 0;
        for (int t = 0; t < firstSeen.length; t++) {
            if (measured[t] && firstSeen[t] > 0 && commitCalled[t] > 0) {
                commits[transactions++] = firstSeen[t] - commitCalled[t];
            }
        }
        long[] commitSorted = Arrays.stream(commits, 0, transactions).sorted().toArray();
        long[] sorted = Arrays.stream(latencies).filter(l -> l > 0).sorted().toArray();
        System.out.printf("records=%d p50_ms=%.1f p99_ms=%.1f p999_ms=%.1f transactions=%d commit_p50_ms=%.1f"
                        + " commit_p99_ms=%.1f commit_p999_ms=%.1f%n", sorted.length,
                percentile(sorted, 0.5), percentile(sorted, 0.99), percentile(sorted, 0.999), commitSorted.length,
                percentile(commitSorted, 0.5), percentile(commitSorted, 0.99), percentile(commitSorted, 0.999));
    }

    private static double percentile(long[] sorted, double p) {
        return sorted.length == 0 ? -1 : sorted[(int) Math.min(sorted.length - 1, p * sorted.length)] / 1e6;
    }
}
