package io.minibroker.it;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once through a kill -9: a consume-transform-produce loop (kafka-clients 4.4.0, transaction version 2)
 * against a broker process, which is killed (SIGKILL) while the loop runs, from another thread, once five
 * transactions have committed, wherever the loop then is. A new loop (same transactional.id, same group) against
 * the broker restarted on the same log directory finishes the input: read_committed, every input's output appears
 * exactly once, and the group's committed offsets are the input's ends.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class TransactionalCrashTest {

    private static final int INPUTS = 3_000;

    @TempDir
    Path logDir;

    @Test
    void everyInputIsOutputOnceThroughAKillMinus9() throws Exception {
        BrokerProcess first = BrokerProcess.start(logDir, "log.flush.interval.messages=1",
                "group.initial.rebalance.delay.ms=0");
        BrokerProcess second = null;
        try {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, first.bootstrap()))) {
                admin.createTopics(List.of(new NewTopic("input", 3, (short) 1), new NewTopic("output", 2, (short) 1)))
                        .all().get();
            }
            try (KafkaProducer<String, String> plain = Clients.producer(first.bootstrap(), Map.of("acks", "all"))) {
                for (int i = 0; i < INPUTS; i++) {
                    plain.send(new ProducerRecord<>("input", i % 3, "k" + i, "in-" + i));
                }
            }
            TransformLoop.readyCoordinators(first.bootstrap());
            TransformLoop before = new TransformLoop(first.bootstrap(), 3, 0, TxClients.IMPATIENT);
            Thread killer = new Thread(() -> {
                Eventually.await(() -> before.committed.get() >= 5, "five committed transactions");
                try {
                    first.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            killer.start();
            AtomicReference<RuntimeException> failure = new AtomicReference<>();
            try {
                before.run();
            } catch (RuntimeException | AssertionError e) {
                failure.set(new RuntimeException(e));
            }
            killer.join();
            assertThat(failure.get()).as("the loop broke off when the broker died").isNotNull();
            assertThat(before.committed.get()).as("it did not finish before the kill").isLessThan(INPUTS / 50);

            second = BrokerProcess.start(logDir, "log.flush.interval.messages=1", "group.initial.rebalance.delay.ms=0");
            TransformLoop after = new TransformLoop(second.bootstrap(), 3, 0, Map.of());
            after.run();
            TransformLoop.assertOutputOnceAndOffsetsAtEnd(second.bootstrap(), INPUTS, 3, 2);
        } catch (Throwable e) {
            first.saveOutput(Path.of("target", "crash-logs", "transactional-first.log"));
            if (second != null) {
                second.saveOutput(Path.of("target", "crash-logs", "transactional-second.log"));
            }
            throw e;
        } finally {
            if (first.process().isAlive()) {
                first.kill();
            }
            if (second != null) {
                second.stop();
            }
        }
    }
}
