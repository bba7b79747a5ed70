package io.minibroker.benchmarks.layout;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The traffic whose data directory benchmarks/disk-layout.sh compares between a Kafka node and a minibroker: a topic
 * of 3 partitions with 300 records, a compacted topic (segment.ms 100, so the cleaner finds a rolled segment) with
 * 220 records over 5 keys, a topic of 2 partitions that is deleted at the end, a transactional producer that
 * commits one transaction and aborts one on the first topic, and a consumer group that reads it read_committed and
 * commits its offsets. Prints how many records the group read (305: the aborted 5 are not among them).
 */
public final class LayoutWorkload {

    private LayoutWorkload() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic("t3", 3, (short) 1),
                    new NewTopic("compacted", 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                            "segment.ms", "100", "min.cleanable.dirty.ratio", "0.01")),
                    new NewTopic("doomed", 2, (short) 1))).all().get();
            Map<String, Object> producerConfig = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            try (KafkaProducer<String, String> producer = producer(producerConfig)) {
                for (int i = 0; i < 300; i++) {
                    producer.send(new ProducerRecord<>("t3", "k" + i, "v" + i));
                }
                for (int i = 0; i < 200; i++) {
                    producer.send(new ProducerRecord<>("compacted", "k" + (i % 5), "v" + i));
                }
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>("doomed", "k" + i, "v" + i));
                }
                producer.flush();
                Thread.sleep(500); // past segment.ms: the next records roll the compacted topic's segment
                for (int i = 0; i < 20; i++) {
                    producer.send(new ProducerRecord<>("compacted", "k" + (i % 5), "w" + i));
                }
                producer.flush();
            }
            Map<String, Object> transactional = new HashMap<>(producerConfig);
            transactional.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "layout");
            try (KafkaProducer<String, String> producer = producer(transactional)) {
                producer.initTransactions();
                producer.beginTransaction();
                for (int i = 0; i < 5; i++) {
                    producer.send(new ProducerRecord<>("t3", i % 3, "c" + i, "committed"));
                }
                producer.commitTransaction();
                producer.beginTransaction();
                for (int i = 0; i < 5; i++) {
                    producer.send(new ProducerRecord<>("t3", i % 3, "a" + i, "aborted"));
                }
                producer.flush();
                producer.abortTransaction();
            }
            System.out.println("consumed " + consumeAndCommit(bootstrap, 305));
            admin.deleteTopics(List.of("doomed")).all().get();
        }
    }

    private static KafkaProducer<String, String> producer(Map<String, Object> config) {
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    private static int consumeAndCommit(String bootstrap, int expected) {
        int read = 0;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, "layout",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("t3"));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (read < expected && System.nanoTime() < deadline) {
                read += consumer.poll(Duration.ofMillis(500)).count();
            }
            consumer.commitSync();
        }
        return read;
    }
}
