package io.minibroker.it;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A steady stream of numbered records from an idempotent acks=all kafka-clients producer on a background thread,
 * to every partition of a topic in turn: partition p gets the values "0", "1", "2", ... in that order. It records
 * every acknowledgement (partition, offset, value) and every failed send, which is what a test of failover
 * checks the topic against. At most {@value #UNACKNOWLEDGED} records are unacknowledged at once, so the stream
 * waits out a failover instead of piling records up, and it pauses a little between records so that three
 * brokers and the test share a small machine.
 */
final class NumberedProduceStream implements AutoCloseable {

    private static final int UNACKNOWLEDGED = 1_000;
    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** One acknowledged record. */
    record Ack(int partition, long offset, String value) {
    }

    private final KafkaProducer<String, String> producer;
    private final String topic;
    private final long[] sent;
    private final Semaphore unacknowledged = new Semaphore(UNACKNOWLEDGED);
    private final ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Exception> failures = new ConcurrentLinkedQueue<>();
    private final Thread sender;
    private volatile boolean stopping;

    private NumberedProduceStream(String bootstrapServers, String topic, int partitions) {
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5,
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000,
                // Retried for a minute: far longer than a failover, so no send should ever fail.
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000),
                new StringSerializer(), new StringSerializer());
        this.topic = topic;
        this.sent = new long[partitions];
        this.sender = new Thread(this::send, "numbered-produce-stream");
    }

    /** Starts sending to {@code partitions} partitions of {@code topic}. */
    static NumberedProduceStream start(String bootstrapServers, String topic, int partitions) {
        NumberedProduceStream stream = new NumberedProduceStream(bootstrapServers, topic, partitions);
        stream.sender.start();
        return stream;
    }

    private void send() {
        try {
            long next = 0;
            while (!stopping) {
                if (!unacknowledged.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    continue; // to look at stopping again
                }
                int partition = (int) (next++ % sent.length);
                String value = Long.toString(sent[partition]++);
                producer.send(new ProducerRecord<>(topic, partition, null, value), (metadata, error) -> {
                    if (error == null) {
                        acks.add(new Ack(metadata.partition(), metadata.offset(), value));
                    } else {
                        failures.add(error);
                    }
                    unacknowledged.release();
                });
                TimeUnit.NANOSECONDS.sleep(PAUSE_NANOS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failures.add(e); // send itself threw: the producer is unusable
        }
    }

    /** How many records of {@code partition} have been acknowledged so far. */
    long acknowledged(int partition) {
        return acks.stream().filter(ack -> ack.partition() == partition).count();
    }

    /** Every acknowledgement so far, in the order they came. */
    List<Ack> acks() {
        return new ArrayList<>(acks);
    }

    /** Every failed send so far. */
    List<Exception> failures() {
        return new ArrayList<>(failures);
    }

    /** How many records were sent to each partition; complete once the stream is closed. */
    long[] sent() {
        return sent.clone();
    }

    /** Stops sending and waits for every record sent to be acknowledged or to fail. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        sender.join();
        producer.close(Duration.ofSeconds(90)); // longer than the delivery timeout: every send ends one way or the other
    }
}
