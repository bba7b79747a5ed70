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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rebalance whose assignment {@code __consumer_offsets} refuses to store (here a record over
 * {@code message.max.bytes}): as in Kafka, the SyncGroup gets the mapped error (UNKNOWN_SERVER_ERROR for a record
 * too large), the assignment is not handed out, and the group rebalances again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GroupAssignmentStoreFailureTest {

    @TempDir
    Path logDir;
    private Broker broker;
    private GroupWireClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0",
                "message.max.bytes", "2000"));
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    private Struct join(String memberId) throws IOException {
        return client.call(ApiKey.JOIN_GROUP, 9, GroupProtocolErrorsTest.joinRequest("big", memberId, 10_000,
                new byte[0]));
    }

    @Test
    void anAssignmentThatCannotBeStoredFailsTheSyncAndTheGroupRebalances() throws IOException {
        String memberId = join("").getString("MemberId");
        Struct joined = join(memberId);
        int generation = joined.getInt32("GenerationId");
        Struct sync = ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", "big")
                .set("GenerationId", generation).set("MemberId", memberId)
                .set("ProtocolType", "consumer").set("ProtocolName", "range");
        sync.addElement("Assignments").set("MemberId", memberId).set("Assignment", new byte[5_000]);

        Struct synced = client.call(ApiKey.SYNC_GROUP, 5, sync);

        assertThat(Errors.forCode(synced.getInt16("ErrorCode"))).isEqualTo(Errors.UNKNOWN_SERVER_ERROR);
        assertThat(synced.getBytes("Assignment")).isEmpty();
        Struct heartbeat = client.call(ApiKey.HEARTBEAT, 4, ApiKey.HEARTBEAT.request().newMessage()
                .set("GroupId", "big").set("GenerationId", generation).set("MemberId", memberId));
        assertThat(Errors.forCode(heartbeat.getInt16("ErrorCode"))).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        Struct describe = ApiKey.DESCRIBE_GROUPS.request().newMessage().set("Groups", List.of("big"));
        assertThat(client.call(ApiKey.DESCRIBE_GROUPS, 5, describe).getStructs("Groups").get(0)
                .getString("GroupState")).isEqualTo("PreparingRebalance");

        Struct rejoined = join(memberId);
        assertThat(Errors.forCode(rejoined.getInt16("ErrorCode"))).isEqualTo(Errors.NONE);
        assertThat(rejoined.getInt32("GenerationId")).isEqualTo(generation + 1);
    }
}
