package io.minibroker.streams;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * A word count under {@code processing.guarantee=exactly_once_v2}: "sentences" split into words, re-keyed by word
 * (a repartition topic), counted in a store with a changelog, every update to "word-counts". Its main runs it in
 * a child JVM until the process is killed, so that a test can kill -9 it.
 */
final class ExactlyOnceWordCount {

    static final String APPLICATION = "eos-word-count";
    static final String INPUT = "sentences";
    static final String OUTPUT = "word-counts";

    private ExactlyOnceWordCount() {
    }

    static KafkaStreams create(String bootstrapServers, Path stateDir) {
        Properties config = StreamsApps.config(APPLICATION, bootstrapServers, stateDir);
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // Small polls, so that the input takes many transactions and a kill lands in the middle of them.
        config.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 20);
        // A killed instance's member leaves the group when its session runs out, and its successor gets the tasks
        // only then: 10 s, as many Streams apps set it, rather than Streams' 45 s default.
        config.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
        return new KafkaStreams(StreamsApps.wordCount(INPUT, OUTPUT), config);
    }

    /** {@code ExactlyOnceWordCount <bootstrap servers> <state directory>}: runs until killed. */
    public static void main(String[] args) throws InterruptedException {
        KafkaStreams streams = create(args[0], Path.of(args[1]));
        streams.start();
        new CountDownLatch(1).await();
    }
}
