package io.minibroker.it;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consume-transform-produce loop as an exactly-once application writes it: poll "input" (read_committed, group
 * "transformers"), send each record's "out-" twin to "output" in a transaction with the consumed offsets
 * ({@code sendOffsetsToTransaction}), commit. Every {@code abortEvery}-th transaction is aborted on purpose and its
 * input read again from the group's committed offsets. Runs until the group has committed the input's end.
 */
final class TransformLoop {

    static final String GROUP = "transformers";
    static final String TRANSACTIONAL_ID = "transformer";

    private final KafkaConsumer<String, String> consumer;
    private final KafkaProducer<String, String> producer;
    private final List<TopicPartition> inputPartitions;
    private final int abortEvery;
    /** Transactions committed so far, which another thread may watch. */
    final AtomicInteger committed = new AtomicInteger();

    TransformLoop(String bootstrap, int inputPartitions, int abortEvery, Map<String, ?> clientSettings) {
        this.inputPartitions = IntStream.range(0, inputPartitions).mapToObj(p -> new TopicPartition("input", p))
                .toList();
        this.abortEvery = abortEvery;
        Map<String, Object> consumerSettings = new HashMap<>(clientSettings);
        consumerSettings.putAll(Map.of("group.id", GROUP, "max.poll.records", 50, "auto.offset.reset", "earliest"));
        consumer = TxClients.consumer(bootstrap, "read_committed", consumerSettings);
        producer = TxClients.transactionalProducer(bootstrap, TRANSACTIONAL_ID, clientSettings);
    }

    /**
     * Has the coordinators of the loop's transactional id and group ready, through clients with Kafka's default
     * patience, for a loop whose clients are {@link TxClients#IMPATIENT}: the first InitProducerId creates
     * {@code __transaction_state}, and the group's first offset fetch {@code __consumer_offsets}, topics of 50
     * partitions each that a loaded machine takes longer to create and load than an impatient client's 5 s. Those
     * clients are impatient about a dead broker, not about a cluster that is starting.
     */
    static void readyCoordinators(String bootstrap) {
        try (KafkaProducer<String, String> producer = TxClients.transactionalProducer(bootstrap, TRANSACTIONAL_ID,
                Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000))) {
            producer.initTransactions();
        }
        try (KafkaConsumer<String, String> consumer = TxClients.consumer(bootstrap, "read_committed",
                Map.of("group.id", GROUP))) {
            consumer.committed(Set.of(new TopicPartition("input", 0)), Duration.ofSeconds(60));
        }
    }

    /** Runs to the end of the input; the clients are closed at the end, or on the first error, which is thrown. */
    void run() {
        try {
            producer.initTransactions();
            consumer.subscribe(List.of("input"));
            int transactions = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!atEnd()) {
                assertThat(System.nanoTime()).as("consumed all input in time").isLessThan(deadline);
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
                if (records.isEmpty()) {
                    continue;
                }
                producer.beginTransaction();
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (ConsumerRecord<String, String> record : records) {
                    producer.send(new ProducerRecord<>("output", record.key(), record.value().replace("in-", "out-")));
                    offsets.put(new TopicPartition(record.topic(), record.partition()),
                            new OffsetAndMetadata(record.offset() + 1));
                }
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                if (abortEvery > 0 && ++transactions % abortEvery == 0) {
                    producer.abortTransaction();
                    rewindToCommitted();
                } else {
                    producer.commitTransaction();
                    committed.incrementAndGet();
                }
            }
        } finally {
            producer.close(Duration.ZERO);
            consumer.close(Duration.ZERO);
        }
    }

    private boolean atEnd() {
        if (!consumer.assignment().containsAll(inputPartitions)) {
            return false;
        }
        Map<TopicPartition, Long> ends = consumer.endOffsets(inputPartitions);
        Map<TopicPartition, OffsetAndMetadata> offsets = consumer.committed(Set.copyOf(inputPartitions));
        return inputPartitions.stream().allMatch(tp -> offsets.get(tp) != null
                && offsets.get(tp).offset() == ends.get(tp));
    }

    /** After an abort, back to the group's committed offsets (the aborted ones never were). */
    private void rewindToCommitted() {
        Map<TopicPartition, OffsetAndMetadata> offsets = consumer.committed(consumer.assignment());
        for (TopicPartition tp : consumer.assignment()) {
            OffsetAndMetadata offset = offsets.get(tp);
            if (offset == null) {
                consumer.seekToBeginning(List.of(tp));
            } else {
                consumer.seek(tp, offset);
            }
        }
    }

    /** The output, read_committed, holds each input's output exactly once, and the group committed every input. */
    static void assertOutputOnceAndOffsetsAtEnd(String bootstrap, int inputs, int inputPartitionCount,
                                                int outputPartitionCount) {
        List<TopicPartition> inputPartitions = IntStream.range(0, inputPartitionCount)
                .mapToObj(p -> new TopicPartition("input", p)).toList();
        List<TopicPartition> outputPartitions = IntStream.range(0, outputPartitionCount)
                .mapToObj(p -> new TopicPartition("output", p)).toList();
        List<String> output = TxClients.values(TxClients.readToEnd(bootstrap, "read_committed", outputPartitions));
        assertThat(output).as("every input's output, once")
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, inputs).mapToObj(i -> "out-" + i).toList());
        try (KafkaConsumer<String, String> consumer = TxClients.consumer(bootstrap, "read_committed",
                Map.of("group.id", GROUP))) {
            Map<TopicPartition, Long> ends = consumer.endOffsets(inputPartitions);
            Map<TopicPartition, OffsetAndMetadata> offsets = consumer.committed(Set.copyOf(inputPartitions));
            for (TopicPartition tp : inputPartitions) {
                assertThat(offsets.get(tp)).as("committed offset of " + tp).isNotNull();
                assertThat(offsets.get(tp).offset()).as("committed offset of " + tp).isEqualTo(ends.get(tp));
            }
        }
    }
}
