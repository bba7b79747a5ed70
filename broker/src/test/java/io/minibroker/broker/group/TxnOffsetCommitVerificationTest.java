package io.minibroker.broker.group;

import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.TransactionResult;
import io.minibroker.broker.transaction.TransactionalOffsetsCheck;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView;
import io.minibroker.protocol.message.view.TxnOffsetCommitResponseView;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * KIP-890's verification guard on TxnOffsetCommit's write, as Kafka's group coordinator takes one before asking the
 * transaction coordinator: a transaction that ends (its marker on the group's partition of {@code __consumer_offsets})
 * while the coordinator's yes is on its way refuses the late write instead of leaving a transaction open on that
 * partition that no coordinator knows of, whose last stable offset would then never move and whose offsets would stay
 * pending for ever. The transaction coordinator is a stand-in whose answers the test holds.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TxnOffsetCommitVerificationTest {

    private static final RequestContext CONTEXT = TestContexts.on("PLAINTEXT");
    private static final String GROUP = "g";
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final long PRODUCER = 42;
    /** v4: a transaction version 1 client, whose abort marker keeps the transaction's epoch. */
    private static final short TV1_VERSION = 4;
    /** v5: a transaction version 2 client, whose coordinator bumps the epoch in the marker. */
    private static final short TV2_VERSION = 5;

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private GroupCoordinator coordinator;
    private TxnOffsetCommitHandler handler;
    /** The transaction coordinator's answers, held until the test gives them (asked from the coordinator's thread). */
    private final List<CompletableFuture<Errors>> asked = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString(),
                "offsets.topic.num.partitions", "1", "offsets.topic.replication.factor", "1"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("orders", 1, 1, Map.of(), false);
        coordinator = new GroupCoordinator(config, topics, BrokerClock.system());
        TransactionalOffsetsCheck transactionCoordinator = (id, producerId, epoch, partition, version) -> {
            CompletableFuture<Errors> answer = new CompletableFuture<>();
            asked.add(answer);
            return answer;
        };
        handler = new TxnOffsetCommitHandler(coordinator, topics, transactionCoordinator);
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    @Test
    void aCommitVerifiedJustBeforeItsTransactionWasAbortedIsRefusedNotLeftHanging() throws Exception {
        CompletableFuture<Struct> late = commit(10, (short) 0, TV1_VERSION);
        await(() -> asked.size() == 1, "the transaction coordinator asked");
        endTransaction(TransactionResult.ABORT, (short) 0, (short) 1); // the coordinator's timeout
        asked.get(0).complete(Errors.NONE); // its yes, from before the abort

        assertThat(error(late)).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(offsetsLog().ongoingTransactions()).as("no hanging transaction").isEmpty();
        assertThat(offsetsLog().logEndOffset()).as("the marker only").isEqualTo(1);
        assertThat(offsetsLog().lastStableOffset()).isEqualTo(1);
        assertThat(coordinator.offsets().hasPendingTransactionalOffset(GROUP, ORDERS_0)).isFalse();
    }

    @Test
    void aTransactionVersion2CommitOfTheEpochItsAbortBumpedIsRefusedByTheEpoch() throws Exception {
        CompletableFuture<Struct> late = commit(10, (short) 0, TV2_VERSION);
        await(() -> asked.size() == 1, "the transaction coordinator asked");
        endTransaction(TransactionResult.ABORT, (short) 1, (short) 2);
        asked.get(0).complete(Errors.NONE);

        assertThat(error(late)).isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
        assertThat(offsetsLog().ongoingTransactions()).as("no hanging transaction").isEmpty();
        assertThat(offsetsLog().logEndOffset()).as("the marker only").isEqualTo(1);
    }

    @Test
    void aCommitOfATransactionAlreadyOpenOnThePartitionIsWrittenWithoutAsking() throws Exception {
        CompletableFuture<Struct> first = commit(10, (short) 0, TV1_VERSION);
        await(() -> asked.size() == 1, "the transaction coordinator asked");
        asked.get(0).complete(Errors.NONE);
        assertThat(error(first)).isEqualTo(Errors.NONE);
        assertThat(offsetsLog().ongoingTransactions()).containsOnlyKeys(PRODUCER);

        CompletableFuture<Struct> second = commit(11, (short) 0, TV1_VERSION);
        await(() -> second.isDone() || asked.size() > 1, "the commit written, or the coordinator asked");
        assertThat(asked).as("the transaction is open there: nothing to verify").hasSize(1);
        assertThat(error(second)).isEqualTo(Errors.NONE);

        endTransaction(TransactionResult.COMMIT, (short) 0, (short) 1);
        assertThat(coordinator.offsets().all(GROUP).get(ORDERS_0).offset()).isEqualTo(11);
        assertThat(offsetsLog().ongoingTransactions()).isEmpty();
    }

    private PartitionLog offsetsLog() {
        return topics.partitionLog(topics.get(OffsetsTopic.NAME).orElseThrow(), 0).orElseThrow();
    }

    /** The producer's marker on the offsets partition, as its coordinator has the leader write it. */
    private void endTransaction(TransactionResult result, short epoch, short transactionVersion) {
        ByteBuf marker = new EndTransactionMarker(result == TransactionResult.COMMIT ? EndTransactionMarker.COMMIT
                : EndTransactionMarker.ABORT, 0).toBatch(ByteBufAllocator.DEFAULT, PRODUCER, epoch, 1L);
        try {
            offsetsLog().appendMarkerUnflushed(marker, PRODUCER, epoch, 0, transactionVersion, 0);
        } finally {
            marker.release();
        }
        coordinator.onTransactionCompleted(new TopicPartition(OffsetsTopic.NAME, 0), PRODUCER, result);
    }

    private CompletableFuture<Struct> commit(long offset, short epoch, short version) {
        TxnOffsetCommitRequestView body = new TxnOffsetCommitRequestView().transactionalId("tx").groupId(GROUP)
                .producerId(PRODUCER).producerEpoch(epoch).generationIdOrMemberEpoch(-1).memberId("");
        body.addTopic().name(ORDERS_0.topic()).addPartition().partitionIndex(ORDERS_0.partition())
                .committedOffset(offset).committedLeaderEpoch(-1).committedMetadata("");
        ByteBuf encoded = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.TXN_OFFSET_COMMIT.id(), version, 1, "test"), body.struct());
        Request request = MessageCodec.decodeRequest(Frames.readFrame(encoded, Integer.MAX_VALUE));
        return handler.handle(CONTEXT, request).toCompletableFuture();
    }

    private static Errors error(CompletableFuture<Struct> response) throws Exception {
        return Errors.forCode(new TxnOffsetCommitResponseView(response.get()).topics().get(0).partitions().get(0)
                .errorCode());
    }
}
