package io.minibroker.broker.share;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.InitializeShareGroupStateRequestView;
import io.minibroker.protocol.message.view.InitializeShareGroupStateResponseView;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * A broker on a manual clock with one single-partition topic, for the share tests; restartable on its directory.
 * Started on a test's directory by its constructor, or for each test of a class by {@link #eachTest}.
 */
final class ShareBroker implements AutoCloseable, BeforeEachCallback, AfterEachCallback {

    static final String TOPIC = "shared";

    private final Map<String, String> overrides;
    final ManualClock clock = new ManualClock();
    private Path logDir;
    private Broker broker;
    UUID topicId;
    /** The share partitions (group, topic id) whose state the tests initialized on this broker's directory. */
    private final Set<String> initialized = new HashSet<>();

    ShareBroker(Path logDir) throws Exception {
        this(logDir, Map.of());
    }

    ShareBroker(Path logDir, Map<String, String> overrides) throws Exception {
        this(overrides);
        start(logDir);
    }

    /** Not started yet: see {@link #eachTest}. */
    private ShareBroker(Map<String, String> overrides) {
        this.overrides = overrides;
    }

    /**
     * A broker for a test class's {@code @RegisterExtension} field, which then needs no set-up of its own: started
     * before each test (before the class's {@code @BeforeEach} methods) on a directory of its own, closed after it
     * (after the class's {@code @AfterEach} methods), and the directory removed.
     */
    static ShareBroker eachTest() {
        return eachTest(Map.of());
    }

