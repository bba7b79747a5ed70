package io.minibroker.broker.replica;

import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * acks=all on three nodes with replication factor 3: followers copy the leader's log before the producer hears.
 *
 * <p>The cluster runs on a manual clock that moves on by itself ({@link SessionClock#startRunning}), never past a
 * live node's last heartbeat: no live node is fenced on a loaded machine, shrinking the ISR under the acks=all
 * produces. The sessions are long (30 s of that clock): killed followers stay in the ISR for the whole test.
 */
class ReplicationTest {

    private static final String TOPIC = "replicated";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 300;

    private MiniCluster cluster;
    private SessionClock.Running running;

    @BeforeEach
    void start() throws Exception {
        running = SessionClock.startRunning(3, 30_000, Map.of());
        cluster = running.cluster();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3))).all().get();
        }
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> logGauge(id, "kafka.log.log.logendoffset", 0) != null, "node " + id + " hosts the topic");
        }
    }

    @AfterEach
    void close() {
        running.close();
    }

    @Test
    void everyRecordAcknowledgedWithAcksAllIsOnAllThreeLogs() throws Exception {
        Map<Integer, Long> ackedPerPartition = new HashMap<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, "5"), new StringSerializer(), new StringSerializer())) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                sends.add(producer.send(new ProducerRecord<>(TOPIC, "key-" + i, "value-" + i)));
            }
            for (Future<RecordMetadata> send : sends) {
                RecordMetadata acked = send.get();
                ackedPerPartition.merge(acked.partition(), acked.offset() + 1, Math::max);
            }
        }
        assertThat(ackedPerPartition.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(RECORDS);

        // Acknowledged means replicated: every log already ends past its partition's acknowledged records, and
        // the three copies of a partition are the same bytes.
        for (int partition = 0; partition < PARTITIONS; partition++) {
            long acked = ackedPerPartition.getOrDefault(partition, 0L);
            for (int node = 0; node < 3; node++) {
                assertThat(logGauge(node, "kafka.log.log.logendoffset", partition)).as("node %d partition %d", node,
                        partition).isGreaterThanOrEqualTo((double) acked);
            }
            int p = partition;
            await(() -> logGauge(0, "kafka.log.log.size", p).equals(logGauge(1, "kafka.log.log.size", p))
                    && logGauge(1, "kafka.log.log.size", p).equals(logGauge(2, "kafka.log.log.size", p)),
                    "the three copies of partition " + p + " to be the same size");
        }
        // ReplicationBytesIn/Out (all topics, as in Kafka): the two followers of each partition appended the bytes
        // its leader took from producers, and the leaders sent followers exactly those.
        double producedBytes = 0;
        double replicatedIn = 0;
        double replicatedOut = 0;
        for (int node = 0; node < 3; node++) {
            MeterRegistry meters = cluster.node(node).meterRegistry();
            var bytesIn = meters.find("kafka.server.brokertopicmetrics.bytesin").tag("topic", TOPIC).counter();
            producedBytes += bytesIn == null ? 0 : bytesIn.count();
            replicatedIn += meters.get("kafka.server.brokertopicmetrics.replicationbytesin").counter().count();
            replicatedOut += meters.get("kafka.server.brokertopicmetrics.replicationbytesout").counter().count();
        }
        assertThat(producedBytes).isPositive();
        assertThat(replicatedIn).as("two followers' copies of the produced bytes").isEqualTo(2 * producedBytes);
        assertThat(replicatedOut).as("what leaders sent followers").isEqualTo(replicatedIn);
        double completed = 0;
        for (int node = 0; node < 3; node++) {
            completed += purgatoryCounter(node, "purgatory.completions");
            assertThat(purgatoryCounter(node, "purgatory.expirations")).isZero();
        }
        assertThat(completed).as("acks=all produces parked and completed by followers' fetches").isPositive();
        // Each node leads one partition, which the two others fetch in an incremental fetch session each (KIP-227).
        for (int node = 0; node < 3; node++) {
            MeterRegistry meters = cluster.node(node).meterRegistry();
            assertThat(meters.get("kafka.server.fetchsessioncache.numincrementalfetchsessions").gauge().value())
                    .as("node %d's followers' sessions", node).isEqualTo(2.0);
            assertThat(meters.get("kafka.server.fetchsessioncache.numincrementalfetchpartitionscached").gauge()
                    .value()).as("node %d's partition in each", node).isEqualTo(2.0);
        }
        assertThat(readAll()).hasSize(RECORDS);
    }

    @Test
    void anAcksAllProduceThatFollowersCannotReplicateExpires() throws Exception {
        // Killed, not stopped: they stay in the ISR until their sessions expire (a stop would fence them at once,
        // and the controller would take them out of the ISR).
        cluster.kill(1);
        cluster.kill(2);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "1000",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "2500"), new StringSerializer(), new StringSerializer())) {
            // Partition 0 of the first topic is led by node 0 (placement starts at the first live broker).
            Future<RecordMetadata> send = producer.send(new ProducerRecord<>(TOPIC, 0, "k", "v"));

            assertThatThrownBy(send::get).hasCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
        }
        // The producer gives up on the real clock, the leader's produce expires on the cluster's: not before the
        // clock has moved by the request's timeout.
        await(() -> purgatoryCounter(0, "purgatory.expirations") > 0,
                "the parked produce to expire: REQUEST_TIMED_OUT");
        assertThat(logGauge(0, "kafka.log.log.logendoffset", 0)).as("appended on the leader all the same").isPositive();
    }

    private List<ConsumerRecord<String, String>> readAll() {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int partition = 0; partition < PARTITIONS; partition++) {
                partitions.add(new TopicPartition(TOPIC, partition));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (records.size() < RECORDS && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    private Double logGauge(int node, String name, int partition) {
        MeterRegistry registry = cluster.node(node).meterRegistry();
        var gauge = registry.find(name).tag("topic", TOPIC).tag("partition", Integer.toString(partition)).gauge();
        return gauge == null ? null : gauge.value();
    }

    private double purgatoryCounter(int node, String name) {
        var counter = cluster.node(node).meterRegistry().find(name).tag("delayedOperation", "Produce")
                .functionCounter();
        return counter == null ? 0 : counter.count();
    }
}
