package io.minibroker.streams;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** What the Streams tests share: their apps' settings, a producer of their input, a reader of their counts. */
final class StreamsApps {

    private StreamsApps() {
    }

    /**
     * An app's settings: String keys and values by default, commits every 100 ms, no record cache (every update
     * reaches the output), input read from the start.
     */
    static Properties config(String application, String bootstrapServers, Path stateDir) {
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, application);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        config.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        config.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        config.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        config.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        return config;
    }

    /**
     * The word count the tests run: lines split into words, regrouped by word (a repartition topic), counted in an
     * in-memory store named "counts" (a changelog topic), each new count written to {@code output}.
     */
    static Topology wordCount(String input, String output) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(input)
                .flatMapValues(line -> Arrays.asList(line.split(" ")))
                .groupBy((key, word) -> word)
                .count(Materialized.as(Stores.inMemoryKeyValueStore("counts")))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    static KafkaProducer<String, String> producer(String bootstrapServers) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
    }

    /**
     * Sends sentences {@code from} to {@code to} (excluded) of the word counts' input, each of two words, adding their
     * words to {@code expected}.
     */
    static void sendSentences(String bootstrapServers, String input, int from, int to, Map<String, Long> expected) {
        try (KafkaProducer<String, String> producer = producer(bootstrapServers)) {
            for (int i = from; i < to; i++) {
                String sentence = "w" + i % 10 + " x" + i % 7;
                for (String word : sentence.split(" ")) {
                    expected.merge(word, 1L, Long::sum);
                }
                producer.send(new ProducerRecord<>(input, "s" + i, sentence));
            }
        }
    }

    /** The latest count per key in {@code topic}, read until it holds {@code expected} or a minute passes. */
    static Map<String, Long> awaitCounts(String bootstrapServers, String topic, Map<String, Long> expected) {
        Map<String, Long> latest = new HashMap<>();
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.GROUP_ID_CONFIG, topic + "-reader-" + System.nanoTime()))) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (!latest.entrySet().containsAll(expected.entrySet()) && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, Long> record : consumer.poll(Duration.ofMillis(200))) {
                    latest.put(record.key(), record.value());
                }
            }
        }
        return latest;
    }

    /**
     * Every update of each word in {@code output}'s partition 0, read committed, until each word's latest is its
     * expected count (or {@code seconds} pass), then on to the last stable offset: anything committed after the
     * expected counts would be a duplicate.
     */
    static Map<String, List<Long>> awaitUpdates(String bootstrap, String output, Map<String, Long> expected,
                                                long seconds) {
        Map<String, List<Long>> updates = new HashMap<>();
        Map<String, Long> latest = new HashMap<>();
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class))) {
            TopicPartition tp = new TopicPartition(output, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (!latest.equals(expected)) {
                assertThat(System.nanoTime()).as("all counts reached in time; latest " + latest)
                        .isLessThan(deadline);
                for (ConsumerRecord<String, Long> record : consumer.poll(Duration.ofMillis(200))) {
                    updates.computeIfAbsent(record.key(), word -> new ArrayList<>()).add(record.value());
                    latest.put(record.key(), record.value());
                }
            }
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            while (consumer.position(tp) < end) {
                for (ConsumerRecord<String, Long> record : consumer.poll(Duration.ofMillis(200))) {
                    updates.computeIfAbsent(record.key(), word -> new ArrayList<>()).add(record.value());
                }
            }
        }
        return updates;
    }

    /** 1, 2, ..., n: the updates of a word counted n times, each once. */
    static List<Long> oneTo(long n) {
        List<Long> counts = new ArrayList<>();
        for (long i = 1; i <= n; i++) {
            counts.add(i);
        }
        return counts;
    }

    /** Waits, at most {@code seconds}, until each instance runs this many active tasks (its assignment reached it). */
    static void awaitActiveTasks(List<KafkaStreams> instances, int each, long seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!instances.stream().allMatch(instance -> activeTasks(instance) == each)) {
            assertThat(System.nanoTime()).as("active tasks reached").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static int activeTasks(KafkaStreams instance) {
        return instance.metadataForLocalThreads().stream().map(ThreadMetadata::activeTasks).mapToInt(Set::size).sum();
    }
}
