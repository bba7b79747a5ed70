package io.minibroker.broker.transaction;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.DescribeProducersRequestView;
import io.minibroker.protocol.message.view.DescribeProducersResponseView;
import io.minibroker.protocol.message.view.DescribeProducersResponseView.ProducerState;
import io.minibroker.protocol.message.view.FetchResponseView.AbortedTransaction;
import io.minibroker.protocol.message.view.FetchResponseView.PartitionData;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.transaction.TxnWire.READ_COMMITTED;
import static io.minibroker.broker.transaction.TxnWire.READ_UNCOMMITTED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transactions at the wire on one node: transactional produces (of transactions the coordinator opened, which it
 * never ends: the test writes their markers), WriteTxnMarkers as a coordinator sends them, then
 * what read_committed and read_uncommitted fetches and ListOffsets answer; a parked read_committed fetch woken by
 * a marker; the last stable offset and the aborted index after a restart.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransactionMarkersWireTest {

    private static final String TOPIC = "txn";
    private static final String COMMITTER = "committer";
    private static final String ABORTER = "aborter";

    @TempDir
    Path logDir;

    private static short errorOf(WriteTxnMarkersResponseView response, int marker, int topic) {
        return response.markers().get(marker).topics().get(topic).partitions().get(0).errorCode();
    }

    private static List<Long> abortedProducers(PartitionData partition) {
        return partition.abortedTransactions().stream().map(AbortedTransaction::producerId).toList();
    }

    /** Offsets 0..2 by the committer's transaction, 3..4 by the aborter's, 5 plain. */
    private static Producers produceTwoTransactions(TxnWire wire) throws Exception {
        Producers producers = new Producers(wire.beginTransaction(COMMITTER, TOPIC),
                wire.beginTransaction(ABORTER, TOPIC));
        assertThat(wire.produce(TOPIC, producers.committer(), 0, "c0", "c1", "c2").errorCode()).isZero();
        assertThat(wire.produce(TOPIC, producers.aborter(), 0, "a0", "a1").baseOffset()).isEqualTo(3);
        assertThat(wire.producePlain(TOPIC, "plain").baseOffset()).isEqualTo(5);
        return producers;
    }

    private record Producers(TxnWire.Producer committer, TxnWire.Producer aborter) {
    }

    @Test
    void readCommittedReadsUpToTheLastStableOffsetAndIsToldOfAbortedTransactions() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             TxnWire wire = new TxnWire(broker.boundPort("PLAINTEXT"))) {
            wire.createTopic(TOPIC);
            Producers producers = produceTwoTransactions(wire);
            long committer = producers.committer().id();
            long aborter = producers.aborter().id();

            PartitionData committed = wire.fetch(TOPIC, 0, READ_COMMITTED);
            assertThat(committed.errorCode()).isZero();
            assertThat(committed.highWatermark()).isEqualTo(6);
            assertThat(committed.lastStableOffset()).isZero();
            assertThat(TxnWire.batches(committed)).isEmpty();
            PartitionData uncommitted = wire.fetch(TOPIC, 0, READ_UNCOMMITTED);
            assertThat(uncommitted.lastStableOffset()).isZero();
            assertThat(TxnWire.batches(uncommitted)).hasSize(3);
            assertThat(uncommitted.abortedTransactions()).isNull();
            assertThat(wire.latest(TOPIC, READ_COMMITTED).offset()).isZero();
            assertThat(wire.latest(TOPIC, READ_UNCOMMITTED).offset()).isEqualTo(6);

            // Both markers in one request, as a coordinator batches them.
            WriteTxnMarkersRequestView markers = new WriteTxnMarkersRequestView();
            TxnWire.addMarker(markers, committer, (short) 0, 0, true, TOPIC);
            TxnWire.addMarker(markers, aborter, (short) 0, 0, false, TOPIC);
            WriteTxnMarkersResponseView written = wire.writeMarkers(markers);
            assertThat(written.markers()).extracting(m -> m.producerId()).containsExactly(committer, aborter);
            assertThat(errorOf(written, 0, 0)).isEqualTo(Errors.NONE.code());
            assertThat(errorOf(written, 1, 0)).isEqualTo(Errors.NONE.code());

            committed = wire.fetch(TOPIC, 0, READ_COMMITTED);
            assertThat(committed.lastStableOffset()).isEqualTo(8);
            assertThat(committed.highWatermark()).isEqualTo(8);
            assertThat(TxnWire.batches(committed)).extracting(TxnWire.FetchedBatch::control)
                    .containsExactly(false, false, false, true, true); // the consumer filters by the markers
            assertThat(committed.abortedTransactions()).hasSize(1);
            assertThat(committed.abortedTransactions().get(0).producerId()).isEqualTo(aborter);
            assertThat(committed.abortedTransactions().get(0).firstOffset()).isEqualTo(3);
            assertThat(wire.fetch(TOPIC, 6, READ_COMMITTED).abortedTransactions()).extracting(a -> a.producerId())
                    .containsExactly(aborter); // the fetch starts before its marker
            assertThat(wire.fetch(TOPIC, 8, READ_COMMITTED).abortedTransactions()).isEmpty();
            assertThat(wire.latest(TOPIC, READ_COMMITTED).offset()).isEqualTo(8);
            assertThat(wire.fetch(TOPIC, 0, READ_UNCOMMITTED).lastStableOffset()).isEqualTo(8);
        }
    }

    @Test
    void aReadCommittedKafkaConsumerSeesOnlyTheCommittedRecords() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             TxnWire wire = new TxnWire(broker.boundPort("PLAINTEXT"))) {
            wire.createTopic(TOPIC);
            Producers producers = produceTwoTransactions(wire);
            wire.writeMarker(producers.committer().id(), producers.committer().epoch(), 0, true, TOPIC);
            wire.writeMarker(producers.aborter().id(), producers.aborter().epoch(), 0, false, TOPIC);
            // Still in the aborter's transaction for the coordinator, which never ended it: verified, and open.
            assertThat(wire.produce(TOPIC, producers.aborter(), 2, "a2").baseOffset()).isEqualTo(8);

            assertThat(consume(broker, "read_committed", 4)).containsExactly("c0", "c1", "c2", "plain");
            assertThat(consume(broker, "read_uncommitted", 7))
                    .containsExactly("c0", "c1", "c2", "a0", "a1", "plain", "a2");
        }
    }

    /** Every value a kafka-clients consumer at the isolation level reads from the start, once it has read {@code n}. */
    private static List<String> consume(Broker broker, String isolation, int n) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT"));
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            while (values.size() < n) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> values.add(record.value()));
            }
            // Nothing more comes: the consumer is at the end its isolation level may read.
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            while (consumer.position(partition) < end) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> values.add(record.value()));
            }
        }
        return values;
    }

    @Test
    void describeProducersShowsTheOpenTransactionAndTheLastCoordinatorEpoch() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             TxnWire wire = new TxnWire(broker.boundPort("PLAINTEXT"))) {
            wire.createTopic(TOPIC);
            TxnWire.Producer committer = wire.beginTransaction(COMMITTER, TOPIC);
            wire.producePlain(TOPIC, "plain"); // 0
            wire.produce(TOPIC, committer, 0, "c0"); // 1
            ProducerState open = describeProducer(wire);
            assertThat(open.currentTxnStartOffset()).isEqualTo(1);
            assertThat(open.coordinatorEpoch()).isEqualTo(-1);

            wire.writeMarker(committer.id(), (short) 0, 9, true, TOPIC);
            ProducerState ended = describeProducer(wire);
            assertThat(ended.currentTxnStartOffset()).isEqualTo(-1);
            assertThat(ended.coordinatorEpoch()).isEqualTo(9);
        }
    }

    private static ProducerState describeProducer(TxnWire wire) throws Exception {
        DescribeProducersRequestView request = new DescribeProducersRequestView();
        request.addTopic().name(TOPIC).partitionIndexes(List.of(0));
        List<ProducerState> producers = new DescribeProducersResponseView(
                wire.call(ApiKey.DESCRIBE_PRODUCERS, (short) 0, request.struct()))
                .topics().get(0).partitions().get(0).activeProducers();
        assertThat(producers).hasSize(1);
        return producers.get(0);
    }

    @Test
    void markersAreRefusedWithKafkasErrors() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             TxnWire wire = new TxnWire(broker.boundPort("PLAINTEXT"))) {
            wire.createTopic(TOPIC);
            wire.initProducer(COMMITTER);
            TxnWire.Producer committer = wire.beginTransaction(COMMITTER, TOPIC); // epoch 1, so one below exists
            long producerId = committer.id();
            short epoch = committer.epoch();
            assertThat(wire.produce(TOPIC, committer, 0, "x").errorCode()).isZero();

            WriteTxnMarkersRequestView request = new WriteTxnMarkersRequestView();
            TxnWire.addMarker(request, producerId, (short) (epoch - 1), 0, true, TOPIC, "no-such-topic");
            request.markers().get(0).addTopic().name(TOPIC).partitionIndexes(List.of(7));
            WriteTxnMarkersResponseView refused = wire.writeMarkers(request);
            assertThat(errorOf(refused, 0, 0)).isEqualTo(Errors.INVALID_PRODUCER_EPOCH.code());
            assertThat(errorOf(refused, 0, 1)).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(refused.markers().get(0).topics().get(2).partitions().get(0).partitionIndex()).isEqualTo(7);
            assertThat(errorOf(refused, 0, 2)).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(wire.fetch(TOPIC, 0, READ_COMMITTED).lastStableOffset()).isZero(); // still open

            assertThat(errorOf(wire.writeMarker(producerId, epoch, 2, true, TOPIC), 0, 0)).isZero();
            assertThat(errorOf(wire.writeMarker(producerId, epoch, 1, false, TOPIC), 0, 0))
                    .isEqualTo(Errors.TRANSACTION_COORDINATOR_FENCED.code());
            assertThat(wire.fetch(TOPIC, 0, READ_COMMITTED).lastStableOffset()).isEqualTo(2);
        }
    }

    @Test
    void aTransactionVersion2MarkerMustCarryAnEpochAboveTheProducersUnlessItRepeatsOneWritten() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             TxnWire wire = new TxnWire(broker.boundPort("PLAINTEXT"))) {
            wire.createTopic(TOPIC);
            TxnWire.Producer committer = wire.beginTransaction(COMMITTER, TOPIC);
            long producerId = committer.id();
            short epoch = committer.epoch();
            assertThat(wire.produce(TOPIC, committer, 0, "x").errorCode()).isZero();

            // KIP-1228: a TV2 coordinator bumps the epoch for the marker; one at the transaction's epoch is stale.
            assertThat(errorOf(wire.writeMarkerV2(producerId, epoch, true, (byte) 2, TOPIC), 0, 0))
                    .isEqualTo(Errors.INVALID_PRODUCER_EPOCH.code());
            assertThat(wire.fetch(TOPIC, 0, READ_COMMITTED).lastStableOffset()).isZero(); // still open
            // Legacy markers (TransactionVersion 0, or WriteTxnMarkers v1) carry the transaction's own epoch.
            assertThat(errorOf(wire.writeMarkerV2(producerId, epoch, false, (byte) 0, TOPIC), 0, 0)).isZero();
            assertThat(wire.fetch(TOPIC, 0, READ_COMMITTED).lastStableOffset()).isEqualTo(2);

            assertThat(wire.produce(TOPIC, committer, 1, "y").errorCode()).isZero();
            short bumped = (short) (epoch + 1);
            assertThat(errorOf(wire.writeMarkerV2(producerId, bumped, true, (byte) 2, TOPIC), 0, 0)).isZero();
            assertThat(wire.fetch(TOPIC, 0, READ_COMMITTED).lastStableOffset()).isEqualTo(4);
            // The same marker again with no transaction open is a retry of one written (KAFKA-19999): accepted.
            assertThat(errorOf(wire.writeMarkerV2(producerId, bumped, true, (byte) 2, TOPIC), 0, 0)).isZero();
            assertThat(wire.fetch(TOPIC, 0, READ_COMMITTED).lastStableOffset()).isEqualTo(5);
        }
    }

    @Test
    void aParkedReadCommittedFetchIsAnsweredWhenAMarkerMovesTheLastStableOffset() throws Exception {
        // On a manual clock the fetch can never time out: only the marker can answer it.
        try (Broker broker = TestBrokers.start(logDir, Map.of(), new ManualClock(0));
             TxnWire wire = new TxnWire(broker.boundPort("PLAINTEXT"));
             TxnWire consumer = new TxnWire(broker.boundPort("PLAINTEXT"))) {
            wire.createTopic(TOPIC);
            TxnWire.Producer committer = wire.beginTransaction(COMMITTER, TOPIC);
            assertThat(wire.produce(TOPIC, committer, 0, "c0", "c1").errorCode()).isZero();

            consumer.sendFetch(TOPIC, 0, READ_COMMITTED, 60_000);
            // A read_uncommitted fetch on the same connection would be answered only after the parked one.
            assertThat(errorOf(wire.writeMarker(committer.id(), (short) 0, 0, true, TOPIC), 0, 0)).isZero();

            PartitionData answered = consumer.receiveFetch();
            assertThat(answered.lastStableOffset()).isEqualTo(3);
            assertThat(TxnWire.batches(answered)).extracting(TxnWire.FetchedBatch::baseOffset).containsExactly(0L, 2L);
        }
    }

    @Test
    void theLastStableOffsetAndTheAbortedIndexSurviveARestart() throws Exception {
        TxnWire.Producer aborter;
        TxnWire.Producer committer;
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             TxnWire wire = new TxnWire(broker.boundPort("PLAINTEXT"))) {
            wire.createTopic(TOPIC);
            aborter = wire.beginTransaction(ABORTER, TOPIC);
            committer = wire.beginTransaction(COMMITTER, TOPIC);
            assertThat(wire.produce(TOPIC, aborter, 0, "a0").errorCode()).isZero(); // 0
            assertThat(errorOf(wire.writeMarker(aborter.id(), (short) 0, 0, false, TOPIC), 0, 0)).isZero(); // 1
            assertThat(wire.produce(TOPIC, committer, 0, "c0").baseOffset()).isEqualTo(2);
        }
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             TxnWire wire = new TxnWire(broker.boundPort("PLAINTEXT"))) {
            PartitionData committed = wire.fetch(TOPIC, 0, READ_COMMITTED);
            assertThat(committed.lastStableOffset()).isEqualTo(2);
            assertThat(abortedProducers(committed)).containsExactly(aborter.id());
            assertThat(wire.latest(TOPIC, READ_COMMITTED).offset()).isEqualTo(2);
            // The producer's state came back from the log too: its sequence goes on, its marker lands.
            assertThat(wire.produce(TOPIC, committer, 1, "c1").baseOffset()).isEqualTo(3);
            assertThat(errorOf(wire.writeMarker(committer.id(), (short) 0, 0, true, TOPIC), 0, 0)).isZero();
            assertThat(wire.fetch(TOPIC, 0, READ_COMMITTED).lastStableOffset()).isEqualTo(5);
        }
    }
}
