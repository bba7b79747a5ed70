package io.minibroker.broker.fetch;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.session.TestFetchSessions;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TestLogs;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.schema.RecordsPayload;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Incremental fetch sessions (KIP-227) through the Fetch handler, as Kafka's FetchManager and IncrementalFetchContext
 * answer them: a full fetch at epoch 0 opens a session; an incremental fetch reads the session's partitions and names
 * only those with records, an error, or a high watermark or log start offset the fetcher was not told yet; the epoch,
 * the session id and the topic naming are checked; forgotten partitions leave; epoch -1 closes; a parked incremental
 * fetch is answered with what changed.
 */
class IncrementalFetchTest {

    private static final short V12 = 12;
    private static final short V13 = 13;
    private static final int PARTITIONS = 3;

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private final Purgatory<DelayedFetch> purgatory = FetchHandler.newPurgatory(1000, clock);
    private TopicRegistry topics;
    private UUID topicId;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private FetchHandler handler;

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString()));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("t", PARTITIONS, 1, Map.of(), false);
        topicId = topics.get("t").orElseThrow().id();
        handler = handlerWithSlots(BrokerConfig.MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS.defaultValue());
    }

    private FetchHandler handlerWithSlots(int slots) {
        return new FetchHandler(topics, purgatory, PartitionLeadership.SINGLE_NODE,
                new BrokerTopicMetrics(new SimpleMeterRegistry()), TestFetchSessions.manager(clock, slots, registry),
                BrokerConfig.FETCH_MAX_BYTES.defaultValue(), (user, request) -> Integer.MAX_VALUE);
    }

    @AfterEach
    void stop() throws Exception {
        purgatory.close();
        topics.close();
    }

    private PartitionLog log(int partition) {
        return topics.partitionLog(topics.get("t").orElseThrow(), partition).orElseThrow();
    }

    /** A fetch request being built: the partitions it names, with their fetch offsets, and those it forgets. */
    private final class Fetch {
        final short version;
        final int sessionId;
        final int epoch;
        final Map<Integer, Long> offsets = new LinkedHashMap<>();
        final List<Integer> forgotten = new ArrayList<>();
        int maxWaitMs;

        Fetch(short version, int sessionId, int epoch) {
            this.version = version;
            this.sessionId = sessionId;
            this.epoch = epoch;
        }

        Fetch partition(int partition, long offset) {
            offsets.put(partition, offset);
            return this;
        }

        Fetch all(long offset) {
            for (int p = 0; p < PARTITIONS; p++) {
                partition(p, offset);
            }
            return this;
        }

        Fetch forget(int partition) {
            forgotten.add(partition);
            return this;
        }

        Fetch waiting(int ms) {
            maxWaitMs = ms;
            return this;
        }

        CompletableFuture<Struct> send() {
            FetchRequestView body = new FetchRequestView().replicaId(-1).maxWaitMs(maxWaitMs).minBytes(1)
                    .maxBytes(1 << 20).sessionId(sessionId).sessionEpoch(epoch);
            if (!offsets.isEmpty()) {
                FetchRequestView.FetchTopic topic = body.addTopic();
                if (version >= V13) {
                    topic.topicId(topicId);
                } else {
                    topic.topic("t");
                }
                offsets.forEach((p, offset) -> topic.addPartition().partition(p).fetchOffset(offset)
                        .partitionMaxBytes(1 << 20));
            }
            if (!forgotten.isEmpty()) {
                FetchRequestView.ForgottenTopic topic = body.addForgottenTopicsData();
                if (version >= V13) {
                    topic.topicId(topicId);
                } else {
                    topic.topic("t");
                }
                topic.partitions(forgotten);
            }
            Request request = new Request(new RequestHeader(ApiKey.FETCH.id(), version, 1, "test"), ApiKey.FETCH,
                    body.struct());
            return handler.handle(TestContexts.on("PLAINTEXT"), request).toCompletableFuture();
        }

        FetchResponseView answer() {
            CompletableFuture<Struct> answer = send();
            assertThat(answer).isDone();
            Struct struct = answer.join();
            struct.recordsPayloads().forEach(RecordsPayload::release);
            return new FetchResponseView(struct);
        }
    }

    /** Partition index to error code and whether records came, in answer order. */
    private static Map<Integer, String> partitions(FetchResponseView response) {
        Map<Integer, String> partitions = new LinkedHashMap<>();
        for (FetchResponseView.FetchableTopicResponse topic : response.responses()) {
            for (FetchResponseView.PartitionData partition : topic.partitions()) {
                String records = partition.struct().get("Records") instanceof RecordsPayload payload && payload.sizeInBytes() > 0
                        ? "records" : "no records";
                partitions.put(partition.partitionIndex(),
                        Errors.forCode(partition.errorCode()) + ", hw " + partition.highWatermark() + ", " + records);
            }
        }
        return partitions;
    }

    private int openSession(short version) {
        FetchResponseView full = new Fetch(version, 0, 0).all(0).answer();
        assertThat(full.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(full.sessionId()).as("a slot was free: a session").isNotZero();
        assertThat(partitions(full)).hasSize(PARTITIONS);
        return full.sessionId();
    }

    @Test
    void anIncrementalFetchNamesOnlyThePartitionsThatChanged() {
        int session = openSession(V12);
        TestLogs.appendBatchOf(log(1), 3);

        FetchResponseView first = new Fetch(V12, session, 1).answer();

        assertThat(first.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(first.sessionId()).isEqualTo(session);
        assertThat(partitions(first)).containsExactly(Map.entry(1, "NONE, hw 3, records"));

        FetchResponseView second = new Fetch(V12, session, 2).partition(1, 3).answer();

        assertThat(partitions(second)).as("nothing new since: nothing named").isEmpty();
        assertThat(second.responses()).as("nor its topic").isEmpty();

        TestLogs.appendBatchOf(log(0), 2);
        TestLogs.appendBatchOf(log(1), 2);

        assertThat(partitions(new Fetch(V12, session, 3).answer()))
                .as("partition 0 read from its cached offset 0, partition 1 from 3")
                .containsOnly(Map.entry(0, "NONE, hw 2, records"), Map.entry(1, "NONE, hw 5, records"));
    }

    @Test
    void topicsByIdFromV13AndTheSessionsNamingIsKept() {
        int session = openSession(V13);
        TestLogs.appendBatchOf(log(2), 1);

        FetchResponseView answer = new Fetch(V13, session, 1).answer();

        assertThat(partitions(answer)).containsExactly(Map.entry(2, "NONE, hw 1, records"));
        assertThat(answer.responses().get(0).topicId()).isEqualTo(topicId);
        assertThat(new Fetch(V12, session, 2).answer().errorCode())
                .isEqualTo(Errors.FETCH_SESSION_TOPIC_ID_ERROR.code());
        int byName = openSession(V12);
        assertThat(new Fetch(V13, byName, 1).answer().errorCode())
                .isEqualTo(Errors.FETCH_SESSION_TOPIC_ID_ERROR.code());
    }

    @Test
    void theEpochAndTheSessionIdAreChecked() {
        int session = openSession(V12);

        FetchResponseView wrongEpoch = new Fetch(V12, session, 2).answer();
        FetchResponseView unknown = new Fetch(V12, session + 1, 1).answer();

        assertThat(wrongEpoch.errorCode()).isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH.code());
        assertThat(wrongEpoch.responses()).isEmpty();
        assertThat(wrongEpoch.sessionId()).isZero();
        assertThat(unknown.errorCode()).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND.code());
        assertThat(new Fetch(V12, session, 1).answer().errorCode()).as("the session still at epoch 1")
                .isEqualTo(Errors.NONE.code());
        assertThat(new Fetch(V12, session, 1).answer().errorCode()).as("a replayed epoch")
                .isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH.code());
    }

    @Test
    void aForgottenPartitionIsNoLongerReadAndForgettingAllClosesTheSession() {
        int session = openSession(V12);

        new Fetch(V12, session, 1).forget(1).answer();
        TestLogs.appendBatchOf(log(1), 1);
        TestLogs.appendBatchOf(log(2), 1);

        assertThat(partitions(new Fetch(V12, session, 2).answer())).containsOnlyKeys(2);

        FetchResponseView last = new Fetch(V12, session, 3).forget(0).forget(2).answer();

        assertThat(last.sessionId()).as("emptied: closed, answered without a session").isZero();
        assertThat(new Fetch(V12, session, 4).answer().errorCode())
                .isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND.code());
    }

    @Test
    void epochMinusOneClosesTheSessionAndIsAnsweredInFullWithoutOne() {
        int session = openSession(V12);

        FetchResponseView close = new Fetch(V12, session, -1).all(0).answer();

        assertThat(close.sessionId()).isZero();
        assertThat(partitions(close)).hasSize(PARTITIONS);
        assertThat(new Fetch(V12, session, 1).answer().errorCode())
                .isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND.code());
        assertThat(partitions(new Fetch(V12, 0, -1).all(0).answer())).as("sessionless: in full every time")
                .hasSize(PARTITIONS);
    }

    @Test
    void aFullFetchNamingAnOpenSessionClosesItAndOpensAnother() {
        int session = openSession(V12);

        FetchResponseView full = new Fetch(V12, session, 0).all(0).answer();

        assertThat(full.sessionId()).isNotZero().isNotEqualTo(session);
        assertThat(new Fetch(V12, session, 1).answer().errorCode())
                .isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND.code());
    }

    @Test
    void aPartitionWithAnErrorIsNamedEachTimeAndAgainOnceItClears() {
        int session = openSession(V12);
        TestLogs.appendBatchOf(log(0), 2);
        new Fetch(V12, session, 1).answer(); // partition 0's records and high watermark 2: told

        assertThat(partitions(new Fetch(V12, session, 2).partition(0, 50).answer()))
                .containsExactly(Map.entry(0, "OFFSET_OUT_OF_RANGE, hw -1, no records"));
        assertThat(partitions(new Fetch(V12, session, 3).answer()))
                .containsExactly(Map.entry(0, "OFFSET_OUT_OF_RANGE, hw -1, no records"));
        assertThat(partitions(new Fetch(V12, session, 4).partition(0, 2).answer()))
                .as("cleared: its high watermark named again though it did not move")
                .containsExactly(Map.entry(0, "NONE, hw 2, no records"));
        assertThat(partitions(new Fetch(V12, session, 5).answer())).isEmpty();
    }

    @Test
    void aMovedLogStartOffsetIsNamedWithoutRecords() {
        int session = openSession(V12);
        TestLogs.appendBatchOf(log(0), 4);
        new Fetch(V12, session, 1).answer(); // partition 0's records, high watermark 4: told
        new Fetch(V12, session, 2).partition(0, 4).answer();

        log(0).deleteRecordsBefore(2);

        FetchResponseView answer = new Fetch(V12, session, 3).answer();
        assertThat(partitions(answer)).containsExactly(Map.entry(0, "NONE, hw 4, no records"));
        assertThat(answer.responses().get(0).partitions().get(0).logStartOffset()).isEqualTo(2);
        assertThat(partitions(new Fetch(V12, session, 4).answer())).isEmpty();
    }

    @Test
    void aParkedIncrementalFetchIsAnsweredWithThePartitionThatChangedOnly() {
        int session = openSession(V12);

        CompletableFuture<Struct> parked = new Fetch(V12, session, 1).waiting(500).send();
        assertThat(parked).as("nothing to read: parked").isNotDone();

        TestLogs.appendBatchOf(log(2), 4);
        purgatory.checkAndComplete(log(2).topicPartition());

        assertThat(parked).isDone();
        Struct struct = parked.join();
        FetchResponseView answer = new FetchResponseView(struct);
        assertThat(partitions(answer)).containsExactly(Map.entry(2, "NONE, hw 4, records"));
        assertThat(answer.sessionId()).isEqualTo(session);
        struct.recordsPayloads().forEach(RecordsPayload::release);
    }

    @Test
    void aParkedIncrementalFetchThatTimesOutIsAnsweredWithNothingNew() {
        int session = openSession(V12);

        CompletableFuture<Struct> parked = new Fetch(V12, session, 1).waiting(500).send();
        clock.advance(500);

        assertThat(parked).isDone();
        assertThat(partitions(new FetchResponseView(parked.join()))).isEmpty();
    }

    /**
     * Eight slots, one a shard (sessions go to the shards in turn): eight sessions fill the cache, a ninth full fetch
     * (shard 0's turn) gets none, its fetcher going on with full fetches, and once the broker's clock has left shard
     * 1's session unused for longer than 120 s, the next full fetch (shard 1's turn) evicts it.
     */
    @Test
    void aFullCacheDeclinesNewSessionsUntilOneIsStaleOnTheBrokersClock() {
        handler = handlerWithSlots(8);
        List<Integer> sessions = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            sessions.add(openSession(V12));
        }

        assertThat(new Fetch(V12, 0, 0).all(0).answer().sessionId()).as("no slot, none young enough to evict")
                .isZero();
        clock.advance(60_000);
        for (int i = 0; i < 8; i++) {
            if (i != 1) { // all but shard 1's used since
                assertThat(new Fetch(V12, sessions.get(i), 1).answer().errorCode()).isEqualTo(Errors.NONE.code());
            }
        }
        clock.advance(60_001);

        assertThat(new Fetch(V12, 0, 0).all(0).answer().sessionId()).isNotZero();
        assertThat(new Fetch(V12, sessions.get(1), 1).answer().errorCode())
                .as("the one unused for 120,001 ms was evicted").isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND.code());
        assertThat(registry.get("kafka.server.fetchsessioncache.incrementalfetchsessionevictions").counter().count())
                .isEqualTo(1);
    }

    /** A topic named without partitions is answered empty, as before sessions, and the session holds the others. */
    @Test
    void aFullFetchNamingATopicWithoutPartitionsOpensASessionOfTheOthers() {
        FetchRequestView body = new FetchRequestView().replicaId(-1).maxWaitMs(0).minBytes(1).maxBytes(1 << 20)
                .sessionId(0).sessionEpoch(0);
        body.addTopic().topic("t");
        body.addTopic().topic("t").addPartition().partition(0).fetchOffset(0).partitionMaxBytes(1 << 20);
        Request request = new Request(new RequestHeader(ApiKey.FETCH.id(), V12, 1, "test"), ApiKey.FETCH,
                body.struct());

        FetchResponseView answer = new FetchResponseView(handler.handle(TestContexts.on("PLAINTEXT"), request)
                .toCompletableFuture().join());

        assertThat(answer.responses()).hasSize(2);
        assertThat(answer.responses().get(0).partitions()).isEmpty();
        assertThat(answer.sessionId()).isNotZero();
        TestLogs.appendBatchOf(log(0), 1);
        assertThat(partitions(new Fetch(V12, answer.sessionId(), 1).answer()))
                .containsExactly(Map.entry(0, "NONE, hw 1, records"));
    }

    @Test
    void fetchesBeforeV7HaveNoSessions() {
        for (int i = 0; i < 2; i++) {
            FetchResponseView answer = new Fetch((short) 6, 0, 0).all(0).answer();
            assertThat(partitions(answer)).hasSize(PARTITIONS);
        }
    }
}
