package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
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
 * extends it by another delay, within what the rebalance timeout leaves after the first one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InitialRebalanceDelayTest {

    private static final int JOIN_V9 = 9;
    private static final int DELAY_MS = 1_000;

    @TempDir
    Path logDir;
    private Broker broker;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", String.valueOf(DELAY_MS),
                "group.min.session.timeout.ms", "500"));
    }

    @AfterEach
    void stop() throws Exception {
        broker.close();
    }

    @Test
    void aMemberJoiningDuringTheDelayExtendsItByAnotherDelay() throws Exception {
        long waitedMs = joinTwoMembersAndTimeTheFirst("extended", 10_000);
        assertThat(waitedMs).as("the first delay, then one more for the second member").isBetween(1_800L, 5_000L);
    }

    @Test
    void theExtensionStopsAtWhatTheRebalanceTimeoutLeaves() throws Exception {
        // Uncapped, the wait would be 2 s; the bound leaves most of the difference to a slow machine's scheduling.
        long waitedMs = joinTwoMembersAndTimeTheFirst("capped", 1_100);
        assertThat(waitedMs).as("1 s delay, then only the 0.1 s the 1.1 s rebalance timeout leaves")
                .isBetween(1_000L, 1_900L);
    }

    /**
     * A first member joins the new group; halfway through the delay a second one joins. Both must land in
     * generation 1; returns how long the first member's join was parked.
     */
    private long joinTwoMembersAndTimeTheFirst(String groupId, int rebalanceTimeoutMs) throws Exception {
        try (GroupWireClient first = new GroupWireClient(broker.boundPort("PLAINTEXT"));
             GroupWireClient second = new GroupWireClient(broker.boundPort("PLAINTEXT"))) {
            String firstId = memberId(first, groupId, rebalanceTimeoutMs);
            long start = System.nanoTime();
            CompletableFuture<Struct> firstJoin = CompletableFuture.supplyAsync(() -> join(first, groupId, firstId,
                    rebalanceTimeoutMs));
            CompletableFuture<Long> firstWaitedMs = firstJoin.thenApply(
                    joined -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            Thread.sleep(DELAY_MS / 2);
            String secondId = memberId(second, groupId, rebalanceTimeoutMs);
            Struct secondJoined = join(second, groupId, secondId, rebalanceTimeoutMs);
            Struct firstJoined = firstJoin.get(30, TimeUnit.SECONDS);

            for (Struct joined : new Struct[]{firstJoined, secondJoined}) {
                assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
                assertThat(joined.getInt32("GenerationId")).isEqualTo(1);
            }
            assertThat(firstJoined.getStructs("Members")).extracting(m -> m.getString("MemberId"))
                    .containsExactlyInAnyOrder(firstId, secondId);
            return firstWaitedMs.get();
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
