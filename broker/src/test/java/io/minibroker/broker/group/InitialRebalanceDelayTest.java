package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.Eventually;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.group.GroupProtocolErrorsTest.joinRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * group.initial.rebalance.delay.ms as Kafka applies it to a new group: a member joining during the delay
 * extends it by another delay, within what the rebalance timeout leaves after the first one. The broker runs on a
 * manual clock, so each delay ends exactly where the test moves time past it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InitialRebalanceDelayTest {

    private static final int JOIN_V9 = 9;
    private static final int DELAY_MS = 1_000;

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private Broker broker;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", String.valueOf(DELAY_MS),
                "group.min.session.timeout.ms", "500"), clock);
    }

    @AfterEach
    void stop() throws Exception {
        broker.close();
    }

    @Test
    void aMemberJoiningDuringTheDelayExtendsItByAnotherDelay() throws Exception {
        // The first delay ends at 1 s; a member joined during it, so another 1 s follows: 2 s in all.
        assertTheJoinsCompleteAt("extended", 10_000, 2_000);
    }

    @Test
    void theExtensionStopsAtWhatTheRebalanceTimeoutLeaves() throws Exception {
        // Uncapped, the wait would be 2 s; the 1.1 s rebalance timeout leaves 0.1 s after the first delay.
        assertTheJoinsCompleteAt("capped", 1_100, 1_100);
    }

    /**
     * A first member joins the new group at 0; halfway through the delay a second one joins. The group stays in
     * PreparingRebalance until {@code completesAtMs} and no longer; then both land in generation 1.
     */
    private void assertTheJoinsCompleteAt(String groupId, int rebalanceTimeoutMs, long completesAtMs)
            throws Exception {
        try (GroupWireClient first = new GroupWireClient(broker.boundPort("PLAINTEXT"));
             GroupWireClient second = new GroupWireClient(broker.boundPort("PLAINTEXT"));
             GroupWireClient observer = new GroupWireClient(broker.boundPort("PLAINTEXT"))) {
            long startMs = clock.nowMs();
            String firstId = memberId(first, groupId, rebalanceTimeoutMs);
            CompletableFuture<Struct> firstJoin = CompletableFuture.supplyAsync(() -> join(first, groupId, firstId,
                    rebalanceTimeoutMs));
            Eventually.await(() -> observer.stateIs(groupId, "PreparingRebalance"), "the first join to be parked");
            clock.advance(DELAY_MS / 2);
            String secondId = memberId(second, groupId, rebalanceTimeoutMs);
            CompletableFuture<Struct> secondJoin = CompletableFuture.supplyAsync(() -> join(second, groupId, secondId,
                    rebalanceTimeoutMs));
            Eventually.await(() -> observer.describedMemberCount(groupId) == 2, "the second join to be parked");

            // One jump at a time: what a due delay schedules counts from the time after the jump that fired it.
            clock.advance(DELAY_MS - (clock.nowMs() - startMs)); // the first delay ends, with a member added
            clock.advance(completesAtMs - 1 - (clock.nowMs() - startMs));
            assertThat(observer.describedState(groupId)).as("a millisecond before the delay ends")
                    .isEqualTo("PreparingRebalance");
            clock.advance(1);

            Struct firstJoined = firstJoin.get(30, TimeUnit.SECONDS);
            Struct secondJoined = secondJoin.get(30, TimeUnit.SECONDS);
            for (Struct joined : new Struct[]{firstJoined, secondJoined}) {
                assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
                assertThat(joined.getInt32("GenerationId")).isEqualTo(1);
            }
            assertThat(firstJoined.getStructs("Members")).extracting(m -> m.getString("MemberId"))
                    .containsExactlyInAnyOrder(firstId, secondId);
        }
    }

    private static String memberId(GroupWireClient client, String groupId, int rebalanceTimeoutMs) throws IOException {
        Struct required = client.call(ApiKey.JOIN_GROUP, JOIN_V9, request(groupId, "", rebalanceTimeoutMs));
        assertThat(required.getInt16("ErrorCode")).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        return required.getString("MemberId");
    }

    private static Struct join(GroupWireClient client, String groupId, String memberId, int rebalanceTimeoutMs) {
        try {
            return client.call(ApiKey.JOIN_GROUP, JOIN_V9, request(groupId, memberId, rebalanceTimeoutMs));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Struct request(String groupId, String memberId, int rebalanceTimeoutMs) {
        return joinRequest(groupId, memberId, 10_000, new byte[0]).set("RebalanceTimeoutMs", rebalanceTimeoutMs);
    }
}
