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
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsumerGroupTopicChangesTest {

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private GroupCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString(), "offsets.topic.num.partitions", "1",
                "offsets.topic.replication.factor", "1"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        coordinator = new GroupCoordinator(config, topics, BrokerClock.system());
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
}
