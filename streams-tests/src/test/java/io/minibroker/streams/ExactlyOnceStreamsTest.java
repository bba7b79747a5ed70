package io.minibroker.streams;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.protocol.message.ApiKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka Streams 4.3 with exactly_once_v2 against one broker: the word count of {@link ExactlyOnceWordCount} runs
 * in a child JVM, which is killed with SIGKILL (no close, no commit, its open transaction left to the broker) once
 * it has committed part of its input; a second instance, in this JVM on an empty state directory, restores the
 * counts from the changelog and finishes, with the input sent after the kill. Read committed, each word's updates are exactly 1, 2, ..., its count:
 * no update lost, none repeated, however the kill fell.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ExactlyOnceStreamsTest {

    private static final int SENTENCES = 1_500;

    @TempDir
    Path logDir;
    @TempDir
    Path firstStateDir;
    @TempDir
    Path secondStateDir;

    @Test
    void aKilledInstanceAndItsSuccessorCountEachWordExactlyOnce() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(ExactlyOnceWordCount.INPUT, 3, (short) 1),
                    new NewTopic(ExactlyOnceWordCount.OUTPUT, 1, (short) 1))).all().get();
            Map<String, Long> expected = new HashMap<>();
            // Half the input before the kill, half after it: the first instance may commit all it was given before
            // the kill lands (every 100 ms, so a loaded machine can let it finish between two looks), and the
            // second must then still count on from what the first left committed.
            StreamsApps.sendSentences(kafka.bootstrapServers(), ExactlyOnceWordCount.INPUT, 0, SENTENCES / 2,
                    expected);

            EachAnswer endTxns = new EachAnswer(kafka, ApiKey.END_TXN); // before the child: none of its EndTxns missed
            Process first = startChild(kafka.bootstrapServers(), firstStateDir);
            try {
                awaitCommittedInput(admin, endTxns, committed -> committed >= 100);
            } finally {
                first.destroyForcibly(); // SIGKILL
                first.waitFor();
            }
            StreamsApps.sendSentences(kafka.bootstrapServers(), ExactlyOnceWordCount.INPUT, SENTENCES / 2, SENTENCES,
                    expected);

            try (KafkaStreams second = ExactlyOnceWordCount.create(kafka.bootstrapServers(), secondStateDir)) {
                second.start();
                Map<String, List<Long>> updates = StreamsApps.awaitUpdates(kafka.bootstrapServers(),
                        ExactlyOnceWordCount.OUTPUT, expected, 120);
                updates.forEach((word, counts) -> assertThat(counts).as("updates of " + word)
                        .containsExactlyElementsOf(StreamsApps.oneTo(expected.get(word))));
                assertThat(updates.keySet()).isEqualTo(expected.keySet());
            }
        }
    }

    private static Process startChild(String bootstrap, Path stateDir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ExactlyOnceWordCount.class.getName(), bootstrap, stateDir.toString())
                .redirectErrorStream(true)
                .redirectOutput(new File("target/eos-word-count-child.log"))
                .start();
    }

    /** The input offsets committed, once no transaction's commit is pending (stable offsets, KIP-447). */
    private static long committedInput(Admin admin) throws Exception {
        ListConsumerGroupOffsetsOptions options = new ListConsumerGroupOffsetsOptions().requireStable(true);
        Map<TopicPartition, OffsetAndMetadata> offsets = admin
                .listConsumerGroupOffsets(ExactlyOnceWordCount.APPLICATION, options).partitionsToOffsetAndMetadata()
                .get();
        return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(ExactlyOnceWordCount.INPUT))
                .mapToLong(e -> e.getValue().offset()).sum();
    }

    /**
     * Waits, at most 90 s, until the input committed satisfies {@code condition}, looking again at each EndTxn the
     * broker answers (only the child's transactions end meanwhile). The offsets of a commit count once its markers
     * are written, a little after its EndTxn is answered: the look asks for stable offsets, which the broker gives
     * only once no commit is pending, so the transaction just ended is in it.
     */
    private static void awaitCommittedInput(Admin admin, EachAnswer endTxns,
                                            java.util.function.LongPredicate condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!condition.test(committedInput(admin))) {
            assertThat(endTxns.next(deadline)).as("the first instance committed input in time").isTrue();
        }
    }
}
