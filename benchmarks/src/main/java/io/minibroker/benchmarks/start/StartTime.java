package io.minibroker.benchmarks.start;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.testkit.container.MiniKafkaContainer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.testcontainers.DockerClientFactory;

import java.util.Map;

/**
 * How long a test waits for a broker: in process, from {@code EmbeddedBroker.start()} to the first record
 * acknowledged; in Docker, from {@code MiniKafkaContainer.start()} to ready (the broker answered a Metadata
 * request through the mapped port) and to the first record acknowledged. Prints one line per run.
 * The first in-process run pays for loading the broker's and the client's classes, as a test suite's first
 * broker does; later runs show a warm JVM.
 * <pre>
 *   benchmarks/start-time.sh            (builds the jar and the image, then runs this)
 *   java -cp benchmarks.jar io.minibroker.benchmarks.start.StartTime [--runs N] [--image minibroker:bench]
 * </pre>
 */
public final class StartTime {

    private StartTime() {
    }

    public static void main(String[] args) throws Exception {
        int runs = 5;
        String image = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--runs")) {
                runs = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--image")) {
                image = args[++i];
            } else {
                throw new IllegalArgumentException("usage: StartTime [--runs N] [--image IMAGE]");
            }
        }
        for (int run = 1; run <= runs; run++) {
            inProcess(run);
        }
        if (image == null) {
            System.out.println("# no --image: container start not measured");
        } else if (!DockerClientFactory.instance().isDockerAvailable()) {
            System.out.println("# no Docker engine: container start not measured");
        } else {
            for (int run = 1; run <= runs; run++) {
                container(image, run);
            }
        }
    }

    private static void inProcess(int run) throws Exception {
        long start = System.nanoTime();
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            long started = System.nanoTime();
            long produced = firstProduce(broker.bootstrapServers());
            System.out.printf("mode=in-process run=%d start_ms=%.1f first_produce_ms=%.1f%n",
                    run, millis(started - start), millis(produced - start));
        }
    }

    private static void container(String image, int run) throws Exception {
        long start = System.nanoTime();
        try (MiniKafkaContainer kafka = new MiniKafkaContainer(image)) {
            kafka.start();
            long ready = System.nanoTime();
            long produced = firstProduce(kafka.getBootstrapServers());
            System.out.printf("mode=container run=%d ready_ms=%.1f first_produce_ms=%.1f%n",
                    run, millis(ready - start), millis(produced - start));
        }
    }

    /** Sends one record to a new topic and returns the time its acknowledgement arrived. */
    private static long firstProduce(String bootstrapServers) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            producer.send(new ProducerRecord<>("start-time", "first")).get();
            return System.nanoTime();
        }
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }
}
