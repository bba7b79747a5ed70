package io.minibroker.broker.produce;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.fetch.FetchHandler;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.CoordinatorProduceCheck;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.SystemClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A transactional Produce asks the coordinator (KIP-890's implicit add) when one of its partitions has no transaction
 * of the producer open at its epoch yet, and then for all of the request's partitions; one whose partitions all have
 * it is appended at once, as Kafka's leader skips the verification then, but never ahead of an earlier request of
 * the producer still waiting for the coordinator; requests that ask go one after the other per producer. A transaction
 * that ends between the coordinator's answer and the append (KIP-890's verification guard) takes the late batch with
 * it: refused, it opens no transaction the coordinator does not know of.
 */
class TransactionalProduceFastPathTest {

    private static final RequestContext CONTEXT = TestContexts.on("PLAINTEXT");
    private static final long PRODUCER = 42;
    private static final TopicPartition TXN_0 = new TopicPartition("txn", 0);
    private static final TopicPartition TXN_1 = new TopicPartition("txn", 1);

    @TempDir
    Path logDir;

    private final Purgatory<DelayedProduce> producePurgatory = ProduceHandler.newPurgatory(1000, SystemClock.INSTANCE);
    private final Purgatory<DelayedFetch> fetchPurgatory = FetchHandler.newPurgatory(1000, SystemClock.INSTANCE);
    /** The coordinator's answers, held until the test gives them. */
    private final List<CompletableFuture<Map<TopicPartition, Errors>>> asked = new ArrayList<>();
    private final List<Collection<TopicPartition>> askedFor = new ArrayList<>();
    private TopicRegistry topics;
    private ProduceHandler produce;
    private PartitionLog p0;
    private PartitionLog p1;

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dirs", logDir.toString()));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("txn", 2, 1, Map.of(), false);
        p0 = topics.partitionLog(topics.get("txn").orElseThrow(), 0).orElseThrow();
        p1 = topics.partitionLog(topics.get("txn").orElseThrow(), 1).orElseThrow();
        produce = handler(config, true);
    }

    /**
     * A handler whose coordinator holds its answers until the test gives them; {@code verification} off, the check
     * the broker builds for {@code transaction.partition.verification.enable=false}.
     */
    private ProduceHandler handler(BrokerConfig config, boolean verification) {
        TransactionalProduceCheck coordinator = (id, producerId, epoch, partitions, version) -> {
            CompletableFuture<Map<TopicPartition, Errors>> answer = new CompletableFuture<>();
            asked.add(answer);
            askedFor.add(List.copyOf(partitions));
            return answer;
        };
        return new ProduceHandler(topics, config, producePurgatory, fetchPurgatory,
                Runnable::run, PartitionLeadership.SINGLE_NODE, new BrokerTopicMetrics(new SimpleMeterRegistry()),
                verification ? coordinator : CoordinatorProduceCheck.addingOnly(coordinator));
    }

    @AfterEach
    void stop() throws Exception {
        producePurgatory.close();
        fetchPurgatory.close();
        topics.close();
    }

    @Test
    void onlyAPartitionNotYetInTheTransactionWaitsForTheCoordinator() throws Exception {
        CompletableFuture<Struct> first = send(0, (short) 0, 0);
        assertThat(asked).hasSize(1);
        assertThat(askedFor.get(0)).containsExactly(TXN_0);
        assertThat(p0.logEndOffset()).as("waits for the coordinator's add").isZero();
        grant(0);
        assertThat(errors(first)).containsExactly(Errors.NONE);

        CompletableFuture<Struct> second = send(0, (short) 0, 1);
        assertThat(asked).as("already in the transaction: appended without asking").hasSize(1);
        assertThat(errors(second)).containsExactly(Errors.NONE);
        assertThat(p0.logEndOffset()).isEqualTo(2);

        CompletableFuture<Struct> bumped = send(0, (short) 1, 0);
        assertThat(asked).as("a new epoch is a new transaction: asked again").hasSize(2);
        assertThat(askedFor.get(1)).containsExactly(TXN_0);
        grant(1);
        assertThat(errors(bumped)).containsExactly(Errors.NONE);
    }

    @Test
    void aRequestDoesNotOvertakeAnEarlierOneOfTheProducerWaitingForTheCoordinator() throws Exception {
        grantNextAndSend(0, 0); // p0 now in the transaction
        Request both = request(Map.of(0, 1, 1, 0)); // p0 seq 1, p1 seq 0: p1 is new, so it waits
        CompletableFuture<Struct> waiting = produce.handle(CONTEXT, both).toCompletableFuture();
        assertThat(asked).hasSize(2);
        assertThat(askedFor.get(1)).as("every partition of the request").containsExactlyInAnyOrder(TXN_0, TXN_1);
        CompletableFuture<Struct> later = send(0, (short) 0, 2); // p0 only, but must not go ahead of seq 1
        assertThat(asked).as("it asks only once the waiting request is appended").hasSize(2);
        assertThat(p0.logEndOffset()).isEqualTo(1);

        grant(1);
        assertThat(asked).as("now it asks, queued behind").hasSize(3);
        assertThat(askedFor.get(2)).containsExactly(TXN_0);
        assertThat(later).isNotDone();
        grant(2);
        assertThat(errors(waiting)).containsOnly(Errors.NONE);
        assertThat(errors(later)).containsExactly(Errors.NONE);
        assertThat(p0.logEndOffset()).isEqualTo(3);

        assertThat(errors(send(0, (short) 0, 3))).containsExactly(Errors.NONE);
        assertThat(asked).as("nothing waits any more: straight in again").hasSize(3);
    }

    @Test
    void aBatchVerifiedJustBeforeItsTransactionWasAbortedIsRefusedNotLeftHanging() throws Exception {
        // A transaction version 1 client (Produce v11): the leader only verifies that the partition is in the
        // transaction, and the coordinator's abort marker (its timeout) carries the transaction's own epoch.
        CompletableFuture<Struct> late = produce.handle(CONTEXT, request(Map.of(0, 0), (short) 0, (short) 11))
                .toCompletableFuture();
        assertThat(asked).hasSize(1);
        ByteBuf marker = new EndTransactionMarker(EndTransactionMarker.ABORT, 0)
                .toBatch(ByteBufAllocator.DEFAULT, PRODUCER, (short) 0, 1L);
        try {
            p0.appendMarkerUnflushed(marker, PRODUCER, (short) 0, 0, (short) 1, 0);
        } finally {
            marker.release();
        }
        grant(0); // the coordinator's yes, from before its abort

        assertThat(errors(late)).containsExactly(Errors.INVALID_TXN_STATE);
        assertThat(p0.ongoingTransactions()).as("no hanging transaction").isEmpty();
        assertThat(p0.logEndOffset()).as("the marker only").isEqualTo(1);
    }

    @Test
    void withVerificationOffARefusedProduceLeavesNoHoldOnTheProducersSequences() throws Exception {
        produce = handler(BrokerConfig.of(Map.of("log.dirs", logDir.toString())), false);
        CompletableFuture<Struct> refused = send(0, (short) 0, 0);
        asked.get(0).complete(Map.of(TXN_0, Errors.CONCURRENT_TRANSACTIONS));
        assertThat(errors(refused)).containsExactly(Errors.CONCURRENT_TRANSACTIONS);

        // Verification on, the log would hold the producer to sequence 0 from its verification (Kafka's
        // VerificationStateEntry) until producer.id.expiration.ms; off, none was started.
        CompletableFuture<Struct> next = send(0, (short) 0, 1);
        grant(1);
        assertThat(errors(next)).containsExactly(Errors.NONE);
    }

    private void grantNextAndSend(int partition, int sequence) throws Exception {
        CompletableFuture<Struct> sent = send(partition, (short) 0, sequence);
        grant(asked.size() - 1);
        assertThat(errors(sent)).containsExactly(Errors.NONE);
    }

    private void grant(int index) {
        Map<TopicPartition, Errors> none = new HashMap<>();
        askedFor.get(index).forEach(partition -> none.put(partition, Errors.NONE));
        asked.get(index).complete(none);
    }

    private CompletableFuture<Struct> send(int partition, short epoch, int sequence) {
        return produce.handle(CONTEXT, request(Map.of(partition, sequence), epoch)).toCompletableFuture();
    }

    private static Request request(Map<Integer, Integer> sequences) {
        return request(sequences, (short) 0);
    }

    /** Produce v12 (transaction version 2) of one transactional batch per partition, at its sequence. */
    private static Request request(Map<Integer, Integer> sequences, short epoch) {
        return request(sequences, epoch, (short) 12);
    }

    /** A Produce of {@code version} of one transactional batch per partition, at its sequence. */
    private static Request request(Map<Integer, Integer> sequences, short epoch, short version) {
        Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", (short) 1).set("TimeoutMs", 5000)
                .set("TransactionalId", "fast");
        Struct topic = body.addElement("TopicData").set("Name", "txn");
        sequences.forEach((partition, sequence) -> {
            ByteBuf records = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, 1L)
                    .producer(PRODUCER, epoch, sequence).transactional(true)
                    .append(1L, null, ("v" + sequence).getBytes(StandardCharsets.UTF_8), List.of())
                    .build();
            topic.addElement("PartitionData").set("Index", partition).set("Records", records);
        });
        ByteBuf encoded = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.PRODUCE.id(), version, 1, "test"), body);
        return MessageCodec.decodeRequest(Frames.readFrame(encoded, Integer.MAX_VALUE));
    }

    private static List<Errors> errors(CompletableFuture<Struct> response) throws Exception {
        assertThat(response).isDone();
        List<Errors> errors = new ArrayList<>();
        for (Struct topic : response.get().getStructs("Responses")) {
            for (Struct partition : topic.getStructs("PartitionResponses")) {
                errors.add(Errors.forCode(partition.getInt16("ErrorCode")));
            }
        }
        return errors;
    }
}
