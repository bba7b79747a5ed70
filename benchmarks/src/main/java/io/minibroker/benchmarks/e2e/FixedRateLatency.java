package io.minibroker.benchmarks.e2e;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * End-to-end latency at a fixed rate, in microseconds: broker-perf.sh's {@code e2e-rate} case, our equivalent of
 * kafka-tools' EndToEndLatency, which keeps one record in flight (its rate is the round trip's) and prints whole
 * milliseconds. Here a kafka-clients producer (acks=all, linger.ms=0) sends {@code --rate} records a second of
 * {@code --size} bytes to partition 0 of the topic, and a consumer assigned that partition at its end (no group;
 * fetch.min.bytes 1 and the default fetch.max.wait.ms, so the broker parks its fetches) receives them.
 *
 * <p>The send schedule is fixed: record i is due at start + i / rate. A sender that wakes late sends at once
 * whatever has come due, never skips a send, and each record's latency is taken from the time it was due, not
 * from when it was sent: a stall of the sender (or of a producer blocked in send()) shows in the latencies of all
 * the records it delayed, instead of being left out (coordinated omission). The latency from the actual send()
 * call is reported beside it; the two differ by how late the sender ran. Each value carries both times
 * (System.nanoTime: both clients live in this one JVM) and its sequence number; latency is the time the
 * consumer's poll returned it minus those. Every sample is kept (one long a record) and sorted at the end; the
 * records due in the first {@code --warmup-seconds} are dropped (the clients' and the broker's JIT, the first
 * fetch's park). Prints one line:
 *
 * <pre>records=N warmup_records=N missing=N p50_us=.. p99_us=.. p999_us=.. max_us=.. send_p50_us=.. send_p99_us=..
 * send_p999_us=.. send_max_us=.. sender_lag_max_us=..</pre>
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.minibroker.benchmarks.e2e.FixedRateLatency BOOTSTRAP TOPIC
 * [--rate 1000] [--seconds 30] [--warmup-seconds 5] [--size 100]}
 */
public final class FixedRateLatency {
    /** Intended send time, actual send time, sequence number. */
    private static final int HEADER_BYTES = 2 * Long.BYTES + Integer.BYTES;
    /** How long the consumer may lag behind the last send before the missing records are given up. */
    private static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final String bootstrap;
    private final TopicPartition partition;
    private final int rate;
    private final int warmupRecords;
    private final int total;
    private final int size;
    /** By sequence number, written by the reader only, read after it has been joined; 0 = not received. */
    private final long[] fromIntended;
    private final long[] fromSend;

    private FixedRateLatency(String bootstrap, String topic, int rate, int seconds, int warmupSeconds, int size) {
        if (size < HEADER_BYTES) {
            throw new IllegalArgumentException("--size must be at least " + HEADER_BYTES + " bytes");
        }
        this.bootstrap = bootstrap;
        this.partition = new TopicPartition(topic, 0);
        this.rate = rate;
        this.warmupRecords = rate * warmupSeconds;
        this.total = warmupRecords + rate * seconds;
        this.size = size;
        this.fromIntended = new long[total];
        this.fromSend = new long[total];
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, Integer> options = new HashMap<>(
                Map.of("--rate", 1000, "--seconds", 30, "--warmup-seconds", 5, "--size", 100));
        for (int i = 2; i < args.length; i += 2) {
            if (!options.containsKey(args[i]) || i + 1 >= args.length) {
                throw new IllegalArgumentException("unknown option or missing value: " + args[i]);
            }
            options.put(args[i], Integer.parseInt(args[i + 1]));
        }
        new FixedRateLatency(args[0], args[1], options.get("--rate"), options.get("--seconds"),
                options.get("--warmup-seconds"), options.get("--size")).run();
    }

    private void run() throws InterruptedException {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap,
                "acks", "all", "linger.ms", "0"), new ByteArraySerializer(), new ByteArraySerializer());
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                     "fetch.min.bytes", "1"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToEnd(List.of(partition));
            consumer.position(partition); // resolves the end now, before anything is sent
            producer.partitionsFor(partition.topic()); // the metadata, so that the first send() does not wait
            Thread reader = new Thread(() -> read(consumer), "e2e-reader");
            reader.start();
            long lagMax = send(producer);
            producer.flush();
            reader.join(TimeUnit.NANOSECONDS.toMillis(DRAIN_NANOS) + 5_000);
            if (reader.isAlive()) {
                // Stuck in a poll: woken, it ends, so that the report reads its samples after it and the consumer
                // is not closed from this thread while that one uses it.
                consumer.wakeup();
                reader.join();
            }
            report(lagMax);
        }
    }

    /**
     * Sends every record on its schedule; returns how late the latest send after the warm-up ran behind it, in
     * nanoseconds.
     */
    private long send(KafkaProducer<byte[], byte[]> producer) {
        long intervalNanos = 1_000_000_000L / rate;
        long start = System.nanoTime();
        long lagMax = 0;
        for (int i = 0; i < total; i++) {
            long due = start + i * intervalNanos;
            // Parked, not spinning: on two cores a spinning sender takes one from the broker and the consumer.
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            byte[] value = new byte[size];
            long sent = System.nanoTime();
            if (i >= warmupRecords) {
                lagMax = Math.max(lagMax, sent - due);
            }
            ByteBuffer.wrap(value).putLong(due).putLong(sent).putInt(i);
            producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), null, value));
        }
        return lagMax;
    }

    /**
     * The reader thread: until every record has come, none has for {@link #DRAIN_NANOS}, or {@link #run} woke the
     * consumer because it outlived its wait.
     */
    private void read(KafkaConsumer<byte[], byte[]> consumer) {
        int seen = 0;
        long lastProgress = System.nanoTime();
        while (seen < total && System.nanoTime() - lastProgress < DRAIN_NANOS) {
            ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(Duration.ofMillis(100));
            } catch (WakeupException e) {
                return;
            }
            long received = System.nanoTime(); // one time for the poll's records: when they reached the application
            for (ConsumerRecord<byte[], byte[]> record : records) {
                ByteBuffer value = ByteBuffer.wrap(record.value());
                long due = value.getLong();
                long sent = value.getLong();
                int sequence = value.getInt();
                fromIntended[sequence] = Math.max(1, received - due);
                fromSend[sequence] = Math.max(1, received - sent);
                seen++;
                lastProgress = received;
            }
        }
    }

    private void report(long lagMaxNanos) {
        long[] intended = measured(fromIntended);
        long[] sent = measured(fromSend);
        System.out.printf("records=%d warmup_records=%d missing=%d p50_us=%d p99_us=%d p999_us=%d max_us=%d"
                        + " send_p50_us=%d send_p99_us=%d send_p999_us=%d send_max_us=%d sender_lag_max_us=%d%n",
                intended.length, warmupRecords, total - warmupRecords - intended.length,
                micros(intended, 0.5), micros(intended, 0.99), micros(intended, 0.999), micros(intended, 1),
                micros(sent, 0.5), micros(sent, 0.99), micros(sent, 0.999), micros(sent, 1),
                lagMaxNanos / 1_000);
    }

    /** The samples of the records received after the warm-up, sorted. */
    private long[] measured(long[] samples) {
        return Arrays.stream(samples, warmupRecords, total).filter(l -> l > 0).sorted().toArray();
    }

    /** Nearest rank: the smallest sample with at least {@code p} of all samples at or below it; -1 if none. */
    private static long micros(long[] sorted, double p) {
        if (sorted.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, rank - 1)] / 1_000;
    }
}
