package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
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
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code group.max.size} for classic groups, as Kafka 4.3.1's acceptJoiningMember: checked before anything else
 * of the join (the group's state, its protocols, the MEMBER_ID_REQUIRED round), refused GROUP_MAX_SIZE_REACHED
 * naming no member; the group's own members still rejoin.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClassicGroupMaxSizeTest {

    private static final int SESSION_MS = 10_000;

    @TempDir
    Path logDir;
    private Broker broker;
    private GroupWireClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0", "group.max.size", "1"),
                new ManualClock());
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    private Struct join(String memberId, String protocolType) throws IOException {
        Struct request = GroupProtocolErrorsTest.joinRequest("g", memberId, SESSION_MS, new byte[0])
                .set("ProtocolType", protocolType);
        return client.call(ApiKey.JOIN_GROUP, 9, request);
    }

    /** The group's one member, Stable at generation 1; returns its id. */
    private String stableGroupOfOne() throws IOException {
        String memberId = join("", "consumer").getString("MemberId"); // MEMBER_ID_REQUIRED
        Struct joined = join(memberId, "consumer");
        assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        Struct sync = ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", "g")
                .set("GenerationId", joined.getInt32("GenerationId")).set("MemberId", memberId)
                .set("ProtocolType", "consumer").set("ProtocolName", "range");
        sync.addElement("Assignments").set("MemberId", memberId).set("Assignment", new byte[]{7});
        assertThat(client.call(ApiKey.SYNC_GROUP, 5, sync).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        return memberId;
    }

    private static void assertFull(Struct answer) {
        assertThat(answer.getInt16("ErrorCode")).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED.code());
        assertThat(answer.getString("MemberId")).isEmpty();
    }

    @Test
    void aFullGroupRefusesANewMemberBeforeTheMemberIdRound() throws IOException {
        stableGroupOfOne();
        assertFull(join("", "consumer"));
        assertThat(client.describedMemberCount("g")).isEqualTo(1);
    }

    @Test
    void aFullGroupRefusesAJoinBeforeCheckingItsProtocols() throws IOException {
        stableGroupOfOne();
        assertFull(join("", "connect"));
    }

    @Test
    void aMemberOfAFullGroupStillRejoins() throws IOException {
        String memberId = stableGroupOfOne();
        assertThat(join(memberId, "consumer").getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
    }
}
