package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeResponseView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsRequestView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsResponseView;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ConsumerGroupHeartbeat on the wire, with time driven by a ManualClock: session expiry, the errors Kafka gives,
 * and a static member's temporary leave.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsumerGroupSessionTest {

    private static final int SESSION_MS = 45_000;

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private Broker broker;
    private GroupWireClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of(), clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(10_000);
        create.addTopic().name("t").numPartitions(4).replicationFactor((short) 1);
        client.call(ApiKey.CREATE_TOPICS, 7, create.struct());
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    private ConsumerGroupHeartbeatResponseView heartbeat(ConsumerGroupHeartbeatRequestView request)
            throws IOException {
        return new ConsumerGroupHeartbeatResponseView(client.call(ApiKey.CONSUMER_GROUP_HEARTBEAT, 1,
                request.struct()));
    }

    private static ConsumerGroupHeartbeatRequestView join(String memberId) {
        return new ConsumerGroupHeartbeatRequestView().groupId("g").memberId(memberId).memberEpoch(0)
                .rebalanceTimeoutMs(30_000).subscribedTopicNames(List.of("t")).topicPartitions(List.of());
    }

    private ConsumerGroupDescribeResponseView.DescribedGroup describe() throws IOException {
        ConsumerGroupDescribeRequestView request = new ConsumerGroupDescribeRequestView().groupIds(List.of("g"));
        return new ConsumerGroupDescribeResponseView(client.call(ApiKey.CONSUMER_GROUP_DESCRIBE, 1,
                request.struct())).groups().get(0);
    }

    @Test
    void aSilentMemberIsFencedWhenItsSessionRunsOut() throws Exception {
        ConsumerGroupHeartbeatResponseView joined = heartbeat(join("m1"));
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(joined.memberEpoch()).isEqualTo(2);
        assertThat(joined.heartbeatIntervalMs()).isEqualTo(5000);
        assertThat(joined.assignment().topicPartitions()).singleElement()
                .satisfies(tp -> assertThat(tp.partitions()).containsExactly(0, 1, 2, 3));

        clock.advance(SESSION_MS - 1);
        assertThat(describe().members()).hasSize(1);
        clock.advance(1);
        waitUntilMembers(0);
        ConsumerGroupDescribeResponseView.DescribedGroup group = describe();
        assertThat(group.groupState()).isEqualTo("Empty");
        assertThat(group.groupEpoch()).isEqualTo(3);

        ConsumerGroupHeartbeatResponseView late = heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m1").memberEpoch(2));
        assertThat(late.errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void theGroupsOwnConfigsSetItsHeartbeatIntervalAndSessionTimeout() throws Exception {
        assertThat(alterGroupConfig("consumer.session.timeout.ms", "40000")).as("below Kafka's minimum bound")
                .isEqualTo(Errors.INVALID_CONFIG.code());
        assertThat(alterGroupConfig("consumer.heartbeat.interval.ms", "6000")).isEqualTo(Errors.NONE.code());
        assertThat(alterGroupConfig("consumer.session.timeout.ms", "50000")).isEqualTo(Errors.NONE.code());

        ConsumerGroupHeartbeatResponseView joined = heartbeat(join("m1"));
        assertThat(joined.heartbeatIntervalMs()).isEqualTo(6000);
        clock.advance(49_999);
        assertThat(describe().members()).as("alive past the broker's 45 s").hasSize(1);
        clock.advance(1);
        waitUntilMembers(0);
    }

    /** IncrementalAlterConfigs SET of one config of group g; the resource's error code. */
    private short alterGroupConfig(String name, String value) throws IOException {
        IncrementalAlterConfigsRequestView alter = new IncrementalAlterConfigsRequestView();
        alter.addResource().resourceType((byte) 32).resourceName("g").addConfig().name(name).configOperation((byte) 0)
                .value(value);
        return new IncrementalAlterConfigsResponseView(client.call(ApiKey.INCREMENTAL_ALTER_CONFIGS, 1,
                alter.struct())).responses().get(0).errorCode();
    }

    /** The expiry is handed to the coordinator's thread: it is observed, not timed. */
    private void waitUntilMembers(int count) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (describe().members().size() != count) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void heartbeatsKeepTheSessionAndAStaleEpochIsFenced() throws Exception {
        heartbeat(join("m1"));
        clock.advance(SESSION_MS - 1000);
        assertThat(heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m1").memberEpoch(2))
                .errorCode()).isEqualTo(Errors.NONE.code());
        clock.advance(SESSION_MS - 1000);
        assertThat(describe().members()).hasSize(1);

        assertThat(heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m1").memberEpoch(7))
                .errorCode()).isEqualTo(Errors.FENCED_MEMBER_EPOCH.code());
        assertThat(heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("nobody")
                .memberEpoch(2)).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void aMemberThatDoesNotRevokeWithinItsRebalanceTimeoutIsFenced() throws Exception {
        heartbeat(join("m1").rebalanceTimeoutMs(10_000));
        heartbeat(join("m2"));
        ConsumerGroupHeartbeatResponseView revoke = heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m1").memberEpoch(2));
        assertThat(revoke.assignment().topicPartitions().get(0).partitions()).hasSize(2);
        clock.advance(9_999);
        // It heartbeats (its session lives on) but keeps reporting all four partitions.
        ConsumerGroupHeartbeatRequestView stubborn = new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m1").memberEpoch(2);
        stubborn.addTopicPartition().topicId(revoke.assignment().topicPartitions().get(0).topicId())
                .partitions(List.of(0, 1, 2, 3));
        assertThat(heartbeat(stubborn).errorCode()).isEqualTo(Errors.NONE.code());
        clock.advance(1);
        waitUntilMembers(1);
        assertThat(heartbeat(stubborn).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        ConsumerGroupHeartbeatResponseView taken = heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m2").memberEpoch(3));
        assertThat(taken.assignment().topicPartitions().get(0).partitions()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void theErrorsKafkaGivesForBadRequests() throws Exception {
        assertThat(heartbeat(join("m1").serverAssignor("sticky")).errorCode())
                .isEqualTo(Errors.UNSUPPORTED_ASSIGNOR.code());
        assertThat(heartbeat(join("m1").rebalanceTimeoutMs(-1)).errorCode())
                .isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(heartbeat(join("").groupId("g")).errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(heartbeat(join("m1").subscribedTopicNames(null).subscribedTopicRegex("[unclosed")).errorCode())
                .isEqualTo(Errors.INVALID_REGULAR_EXPRESSION.code());
        // RE2/J's syntax, as Kafka's: lookaround and backreferences, which java.util.regex would take, are refused.
        assertThat(heartbeat(join("m1").subscribedTopicNames(null).subscribedTopicRegex("(?!internal).*"))
                .errorCode()).isEqualTo(Errors.INVALID_REGULAR_EXPRESSION.code());
        assertThat(heartbeat(join("m1").subscribedTopicNames(null).subscribedTopicRegex("(a)\\1")).errorCode())
                .isEqualTo(Errors.INVALID_REGULAR_EXPRESSION.code());
        assertThat(heartbeat(join("m1").instanceId("i")).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(heartbeat(join("m2").instanceId("i")).errorCode())
                .isEqualTo(Errors.UNRELEASED_INSTANCE_ID.code());
    }

    @Test
    void aNewMemberSharesThePartitionsOnlyAfterTheFirstRevokesThem() throws Exception {
        heartbeat(join("m1"));
        ConsumerGroupHeartbeatResponseView second = heartbeat(join("m2"));
        assertThat(second.memberEpoch()).isEqualTo(3);
        assertThat(second.assignment().topicPartitions()).isEmpty(); // m1 still owns everything

        ConsumerGroupHeartbeatResponseView revoke = heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m1").memberEpoch(2));
        assertThat(revoke.memberEpoch()).isEqualTo(2); // it must revoke before it moves on
        List<Integer> kept = revoke.assignment().topicPartitions().get(0).partitions();
        assertThat(kept).hasSize(2);

        ConsumerGroupHeartbeatRequestView revoked = new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m1").memberEpoch(2);
        revoked.addTopicPartition().topicId(revoke.assignment().topicPartitions().get(0).topicId()).partitions(kept);
        assertThat(heartbeat(revoked).memberEpoch()).isEqualTo(3);

        ConsumerGroupHeartbeatResponseView taken = heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m2").memberEpoch(3));
        assertThat(taken.assignment().topicPartitions().get(0).partitions()).hasSize(2).doesNotContainAnyElementsOf(kept);
        assertThat(describe().groupState()).isEqualTo("Stable");
    }

    @Test
    void theAssignorDescribedIsTheOneTheMembersAskForAlsoAfterARestart() throws Exception {
        assertThat(heartbeat(join("m1").serverAssignor("range")).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(describe().assignorName()).isEqualTo("range");

        client.close();
        broker.close();
        broker = TestBrokers.start(logDir, Map.of(), clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        assertThat(describe().assignorName()).isEqualTo("range");
    }

    /** As Kafka: a static member leaving for now gives up what it was revoking; the others need not wait for it. */
    @Test
    void aStaticMemberLeavingForNowReleasesWhatItWasRevoking() throws Exception {
        heartbeat(join("m1").instanceId("i1"));
        assertThat(heartbeat(join("m2")).memberEpoch()).isEqualTo(3);
        ConsumerGroupHeartbeatResponseView revoke = heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m1").memberEpoch(2));
        assertThat(revoke.memberEpoch()).isEqualTo(2); // two partitions to revoke, which it does not do
        assertThat(heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m1").instanceId("i1")
                .memberEpoch(-2)).errorCode()).isEqualTo(Errors.NONE.code());

        ConsumerGroupHeartbeatResponseView taken = heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m2").memberEpoch(3));
        assertThat(taken.assignment().topicPartitions().get(0).partitions()).hasSize(2)
                .doesNotContainAnyElementsOf(revoke.assignment().topicPartitions().get(0).partitions());
    }

    /** A heartbeat writes only its member's records: what the others' heartbeats wrote is all there after a restart. */
    @Test
    void eachMembersReconciliationSurvivesARestart() throws Exception {
        heartbeat(join("m1"));
        heartbeat(join("m2"));
        ConsumerGroupHeartbeatResponseView revoke = heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m1").memberEpoch(2));
        List<Integer> kept = revoke.assignment().topicPartitions().get(0).partitions();
        ConsumerGroupHeartbeatRequestView revoked = new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m1").memberEpoch(2);
        revoked.addTopicPartition().topicId(revoke.assignment().topicPartitions().get(0).topicId()).partitions(kept);
        assertThat(heartbeat(revoked).memberEpoch()).isEqualTo(3);
        heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m2").memberEpoch(3)
                .rebalanceTimeoutMs(20_000));
        assertThat(describe().groupState()).isEqualTo("Stable");

        client.close();
        broker.close();
        broker = TestBrokers.start(logDir, Map.of(), clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        ConsumerGroupDescribeResponseView.DescribedGroup described = describe();
        assertThat(described.groupState()).isEqualTo("Stable");
        assertThat(described.members()).hasSize(2).allSatisfy(member -> {
            assertThat(member.memberEpoch()).isEqualTo(3);
            assertThat(member.assignment().topicPartitions().get(0).partitions()).hasSize(2);
        });
        assertThat(heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m2").memberEpoch(3))
                .errorCode()).isEqualTo(Errors.NONE.code());
    }

    /** As Kafka since regex subscriptions: a full request by regex gets the whole assignment, changed or not. */
    @Test
    void aFullRequestSubscribedByRegexIsAnsweredWithTheAssignment() throws Exception {
        ConsumerGroupHeartbeatResponseView joined = heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m1").memberEpoch(0).rebalanceTimeoutMs(30_000).subscribedTopicRegex("t.*")
                .topicPartitions(List.of()));
        assertThat(joined.assignment().topicPartitions()).singleElement()
                .satisfies(topic -> assertThat(topic.partitions()).hasSize(4));

        ConsumerGroupHeartbeatRequestView full = new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m1")
                .memberEpoch(joined.memberEpoch()).rebalanceTimeoutMs(30_000).subscribedTopicRegex("t.*");
        full.addTopicPartition().topicId(joined.assignment().topicPartitions().get(0).topicId())
                .partitions(joined.assignment().topicPartitions().get(0).partitions());
        ConsumerGroupHeartbeatResponseView answered = heartbeat(full);
        assertThat(answered.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(answered.assignment()).as("the whole assignment, though unchanged").isNotNull();
        assertThat(answered.assignment().topicPartitions()).singleElement()
                .satisfies(topic -> assertThat(topic.partitions()).hasSize(4));
    }
}