    static ShareBroker eachTest(Map<String, String> overrides) {
        return new ShareBroker(overrides);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        start(Files.createTempDirectory("share-broker-"));
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        if (broker != null) {
            close();
        }
        try (Stream<Path> files = Files.walk(logDir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    private void start(Path directory) throws Exception {
        logDir = directory;
        initialized.clear();
        broker = TestBrokers.start(logDir, overrides, clock);
        topicId = createTopic(TOPIC);
    }

    /** Creates a single-partition topic and gives its id. */
    UUID createTopic(String name) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get();
            byte[] id = Base64.getUrlDecoder().decode(admin.describeTopics(List.of(name)).allTopicNames().get()
                    .get(name).topicId().toString());
            ByteBuffer buffer = ByteBuffer.wrap(id);
            return new UUID(buffer.getLong(), buffer.getLong());
        }
    }

    int port() {
        return broker.boundPort("PLAINTEXT");
    }

    Admin admin() {
        return TestBrokers.admin(broker);
    }

    /** A member of {@code groupId} fetching {@link #TOPIC}, whose share partition is initialized first. */
    ShareWire member(String groupId, String memberId) throws Exception {
        initialize(groupId, topicId);
        return new ShareWire(port(), groupId, memberId, topicId);
    }

    /**
     * Initializes the state of partition 0 of {@code topic} for {@code groupId}, once (InitializeShareGroupState at
     * state epoch 0, no start offset: its first fetch starts where {@code share.auto.offset.reset} says), as a
     * group's heartbeat does before a member is assigned it: as Kafka's, the share coordinator reads and writes no
     * state before, so a share partition never initialized is not served.
     */
    void initialize(String groupId, UUID topic) throws Exception {
        if (!initialized.add(groupId + ":" + topic)) {
            return;
        }
        try (RawClient client = new RawClient(port())) {
            InitializeShareGroupStateRequestView request = new InitializeShareGroupStateRequestView().groupId(groupId);
            request.addTopic().topicId(topic).addPartition().partition(0).stateEpoch(0).startOffset(-1);
            client.send(RawClient.request(ApiKey.INITIALIZE_SHARE_GROUP_STATE, (short) 0, 1, request.struct()));
            short error = new InitializeShareGroupStateResponseView(client.receive(ApiKey.INITIALIZE_SHARE_GROUP_STATE,
                    (short) 0).body()).results().get(0).partitions().get(0).errorCode();
            if (error != Errors.NONE.code()) {
                throw new AssertionError("InitializeShareGroupState answered error " + error);
            }
        }
    }

    /** A kafka-clients share consumer of {@link #TOPIC} in {@code groupId}, acknowledging explicitly. */
    KafkaShareConsumer<String, String> shareConsumer(String groupId) {
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + port(),
                ConsumerConfig.GROUP_ID_CONFIG, groupId,
                "share.acknowledgement.mode", "explicit"), new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(TOPIC));
        return consumer;
    }

    /** Polls until {@code count} records came, accepting each; their values in the order received. */
    List<String> acceptEach(KafkaShareConsumer<String, String> consumer, int count) throws Exception {
        return consume(consumer, count, value -> AcknowledgeType.ACCEPT);
    }

    /**
     * Polls until {@code count} records came, acknowledging each as {@code decide} says (null: not at all); their
     * values in the order received. Each poll's acknowledgements (with the gaps the consumer acknowledges itself)
     * are committed before the next poll: a commitSync sends only the current poll's, while an earlier poll's left
     * to the consumer wait to ride on its next ShareFetch, which may go out after this returns, so the broker's
     * state (a start offset read next) would lag behind.
     */
    List<String> consume(KafkaShareConsumer<String, String> consumer, int count,
                         Function<String, AcknowledgeType> decide) throws Exception {
        List<String> received = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (received.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + received + " of " + count + " records came");
            }
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                received.add(record.value());
                AcknowledgeType type = decide.apply(record.value());
                if (type != null) {
                    consumer.acknowledge(record, type);
                }
            }
            pastParkedFetches(consumer::commitSync);
        }
        return received;
    }

    /**
     * Closes a share consumer, moving this clock past the ShareFetch it may have parked (see
     * {@link #pastParkedFetches}).
     */
    void close(KafkaShareConsumer<?, ?> consumer) throws Exception {
        pastParkedFetches(consumer::close);
    }

    /**
     * Runs a share consumer's {@code call} (a commitSync, a close), moving this clock on while a ShareFetch is
     * parked: the broker answers a connection's requests in order, so a fetch the consumer sent meanwhile, parked
     * until its MaxWaitMs on this clock, would hold the acknowledgements or the leave queued behind it until the
     * request timed out. The clock moves only while a fetch is parked, one consumer fetch.max.wait.ms at a time,
     * so the records' 30 s locks are not reached.
     */
    private void pastParkedFetches(Runnable call) throws Exception {
        CompletableFuture<Void> done = CompletableFuture.runAsync(call);
        while (true) {
            try {
                done.get(50, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException stillWaiting) {
                if (parkedShareFetches() > 0) {
                    clock.advance(500); // a share consumer's fetch.max.wait.ms
                }
            }
        }
    }

    /** The share-partition start offset of {@link #TOPIC}'s partition 0 that Admin.listShareGroupOffsets gives. */
    static long startOffset(Admin admin, String group) throws Exception {
        return admin.listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                .partitionsToOffsetInfo(group).get().get(new TopicPartition(TOPIC, 0)).startOffset();
    }

    void restart() throws Exception {
        broker.close();
        broker = TestBrokers.start(logDir, overrides, clock);
    }

    /** The ShareFetches parked in the broker's "ShareFetch" purgatory now. */
    double parkedShareFetches() {
        return broker.meterRegistry().get("purgatory.delayed.operations").tag("delayedOperation", "ShareFetch")
                .gauge().value();
    }

    /** {@code count} records to {@link #TOPIC}, one batch each. */
    void produce(int count) throws Exception {
        produce(TOPIC, count);
    }

    /** {@code count} records to {@code topic}, one batch each. */
    void produce(String topic, int count) throws Exception {
        produce(topic, count, i -> "v" + i);
    }

    /** {@code count} records of {@code valueBytes} bytes to {@link #TOPIC}, one batch each. */
    void produceValuesOf(int valueBytes, int count) throws Exception {
        produce(TOPIC, count, i -> "v".repeat(valueBytes));
    }

    private void produce(String topic, int count, IntFunction<String> value) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + port(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, value.apply(i))).get();
            }
        }
    }

    /** {@code count} records to {@link #TOPIC} in one batch: held by the producer until its flush. */
    void produceOneBatch(int count) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + port(),
                ProducerConfig.LINGER_MS_CONFIG, "600000",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                sent.add(producer.send(new ProducerRecord<>(TOPIC, "v" + i)));
            }
            producer.flush();
            for (Future<RecordMetadata> future : sent) {
                future.get();
            }
        }
    }

    /** Occupies the broker's disk-io thread until the result is closed ({@link TestBrokers#occupyDiskThread}). */
    AutoCloseable occupyDiskThread() throws Exception {
        return TestBrokers.occupyDiskThread(broker);
    }

    @Override
    public void close() {
        broker.close();
    }
}
