package io.minibroker.broker.group;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.minibroker.broker.log.LogManager;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.FindCoordinatorRequestView;
import io.minibroker.protocol.message.view.FindCoordinatorResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A single node creating {@code __consumer_offsets} on a group's first FindCoordinator (50 logs by default) does
 * not hold up a produce to a topic that exists, as Kafka's broker does not: there the controller creates the topic
 * and the logs are opened on the metadata thread. The creation is held, inside the log manager, at the first of its
 * logs; the first produce to the existing topic (whose append starts a leader epoch, so its checkpoint is written on
 * the disk thread before the answer) must be answered meanwhile.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OffsetsTopicCreationTest {

    private static final String TOPIC = "orders";
    private static final int OFFSETS_PARTITIONS = 50;
    private static final long HOLD_LIMIT_S = 60; // a failing test must not hold the creation (and the broker) forever

    @TempDir
    Path logDir;
    private Broker broker;
    private final Logger logManagerLog = (Logger) LoggerFactory.getLogger(LogManager.class);
    private final HeldCreation held = new HeldCreation();

    @AfterEach
    void stop() throws Exception {
        held.release.countDown();
        logManagerLog.detachAppender(held);
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aProduceIsAnsweredWhileTheOffsetsTopicsLogsAreBeingCreated() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        String bootstrap = "localhost:" + broker.boundPort("PLAINTEXT");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        }
        held.start();
        logManagerLog.addAppender(held);
        try (GroupWireClient client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                     ProducerConfig.ACKS_CONFIG, "1",
                     ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false), // the produce alone, no InitProducerId
                     new ByteArraySerializer(), new ByteArraySerializer())) {
            assertThat(findCoordinator(client)).as("the first lookup has the topic created")
                    .isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
            assertThat(held.entered.await(HOLD_LIMIT_S, TimeUnit.SECONDS)).as("the creation reached its first log")
                    .isTrue();

            RecordMetadata sent = producer.send(new ProducerRecord<>(TOPIC, "first".getBytes(StandardCharsets.UTF_8)))
                    .get(HOLD_LIMIT_S, TimeUnit.SECONDS);

            assertThat(sent.offset()).isZero();
            assertThat(held.created).as("the creation (on thread %s) is still held at its first log", held.thread)
                    .hasValue(1);
            assertThat(held.thread).as("the creation runs on neither the disk thread nor an event loop")
                    .isNotEqualTo("disk-io").doesNotContain("nioEventLoop");

            held.release.countDown();
            await(() -> lookUp(client) == Errors.NONE, "the group's coordinator once the topic exists");
            assertThat(held.created).as("every partition's log").hasValue(OFFSETS_PARTITIONS);
        }
    }

    private static Errors lookUp(GroupWireClient client) {
        try {
            return findCoordinator(client);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Errors findCoordinator(GroupWireClient client) throws IOException {
        FindCoordinatorRequestView request = new FindCoordinatorRequestView().keyType((byte) 0)
                .coordinatorKeys(List.of("a-group"));
        FindCoordinatorResponseView response = new FindCoordinatorResponseView(
                client.call(ApiKey.FIND_COORDINATOR, 4, request.struct()));
        return Errors.forCode(response.coordinators().get(0).errorCode());
    }

    /**
     * Holds the thread creating the offsets topic where the log manager says it created the topic's first log (with
     * the manager's lock held, as a slow disk would), and counts the logs created.
     */
    private static final class HeldCreation extends AppenderBase<ILoggingEvent> {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger created = new AtomicInteger();
        volatile String thread;

        @Override
        protected void append(ILoggingEvent event) {
            if (!event.getFormattedMessage().startsWith("Created log for " + OffsetsTopic.NAME + "-")) {
                return;
            }
            if (created.incrementAndGet() == 1) {
                thread = Thread.currentThread().getName();
                entered.countDown();
                try {
                    release.await(HOLD_LIMIT_S, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
