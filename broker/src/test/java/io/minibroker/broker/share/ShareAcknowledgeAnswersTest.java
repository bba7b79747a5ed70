package io.minibroker.broker.share;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.api.TestLeadership;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TestLogs;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ShareAcknowledgeRequestView;
import io.minibroker.protocol.message.view.ShareAcknowledgeResponseView;
import io.minibroker.protocol.message.view.ShareFetchRequestView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.share.ShareWire.ack;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * How ShareFetch and ShareAcknowledge answer each partition's acknowledgements, through their handlers: with Kafka
 * 4.3.1's error and message (KafkaApis' own checks without one, its SharePartition's refusals with their text, a
 * failed state write with the share coordinator's), and, when a write is fenced, the partition's current leader.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareAcknowledgeAnswersTest {

    /** The leader this node's metadata names for every partition. */
    private static final PartitionLeadership.CurrentLeader ELSEWHERE =
            new PartitionLeadership.CurrentLeader(7, 3, "localhost", 9093, null);

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private final RequestContext context = TestContexts.onEventLoop(new InetSocketAddress("127.0.0.1", 5555),
            Runnable::run);
    private TopicRegistry topics;
    private UUID topicId;
    private SharePartitionManager manager;
    private ShareFetchHandler fetches;
    private ShareAcknowledgeHandler acknowledgements;
    private int correlationId;

    @BeforeEach
    void start() throws Exception {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        topics.create("t", 1, 1, Map.of(), false);
        topicId = topics.get("t").orElseThrow().id();
    }

    /** The handlers over {@code persister}, on a node that leads the partition but names another node its leader. */
    private void serveWith(Persister persister) {
        ShareGroupSettings earliest = new ShareGroupSettings(30_000, 5, 2000, ShareAutoOffsetReset.EARLIEST, false);
        manager = new SharePartitionManager(clock, clock::nowMs, groupId -> earliest, persister, tp -> 0, 1000);
        PartitionLeadership leadership = new TestLeadership(partition -> true, 1, ELSEWHERE);
        ShareSessionCache sessions = new ShareSessionCache(100);
        ShareLogs logs = new ShareLogs(topics, leadership);
        fetches = new ShareFetchHandler(manager, sessions, logs, 1000, Integer.MAX_VALUE,
                (user, request) -> Integer.MAX_VALUE);
        acknowledgements = new ShareAcknowledgeHandler(manager, sessions, logs);
    }

    @AfterEach
    void stop() throws Exception {
        if (manager != null) {
            manager.close();
        }
        topics.close();
    }

    private void append(int records) {
        PartitionLog log = topics.partitionLog(topics.get("t").orElseThrow(), 0).orElseThrow();
        for (int i = 0; i < records; i++) {
            TestLogs.appendBatchOf(log, 1);
        }
    }

    private ShareFetchResponseView fetch(String member, int epoch, UUID topic, Acknowledgement... acks) {
        ShareFetchRequestView body = new ShareFetchRequestView().groupId("g").memberId(member)
                .shareSessionEpoch(epoch).maxWaitMs(0).minBytes(1).maxBytes(1 << 20).maxRecords(10).batchSize(10);
        ShareFetchRequestView.FetchPartition partition = body.addTopic().topicId(topic).addPartition()
                .partitionIndex(0);
        for (Acknowledgement ack : acks) {
            partition.addAcknowledgementBatche().firstOffset(ack.firstOffset()).lastOffset(ack.lastOffset())
                    .acknowledgeTypes(ack.types());
        }
        Request request = new Request(new RequestHeader(ApiKey.SHARE_FETCH.id(), ShareWire.VERSION,
                ++correlationId, "test"), ApiKey.SHARE_FETCH, body.struct());
        return new ShareFetchResponseView(fetches.handle(context, request).toCompletableFuture().join());
    }

    private ShareAcknowledgeResponseView acknowledge(String member, int epoch, UUID topic, Acknowledgement... acks) {
        ShareAcknowledgeRequestView body = new ShareAcknowledgeRequestView().groupId("g").memberId(member)
                .shareSessionEpoch(epoch);
        ShareAcknowledgeRequestView.AcknowledgePartition partition = body.addTopic().topicId(topic).addPartition()
                .partitionIndex(0);
        for (Acknowledgement ack : acks) {
            partition.addAcknowledgementBatche().firstOffset(ack.firstOffset()).lastOffset(ack.lastOffset())
                    .acknowledgeTypes(ack.types());
        }
        Request request = new Request(new RequestHeader(ApiKey.SHARE_ACKNOWLEDGE.id(), ShareWire.VERSION,
                ++correlationId, "test"), ApiKey.SHARE_ACKNOWLEDGE, body.struct());
        return new ShareAcknowledgeResponseView(acknowledgements.handle(context, request).toCompletableFuture()
                .join());
    }

    private static ShareAcknowledgeResponseView.PartitionData only(ShareAcknowledgeResponseView response) {
        return response.responses().get(0).partitions().get(0);
    }

    private static ShareFetchResponseView.PartitionData only(ShareFetchResponseView response) {
        return response.responses().get(0).partitions().get(0);
    }

    @Test
    void refusedAcknowledgementsCarryKafkasMessages() {
        serveWith(new NoStatePersister());
        append(3);
        assertThat(ShareWire.acquired(fetch("a", 0, topicId))).containsExactly(List.of(0L, 2L, 1L));
        fetch("b", 0, topicId); // b's session: nothing left to acquire

        assertThat(only(acknowledge("b", 1, topicId, ack(0, 0, AcknowledgeType.ACCEPT))))
                .extracting(p -> p.errorCode(), p -> p.errorMessage())
                .containsExactly(Errors.INVALID_RECORD_STATE.code(), "Member is not the owner of batch record");
        assertThat(only(acknowledge("a", 1, topicId, ack(5, 6, AcknowledgeType.ACCEPT))))
                .extracting(p -> p.errorCode(), p -> p.errorMessage())
                .containsExactly(Errors.INVALID_REQUEST.code(),
                        "Batch record not found. The first offset in request is past acquired records.");
        assertThat(only(acknowledge("a", 2, topicId, ack(2, 6, AcknowledgeType.ACCEPT))))
                .extracting(p -> p.errorCode(), p -> p.errorMessage())
                .containsExactly(Errors.INVALID_REQUEST.code(),
                        "Batch record not found. The last offset in request is past acquired records.");
        // KafkaApis' own checks: a malformed batch, a topic id it does not know; no message
        assertThat(only(acknowledge("a", 3, topicId, new Acknowledgement(1, 0, List.of((byte) 1)))))
                .extracting(p -> p.errorCode(), p -> p.errorMessage())
                .containsExactly(Errors.INVALID_REQUEST.code(), null);
        assertThat(only(acknowledge("a", 4, UUID.randomUUID(), ack(0, 0, AcknowledgeType.ACCEPT))))
                .extracting(p -> p.errorCode(), p -> p.errorMessage())
                .containsExactly(Errors.UNKNOWN_TOPIC_ID.code(), null);

        // In a ShareFetch, the AcknowledgeErrorMessage: accepted, then accepted again (past the start offset, which
        // offsets 0 and 1, still acquired, hold back: an acknowledgement below it is skipped, not refused)
        ShareFetchResponseView accepted = fetch("a", 5, topicId, ack(2, 2, AcknowledgeType.ACCEPT));
        assertThat(accepted.responses().get(0).partitions()).extracting(p -> p.acknowledgeErrorCode(),
                p -> p.acknowledgeErrorMessage()).containsExactly(tuple(Errors.NONE.code(), null));
        ShareFetchResponseView again = fetch("a", 6, topicId, ack(2, 2, AcknowledgeType.ACCEPT));
        assertThat(only(again)).extracting(p -> p.acknowledgeErrorCode(), p -> p.acknowledgeErrorMessage())
                .containsExactly(Errors.INVALID_RECORD_STATE.code(),
                        "The batch cannot be acknowledged. The batch is not in the acquired state.");
    }

    @Test
    void aFencedWriteIsAnsweredWithTheCoordinatorsMessageAndTheCurrentLeader() {
        serveWith(new NoStatePersister() {
            @Override
            public CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot, int leaderEpoch,
                                               int stateEpoch) {
                return CompletableFuture.failedFuture(new LogException(Errors.FENCED_STATE_EPOCH, "fenced"));
            }
        });
        append(2);
        assertThat(ShareWire.acquired(fetch("a", 0, topicId))).containsExactly(List.of(0L, 1L, 1L));

        ShareAcknowledgeResponseView fenced = acknowledge("a", 1, topicId, ack(0, 1, AcknowledgeType.ACCEPT));
        ShareAcknowledgeResponseView.PartitionData partition = only(fenced);
        assertThat(partition.errorCode()).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(partition.errorMessage()).isEqualTo(
                "The share coordinator rejected the request because the share-group state epoch did not match.");
        assertThat(partition.currentLeader().leaderId()).isEqualTo(7);
        assertThat(partition.currentLeader().leaderEpoch()).isEqualTo(3);
        assertThat(fenced.nodeEndpoints()).extracting(n -> n.nodeId(), n -> n.host(), n -> n.port())
                .containsExactly(tuple(7, "localhost", 9093));
    }
}
