package io.minibroker.broker.share;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ShareAcknowledgeResponseView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.share.ShareWire.acquired;
import static io.minibroker.broker.share.ShareWire.ack;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * ShareFetch and ShareAcknowledge v2 on the wire against a broker on a manual clock: sessions and their errors,
 * members getting distinct records, acknowledgements in both requests, lock expiry, a parked share fetch completed
 * by an append and by a release, and the state surviving a restart.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareFetchWireTest {

    @TempDir
    Path logDir;

    private ShareBroker broker;

    @BeforeEach
    void start() throws Exception {
        broker = new ShareBroker(logDir);
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    private static short acknowledgeError(ShareFetchResponseView response) {
        return response.responses().get(0).partitions().get(0).acknowledgeErrorCode();
    }

    @Test
    void twoMembersShareAPartitionAndReleasedRecordsGoToTheOther() throws Exception {
        try (ShareWire a = broker.member("g", "member-a");
             ShareWire b = broker.member("g", "member-b")) {
            ShareFetchResponseView opened = a.fetch(100); // opens the session: latest is the start
            assertThat(opened.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(opened.acquisitionLockTimeoutMs()).isEqualTo(30_000);
            assertThat(acquired(opened)).isEmpty();
            broker.produce(10);
            assertThat(acquired(a.fetch(4))).containsExactly(List.of(0L, 3L, 1L));
            assertThat(acquired(b.fetch(100))).containsExactly(List.of(4L, 9L, 1L));
            ShareAcknowledgeResponseView acked = a.acknowledge(ack(0, 1, AcknowledgeType.ACCEPT),
                    ack(2, 3, AcknowledgeType.RELEASE));
            assertThat(acked.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(acked.responses().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
            ShareFetchResponseView again = b.fetch(100, ack(4, 9, AcknowledgeType.ACCEPT));
            assertThat(acknowledgeError(again)).isEqualTo(Errors.NONE.code());
            assertThat(acquired(again)).containsExactly(List.of(2L, 3L, 2L));
            assertThat(again.responses().get(0).partitions().get(0).records().readableBytes()).isPositive();
            // a's records are b's now: a acknowledging them is refused, as Kafka refuses it
            ShareFetchResponseView refused = a.fetch(100, ack(2, 3, AcknowledgeType.ACCEPT));
            assertThat(acknowledgeError(refused)).isEqualTo(Errors.INVALID_RECORD_STATE.code());
        }
    }

    @Test
    void batchOptimizedFetchesTakeWholeBatchesAndRecordLimitFetchesStopAtMaxRecords() throws Exception {
        try (ShareWire a = broker.member("g", "member-a");
             ShareWire b = broker.member("g", "member-b")) {
            a.fetch(5);
            b.fetch(5);
            broker.produceOneBatch(10);
            // MaxRecords "can be exceeded for alignment of batch boundaries": the default mode keeps the batch whole
            assertThat(acquired(a.fetch(5))).containsExactly(List.of(0L, 9L, 1L));
            broker.produceOneBatch(10);
            b.acquireMode = ShareAcquireMode.RECORD_LIMIT;
            assertThat(acquired(b.fetch(5))).containsExactly(List.of(10L, 14L, 1L));
            assertThat(acquired(b.fetch(5))).containsExactly(List.of(15L, 19L, 1L));
        }
    }

    @Test
    void anAcknowledgementOfASharePartitionNotInMemoryIsUnknownAndLoadsNothing() throws Exception {
        UUID other = broker.createTopic("other");
        broker.initialize("g", other);
        try (ShareWire a = broker.member("g", "member-a")) {
            a.fetchOf(0, List.of(other)); // a session without the shared topic: its share partition is not loaded
            // adds the shared topic's partition, acknowledging records of it: Kafka 4.3.1's SharePartitionManager
            // finds no share partition in its cache, and answers so
            ShareFetchResponseView response = a.fetch(10, ack(0, 0, AcknowledgeType.ACCEPT));
            assertThat(response.responses()).extracting(ShareFetchResponseView.ShareFetchableTopicResponse::topicId)
                    .containsExactly(broker.topicId);
            assertThat(acknowledgeError(response)).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
    }

    /**
     * MaxRecords 0 asks for nothing: as Kafka 4.3.1's SharePartitionManager (processShareFetch), the fetch acquires
     * nothing and is answered at once, whatever its MaxWaitMs (here on a clock that does not move).
     */
    @Test
    void maxRecordsZeroAcquiresNothingAndIsAnsweredAtOnce() throws Exception {
        try (ShareWire a = broker.member("g", "member-a")) {
            a.fetch(10); // opens the session: latest is the start
            broker.produce(5);
            a.sendFetch(10_000, 0);
            ShareFetchResponseView nothing = a.receiveFetch();
            assertThat(nothing.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(acquired(nothing)).isEmpty();
            assertThat(acquired(a.fetch(10))).containsExactly(List.of(0L, 4L, 1L));
        }
    }

    @Test
    void renewAcknowledgementsNeedIsRenewAckAndARenewingFetchAsksForNothing() throws Exception {
        try (ShareWire a = broker.member("g", "member-a")) {
            a.fetch(10);
            broker.produce(1);
            assertThat(acquired(a.fetch(10))).containsExactly(List.of(0L, 0L, 1L));
            ShareAcknowledgeResponseView unflagged = a.acknowledge(ack(0, 0, AcknowledgeType.RENEW));
            assertThat(unflagged.responses().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.INVALID_REQUEST.code());
            a.renewAck = true;
            ShareAcknowledgeResponseView renewed = a.acknowledge(ack(0, 0, AcknowledgeType.RENEW));
            assertThat(renewed.responses().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
            // Kafka 4.3.1: a ShareFetch with IsRenewAck must send MaxBytes, MinBytes, MaxRecords and MaxWaitMs of 0
            assertThat(a.fetch(10, ack(0, 0, AcknowledgeType.RENEW)).errorCode())
                    .isEqualTo(Errors.INVALID_REQUEST.code());
        }
        try (ShareWire longId = broker.member("g", "m".repeat(37))) { // Kafka takes member ids of up to 36
            assertThat(longId.fetch(10).errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        }
    }

    @Test
    void recordsAShareFetchReleasesAreNotAcquiredInItsOwnAnswer() throws Exception {
        try (ShareWire a = broker.member("g", "member-a");
             ShareWire b = broker.member("g", "member-b")) {
            a.fetch(10);
            b.fetch(10);
            broker.produce(3);
            assertThat(acquired(a.fetch(10))).containsExactly(List.of(0L, 2L, 1L));
            // Kafka runs the acknowledgements and the fetch together: a release still being written is not acquired
            ShareFetchResponseView released = a.fetch(10, ack(0, 1, AcknowledgeType.RELEASE));
            assertThat(acknowledgeError(released)).isEqualTo(Errors.NONE.code());
            assertThat(acquired(released)).isEmpty();
            assertThat(acquired(b.fetch(10))).containsExactly(List.of(0L, 1L, 2L));
        }
    }

    @Test
    void sessionEpochsAreCheckedAsKafkaChecksThem() throws Exception {
        try (ShareWire a = broker.member("g", "member-a")) {
            a.epoch = 3;
            assertThat(a.fetch(10).errorCode()).isEqualTo(Errors.SHARE_SESSION_NOT_FOUND.code());
            a.epoch = 0;
            assertThat(a.acknowledge(ack(0, 0, AcknowledgeType.ACCEPT)).errorCode())
                    .isEqualTo(Errors.INVALID_SHARE_SESSION_EPOCH.code());
            a.epoch = 0;
            assertThat(a.fetch(10, ack(0, 0, AcknowledgeType.ACCEPT)).errorCode())
                    .isEqualTo(Errors.INVALID_REQUEST.code()); // nothing to acknowledge in a new session
            a.epoch = 0;
            assertThat(a.fetch(10).errorCode()).isEqualTo(Errors.NONE.code());
            a.epoch = 5;
            assertThat(a.fetch(10).errorCode()).isEqualTo(Errors.INVALID_SHARE_SESSION_EPOCH.code());
            a.epoch = 1;
            assertThat(a.fetch(10).errorCode()).isEqualTo(Errors.NONE.code());
            a.epoch = -1;
            assertThat(a.acknowledge().errorCode()).isEqualTo(Errors.NONE.code()); // closes the session
            a.epoch = 2;
            assertThat(a.fetch(10).errorCode()).isEqualTo(Errors.SHARE_SESSION_NOT_FOUND.code());
        }
    }

    @Test
    void expiredLocksAndAClosedSessionMakeRecordsAvailableAgain() throws Exception {
        try (ShareWire a = broker.member("g", "member-a");
             ShareWire b = broker.member("g", "member-b")) {
            a.fetch(10);
            b.fetch(10);
            broker.produce(3);
            assertThat(acquired(a.fetch(10))).containsExactly(List.of(0L, 2L, 1L));
            assertThat(acquired(b.fetch(10))).isEmpty();
            broker.clock.advance(30_000);
            assertThat(acquired(b.fetch(10))).containsExactly(List.of(0L, 2L, 2L));
            b.epoch = -1;
            assertThat(b.acknowledge(ack(0, 0, AcknowledgeType.ACCEPT)).errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(acquired(a.fetch(10))).containsExactly(List.of(1L, 2L, 3L));
        }
    }

    @Test
    void aMemberWhoseConnectionDropsLosesItsRecordsToTheOthersAtOnce() throws Exception {
        try (ShareWire b = broker.member("g", "member-b")) {
            b.fetch(10);
            try (ShareWire a = broker.member("g", "member-a")) {
                a.fetch(10);
                broker.produce(2);
                assertThat(acquired(a.fetch(10))).containsExactly(List.of(0L, 1L, 1L));
                b.sendFetch(60_000, 10); // parked: no lock expires on this clock, only the close can free them
            }
            assertThat(acquired(b.receiveFetch())).containsExactly(List.of(0L, 1L, 2L));
        }
    }

    @Test
    void aParkedShareFetchIsCompletedByAnAppendAndByARelease() throws Exception {
        try (ShareWire a = broker.member("g", "member-a");
             ShareWire b = broker.member("g", "member-b")) {
            a.fetch(10);
            b.fetch(10);
            a.sendFetch(60_000, 10); // the clock never reaches its timeout: only the append can answer it
            broker.produce(1);
            assertThat(acquired(a.receiveFetch())).containsExactly(List.of(0L, 0L, 1L));
            b.sendFetch(60_000, 10);
            a.acknowledge(ack(0, 0, AcknowledgeType.RELEASE));
            assertThat(acquired(b.receiveFetch())).containsExactly(List.of(0L, 0L, 2L));
        }
    }

    /**
     * MinBytes, as Kafka's DelayedShareFetch reads it: a parked fetch waits until the records it could acquire amount
     * to that many bytes, or answers what there is at its MaxWaitMs.
     */
    @Test
    void aParkedShareFetchWaitsForMinBytesOfRecordsOrItsMaxWait() throws Exception {
        try (ShareWire a = broker.member("g", "member-a")) {
            a.fetch(100);
            a.sendFetch(60_000, 1_000, 100);
            broker.produce(1); // one batch of some 70 bytes: not enough
            assertThat(broker.parkedShareFetches()).isEqualTo(1.0);
            broker.clock.advance(60_000);
            assertThat(acquired(a.receiveFetch())).as("what there was, at MaxWaitMs")
                    .containsExactly(List.of(0L, 0L, 1L));

            a.sendFetch(60_000, 1_000, 100);
            broker.produce(20); // twenty batches: past 1,000 bytes before the clock moves
            assertThat(acquired(a.receiveFetch()).get(0).get(0)).isEqualTo(1L);
            assertThat(broker.parkedShareFetches()).isZero();
        }
    }

    @Test
    void aParkedShareFetchIsCompletedWhenAnAcknowledgementMakesRoomInAFullWindow(@TempDir Path windowed)
            throws Exception {
        broker.close();
        broker = new ShareBroker(windowed, Map.of("group.share.partition.max.record.locks", "100"));
        try (ShareWire a = broker.member("g", "member-a");
             ShareWire b = broker.member("g", "member-b")) {
            a.fetch(200);
            b.fetch(200);
            broker.produce(101);
            assertThat(acquired(a.fetch(200))).containsExactly(List.of(0L, 99L, 1L)); // the window is full
            b.sendFetch(60_000, 200); // parked: offset 100 is there but out of the window until 0-99 are done
            a.acknowledge(ack(0, 99, AcknowledgeType.ACCEPT));
            assertThat(acquired(b.receiveFetch())).containsExactly(List.of(100L, 100L, 1L));
        }
    }

    /**
     * As Kafka's round-robin PartitionRotateStrategy, each fetch of a session starts one partition further along, so
     * a busy first partition does not starve the others: with five records allowed per answer and ten waiting in each
     * of two partitions, the first fetch after the opening one takes from the second partition, the next from the
     * first.
     */
    @Test
    void eachFetchOfASessionStartsAtTheNextPartition() throws Exception {
        UUID other = broker.createTopic("other");
        broker.initialize("g", other);
        try (ShareWire a = broker.member("g", "member-a")) {
            a.fetchOf(0, List.of(broker.topicId, other)); // opens the session: latest is the start of both
            broker.produce(10);
            broker.produce("other", 10);
            ShareFetchResponseView first = a.fetchOf(0, 5, List.of());
            assertThat(first.responses()).extracting(ShareFetchResponseView.ShareFetchableTopicResponse::topicId)
                    .containsExactly(other);
            assertThat(acquired(first)).containsExactly(List.of(0L, 4L, 1L));
            ShareFetchResponseView second = a.fetchOf(0, 5, List.of());
            assertThat(second.responses()).extracting(ShareFetchResponseView.ShareFetchableTopicResponse::topicId)
                    .containsExactly(broker.topicId);
            assertThat(acquired(second)).containsExactly(List.of(0L, 4L, 1L));
        }
    }

    /**
     * A share partition no group initialized: its share coordinator refuses to read its state (INVALID_REQUEST, as
     * Kafka's), and the fetch is answered at once with that failure as Kafka's SharePartition answers it
     * (UNKNOWN_SERVER_ERROR), not parked for its MaxWaitMs; once initialized it is served.
     */
    @Test
    void aSharePartitionNeverInitializedIsAnsweredWithAnErrorAtOnce() throws Exception {
        broker.produce(2);
        try (ShareWire a = new ShareWire(broker.port(), "uninitialized", "member-a", broker.topicId)) {
            a.sendFetch(60_000, 10); // the manual clock never reaches the wait
            ShareFetchResponseView refused = a.receiveFetch();
            assertThat(refused.responses().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
            assertThat(acquired(refused)).isEmpty();

            broker.initialize("uninitialized", broker.topicId);
            a.fetch(10); // loads it (latest: from the high watermark)
            broker.produce(1);
            assertThat(acquired(a.fetch(10))).containsExactly(List.of(2L, 2L, 1L));
        }
    }

    @Test
    void theStateSurvivesARestart() throws Exception {
        try (ShareWire a = broker.member("g", "member-a")) {
            a.fetch(10);
            broker.produce(6);
            assertThat(acquired(a.fetch(10))).containsExactly(List.of(0L, 5L, 1L));
            assertThat(a.acknowledge(ack(0, 1, AcknowledgeType.ACCEPT), ack(3, 3, AcknowledgeType.REJECT),
                    ack(4, 4, AcknowledgeType.RELEASE)).responses().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.NONE.code());
        }
        broker.restart();
        try (ShareWire b = broker.member("g", "member-b")) {
            // 0-1 accepted and 3 rejected stay done; 2 and 5 were held when the broker stopped, 4 released
            assertThat(acquired(b.fetch(10))).containsExactly(List.of(2L, 2L, 2L), List.of(4L, 5L, 2L));
        }
    }

    @Test
    void theStateTopicIsPrunedBelowEachShareStatesLatestRecord() throws Exception {
        broker.close();
        broker = new ShareBroker(logDir.resolve("pruned"), Map.of("share.coordinator.state.topic.num.partitions", "1",
                "share.coordinator.state.topic.prune.interval.ms", "1000"));
        try (ShareWire a = broker.member("g", "member-a")) {
            a.fetch(10);
            broker.produce(3);
            assertThat(acquired(a.fetch(10))).containsExactly(List.of(0L, 2L, 1L));
            // The state's records: at offset 0 the leader epoch of the first read (no state was initialized, so
            // the read records its new leader, as Kafka's readStateAndMaybeUpdateLeaderEpoch), at 1 and 2 these.
            a.acknowledge(ack(0, 0, AcknowledgeType.ACCEPT));
            a.acknowledge(ack(1, 1, AcknowledgeType.RELEASE));
            assertThat(stateTopicStart()).isZero();
            broker.clock.advance(1000);
            a.acknowledge(ack(2, 2, AcknowledgeType.ACCEPT)); // at offset 3, superseding the three before
            assertThat(stateTopicStart()).isEqualTo(3);
        }
        broker.restart();
        broker.produce(1);
        try (ShareWire b = broker.member("g", "member-b")) {
            b.sendFetch(60_000, 10); // waits for the share partition's state to load from the pruned topic
            assertThat(acquired(b.receiveFetch())).containsExactly(List.of(1L, 1L, 2L), List.of(3L, 3L, 1L));
        }
    }

    private long stateTopicStart() throws Exception {
        TopicPartition state = new TopicPartition("__share_group_state", 0);
        try (Admin admin = broker.admin()) {
            return admin.listOffsets(Map.of(state, OffsetSpec.earliest())).partitionResult(state).get().offset();
        }
    }
}
