package io.minibroker.broker.replica;

import io.minibroker.broker.log.LogConfig;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TestLogs;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.FetchRequestView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The follower's side of a fetch session, as Kafka's FetchSessionHandler builds its requests: full at epoch 0 first,
 * then only what moved, the partitions no longer fetched forgotten, the epoch moving on with each answer, and a
 * session error or a failed fetch starting over in full, naming the old session so the leader closes it.
 */
class LeaderFetchSessionTest {

    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);
    private static final UUID TOPIC = new UUID(1, 2);

    @TempDir
    Path logDir;
    private final List<PartitionLog> logs = new ArrayList<>();
    private final LeaderFetchSession session = new LeaderFetchSession();

    @BeforeEach
    void open() throws Exception {
        for (int p = 0; p < 3; p++) {
            logs.add(TestLogs.open(logDir.resolve("t-" + p), new TopicPartition("t", p), LogConfig.defaults(), CLOCK,
                    0, 0, true));
        }
    }

    @AfterEach
    void close() throws Exception {
        for (PartitionLog log : logs) {
            log.close();
        }
    }

    private List<FollowedPartition> followed(int... partitions) {
        List<FollowedPartition> followed = new ArrayList<>();
        for (int p : partitions) {
            followed.add(new FollowedPartition(TOPIC, logs.get(p), 5));
        }
        return followed;
    }

    private FetchRequestView build(List<FollowedPartition> followed) {
        FetchRequestView request = new FetchRequestView();
        session.build(request, followed, 1024);
        return request;
    }

    private static List<Integer> named(FetchRequestView request) {
        List<Integer> named = new ArrayList<>();
        request.topics().forEach(topic -> topic.partitions().forEach(p -> named.add(p.partition())));
        return named;
    }

    private static List<Integer> forgotten(FetchRequestView request) {
        List<Integer> forgotten = new ArrayList<>();
        request.forgottenTopicsData().forEach(topic -> forgotten.addAll(topic.partitions()));
        return forgotten;
    }

    @Test
    void theFirstFetchIsFullThenOnlyWhatMovedIsNamed() {
        FetchRequestView first = build(followed(0, 1, 2));

        assertThat(first.sessionId()).isZero();
        assertThat(first.sessionEpoch()).isZero();
        assertThat(named(first)).containsExactly(0, 1, 2);
        assertThat(session.answered(Errors.NONE, 77)).isTrue();

        FetchRequestView idle = build(followed(0, 1, 2));
        assertThat(idle.sessionId()).isEqualTo(77);
        assertThat(idle.sessionEpoch()).isEqualTo(1);
        assertThat(named(idle)).isEmpty();
        session.answered(Errors.NONE, 77);

        TestLogs.appendBatchOf(logs.get(1), 2);
        FetchRequestView moved = build(followed(0, 1, 2));
        assertThat(moved.sessionEpoch()).isEqualTo(2);
        assertThat(named(moved)).containsExactly(1);
        assertThat(moved.topics().get(0).partitions().get(0).fetchOffset()).isEqualTo(2);
    }

    @Test
    void aPartitionNoLongerFetchedIsForgottenOnce() {
        build(followed(0, 1, 2));
        session.answered(Errors.NONE, 77);

        FetchRequestView without = build(followed(0, 2));
        assertThat(forgotten(without)).containsExactly(1);
        assertThat(named(without)).isEmpty();
        session.answered(Errors.NONE, 77);

        assertThat(forgotten(build(followed(0, 2)))).isEmpty();
    }

    @Test
    void aNewLeaderEpochIsAnUpdateNotAForgetting() {
        build(followed(0));
        session.answered(Errors.NONE, 77);

        FetchRequestView request = build(List.of(new FollowedPartition(TOPIC, logs.get(0), 6)));

        assertThat(named(request)).containsExactly(0);
        assertThat(forgotten(request)).isEmpty();
    }

    @Test
    void aSessionErrorOrAFailedFetchStartsOverInFullClosingTheOldSession() {
        build(followed(0, 1));
        session.answered(Errors.NONE, 77);
        build(followed(0, 1));

        assertThat(session.answered(Errors.FETCH_SESSION_ID_NOT_FOUND, 0)).isFalse();
        FetchRequestView again = build(followed(0, 1));
        assertThat(again.sessionId()).isEqualTo(77);
        assertThat(again.sessionEpoch()).isZero();
        assertThat(named(again)).containsExactly(0, 1);

        session.answered(Errors.NONE, 88);
        build(followed(0, 1));
        session.failed();
        FetchRequestView afterFailure = build(followed(0, 1));
        assertThat(afterFailure.sessionId()).isEqualTo(88);
        assertThat(afterFailure.sessionEpoch()).isZero();
        assertThat(named(afterFailure)).containsExactly(0, 1);
    }

    @Test
    void aLeaderThatGivesNoSessionIsFetchedInFullEachTime() {
        build(followed(0, 1));
        session.answered(Errors.NONE, 0);

        FetchRequestView next = build(followed(0, 1));

        assertThat(next.sessionEpoch()).isZero();
        assertThat(named(next)).containsExactly(0, 1);
    }
}
