package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer group's heartbeats look the subscribed topics up again only when the subscription or the known topics
 * changed; a topic created or deleted still moves the group epoch at the next heartbeat and reaches the
 * assignment, for subscriptions by name and by regex alike, and heartbeats with nothing changed keep the epoch.
 * The subscribed topics' metadata hash kept in the group's record (KIP-1101) does the same for a change made while
 * no coordinator ran: partitions added, a topic deleted and created again under its name, or the replicas' rack
 * changed between the group's last write and the coordinator's load of it (a restart here, a failover in a
 * cluster), and a load with nothing changed keeps the epoch.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsumerGroupTopicChangesTest {

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private GroupCoordinator coordinator;

    private BrokerConfig config;

    @BeforeEach
    void start() throws Exception {
        config = config(Map.of());
        topics = TopicRegistry.open(config, Clock.systemUTC());
        coordinator = new GroupCoordinator(config, topics, BrokerClock.system());
    }

    private BrokerConfig config(Map<String, String> more) {
        Map<String, String> values = new HashMap<>(Map.of("log.dir", logDir.toString(),
                "offsets.topic.num.partitions", "1", "offsets.topic.replication.factor", "1"));
        values.putAll(more);
        return BrokerConfig.of(values);
    }

    /**
     * The coordinator stopped; {@code meanwhile} changes the topics (the registry stays, as the controller's topics
     * do while a group's coordinator moves); a new coordinator loads the group from the offsets topic.
     */
    private void restartCoordinator(BrokerConfig restarted, ThrowingRunnable meanwhile) throws Exception {
        coordinator.close();
        meanwhile.run();
        coordinator = new GroupCoordinator(restarted, topics, BrokerClock.system());
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** A member's heartbeat at its epoch reporting what it owns (null: not reported). */
    private ConsumerGroupHeartbeat.Response heartbeat(String group, String member, int epoch,
                                                      Map<UUID, Set<Integer>> owned) throws Exception {
        ConsumerGroupHeartbeat.Response response = coordinator.consumerGroupHeartbeat(
                new ConsumerGroupHeartbeat.Request(group, member, epoch, null, null, -1, null, null, null, owned, "c",
                        "h", (short) 1, topic -> true)).get();
        assertThat(response.error()).isEqualTo(Errors.NONE);
        return response;
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    private ConsumerGroupHeartbeat.Response heartbeat(String group, String member, int epoch, List<String> names,
                                                      String regex) throws Exception {
        ConsumerGroupHeartbeat.Response response = coordinator.consumerGroupHeartbeat(
                new ConsumerGroupHeartbeat.Request(group, member, epoch, null, null, epoch == 0 ? 30_000 : -1, names,
                        regex, null, epoch == 0 ? Map.of() : null, "c", "h", (short) 1, topic -> true)).get();
        assertThat(response.error()).isEqualTo(Errors.NONE);
        return response;
    }

    private UUID id(String topic) {
        return topics.get(topic).orElseThrow().id();
    }

    @Test
    void aTopicCreatedLaterMovesTheEpochAndIsAssigned() throws Exception {
        ConsumerGroupHeartbeat.Response byName = heartbeat("named", "m", 0, List.of("later"), null);
        ConsumerGroupHeartbeat.Response byRegex = heartbeat("regex", "m", 0, null, "later.*");
        assertThat(byName.assignment()).isEmpty();
        assertThat(byRegex.assignment()).isEmpty();
        int namedEpoch = byName.memberEpoch();
        int regexEpoch = byRegex.memberEpoch();
        assertThat(heartbeat("named", "m", namedEpoch, null, null).memberEpoch()).as("nothing changed")
                .isEqualTo(namedEpoch);
        assertThat(heartbeat("regex", "m", regexEpoch, null, null).memberEpoch()).isEqualTo(regexEpoch);

        topics.create("later", 2, 1, Map.of(), false);
        ConsumerGroupHeartbeat.Response named = heartbeat("named", "m", namedEpoch, null, null);
        ConsumerGroupHeartbeat.Response regex = heartbeat("regex", "m", regexEpoch, null, null);
        assertThat(named.memberEpoch()).isEqualTo(namedEpoch + 1);
        assertThat(named.assignment()).isEqualTo(Map.of(id("later"), Set.of(0, 1)));
        assertThat(regex.memberEpoch()).isEqualTo(regexEpoch + 1);
        assertThat(regex.assignment()).isEqualTo(Map.of(id("later"), Set.of(0, 1)));

        topics.create("later-too", 1, 1, Map.of(), false); // matches the regex only
        assertThat(heartbeat("named", "m", namedEpoch + 1, null, null).memberEpoch()).isEqualTo(namedEpoch + 1);
        ConsumerGroupHeartbeat.Response grown = heartbeat("regex", "m", regexEpoch + 1, null, null);
        assertThat(grown.memberEpoch()).isEqualTo(regexEpoch + 2);
        assertThat(grown.assignment()).isEqualTo(Map.of(id("later"), Set.of(0, 1), id("later-too"), Set.of(0)));

        topics.delete("later");
        ConsumerGroupHeartbeat.Response gone = heartbeat("named", "m", namedEpoch + 1, null, null);
        assertThat(gone.assignment()).as("its partitions to revoke: it keeps its epoch until it has").isEmpty();
    }

    /** A member of "g" subscribed to "t" (two partitions, both its own), at the epoch returned. */
    private int memberOfTwoPartitions() throws Exception {
        topics.create("t", 2, 1, Map.of(), false);
        ConsumerGroupHeartbeat.Response joined = heartbeat("g", "m", 0, List.of("t"), null);
        assertThat(joined.assignment()).isEqualTo(Map.of(id("t"), Set.of(0, 1)));
        return joined.memberEpoch();
    }

    @Test
    void partitionsAddedWhileNoCoordinatorRanMoveTheEpochAfterTheLoad() throws Exception {
        int epoch = memberOfTwoPartitions();
        restartCoordinator(config, () -> assertThat(topics.addPartitions("t", 4, null, 0, false, added -> true)
                .error()).isEqualTo(Errors.NONE));

        ConsumerGroupHeartbeat.Response after = heartbeat("g", "m", epoch, null);
        assertThat(after.memberEpoch()).as("the stored hash is not the topics' now").isEqualTo(epoch + 1);
        assertThat(after.assignment()).isEqualTo(Map.of(id("t"), Set.of(0, 1, 2, 3)));
        assertThat(coordinator.consumerGroup("g").groupEpoch).isEqualTo(epoch + 1);

        restartCoordinator(config, () -> { });
        assertThat(heartbeat("g", "m", epoch + 1, null).memberEpoch()).as("the new hash was written with the epoch")
                .isEqualTo(epoch + 1);
    }

    @Test
    void aTopicDeletedAndCreatedAgainWhileNoCoordinatorRanIsAssignedUnderItsNewId() throws Exception {
        int epoch = memberOfTwoPartitions();
        UUID before = id("t");
        restartCoordinator(config, () -> {
            assertThat(topics.delete("t")).isEqualTo(Errors.NONE);
            topics.create("t", 2, 1, Map.of(), false); // the same name and partition count, another id
        });
        assertThat(id("t")).isNotEqualTo(before);

        ConsumerGroupHeartbeat.Response revoking = heartbeat("g", "m", epoch, null);
        assertThat(coordinator.consumerGroup("g").groupEpoch).isEqualTo(epoch + 1);
        assertThat(revoking.assignment()).as("the old topic's partitions to revoke first").isEmpty();
        ConsumerGroupHeartbeat.Response after = heartbeat("g", "m", revoking.memberEpoch(), Map.of());
        assertThat(after.memberEpoch()).isEqualTo(epoch + 1);
        assertThat(after.assignment()).isEqualTo(Map.of(id("t"), Set.of(0, 1)));
    }

    @Test
    void aReplicasRackChangedWhileNoCoordinatorRanMovesTheEpoch() throws Exception {
        int epoch = memberOfTwoPartitions();
        restartCoordinator(config(Map.of("broker.rack", "rack-b")), () -> { });

        ConsumerGroupHeartbeat.Response after = heartbeat("g", "m", epoch, null);
        assertThat(after.memberEpoch()).as("racks count in the hash, as in Kafka's").isEqualTo(epoch + 1);
        assertThat(after.assignment()).isEqualTo(Map.of(id("t"), Set.of(0, 1)));
    }

    @Test
    void aLoadWithTheSameTopicsKeepsTheEpoch() throws Exception {
        int epoch = memberOfTwoPartitions();
        restartCoordinator(config, () -> { });

        ConsumerGroupHeartbeat.Response after = heartbeat("g", "m", epoch, null);
        assertThat(after.memberEpoch()).isEqualTo(epoch);
        assertThat(coordinator.consumerGroup("g").groupEpoch).as("no bump: the stored hash matches").isEqualTo(epoch);
        assertThat(coordinator.consumerGroup("g").metadataHash).isNotZero();
    }

    @Test
    void aLeavingMembersTopicsLeaveTheHashWithTheEpochItMoves() throws Exception {
        int epoch = memberOfTwoPartitions();
        topics.create("u", 1, 1, Map.of(), false);
        assertThat(heartbeat("g", "n", 0, List.of("u"), null).memberEpoch()).isEqualTo(epoch + 1);
        assertThat(heartbeat("g", "m", epoch, null).memberEpoch()).isEqualTo(epoch + 1);
        leave("g", "n");
        assertThat(coordinator.consumerGroup("g").groupEpoch).isEqualTo(epoch + 2);

        ConsumerGroupHeartbeat.Response after = heartbeat("g", "m", epoch + 1, null);
        assertThat(after.memberEpoch()).as("one bump for the leave, none more for its topic, as Kafka")
                .isEqualTo(epoch + 2);
        assertThat(coordinator.consumerGroup("g").groupEpoch).isEqualTo(epoch + 2);
    }

    private void leave(String group, String member) throws Exception {
        assertThat(coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeat.Request(group, member,
                ConsumerGroupMember.LEAVE_GROUP_MEMBER_EPOCH, null, null, -1, null, null, null, null, "c", "h",
                (short) 1, topic -> true)).get().error()).isEqualTo(Errors.NONE);
    }
}
