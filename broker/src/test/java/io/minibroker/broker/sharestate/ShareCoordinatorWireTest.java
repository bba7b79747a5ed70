package io.minibroker.broker.sharestate;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.DeleteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.DeleteShareGroupStateResponseView;
import io.minibroker.protocol.message.view.ReadShareGroupStateRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateResponseView;
import io.minibroker.protocol.message.view.WriteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.WriteShareGroupStateResponseView;
import io.minibroker.protocol.schema.Struct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The share coordinator's APIs on the wire, on a single node (which creates {@code __share_group_state} when first
 * asked): a write is read back, by the broker after a restart too; a share-partition leader older than the last one
 * heard from is fenced; an administrator's write (no leader epoch) is not; a deleted state reads as none.
 */
@Timeout(60)
class ShareCoordinatorWireTest {

    private static final UUID TOPIC = new UUID(7, 9);

    @TempDir
    Path logDir;

    private Broker broker;
    private RawClient client;
    private int correlationId;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("share.coordinator.state.topic.num.partitions", "2"));
        client = new RawClient(broker.boundPort("PLAINTEXT"));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    private Struct call(ApiKey api, Struct body) throws Exception {
        client.send(RawClient.request(api, (short) 0, ++correlationId, body));
        return client.receive(api, (short) 0).body();
    }

    private short write(int leaderEpoch, long startOffset) throws Exception {
        WriteShareGroupStateRequestView request = new WriteShareGroupStateRequestView().groupId("g");
        request.addTopic().topicId(TOPIC).addPartition().partition(0).leaderEpoch(leaderEpoch).startOffset(startOffset)
                .addStateBatche().firstOffset(startOffset).lastOffset(startOffset + 1).deliveryState((byte) 0)
                .deliveryCount((short) 3);
        return new WriteShareGroupStateResponseView(call(ApiKey.WRITE_SHARE_GROUP_STATE, request.struct()))
                .results().get(0).partitions().get(0).errorCode();
    }

    private ReadShareGroupStateResponseView.PartitionResult read(int leaderEpoch) throws Exception {
        ReadShareGroupStateRequestView request = new ReadShareGroupStateRequestView().groupId("g");
        request.addTopic().topicId(TOPIC).addPartition().partition(0).leaderEpoch(leaderEpoch);
        return new ReadShareGroupStateResponseView(call(ApiKey.READ_SHARE_GROUP_STATE, request.struct()))
                .results().get(0).partitions().get(0);
    }

    @Test
    void statesAreWrittenReadFencedAndDeleted() throws Exception {
        assertThat(read(0).startOffset()).as("no state yet").isEqualTo(-1);
        assertThat(write(5, 10)).isEqualTo(Errors.NONE.code());
        assertThat(write(4, 20)).as("an older leader").isEqualTo(Errors.FENCED_LEADER_EPOCH.code());
        assertThat(read(4).errorCode()).isEqualTo(Errors.FENCED_LEADER_EPOCH.code());
        assertThat(write(-1, 30)).as("an administrator").isEqualTo(Errors.NONE.code());
        assertThat(write(4, 40)).as("still fenced after it").isEqualTo(Errors.FENCED_LEADER_EPOCH.code());

        client.close();
        broker.close();
        broker = TestBrokers.start(logDir, Map.of("share.coordinator.state.topic.num.partitions", "2"));
        client = new RawClient(broker.boundPort("PLAINTEXT"));
        ReadShareGroupStateResponseView.PartitionResult read = read(6);
        assertThat(read.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(read.startOffset()).isEqualTo(30);
        assertThat(read.stateBatches()).extracting(b -> List.of(b.firstOffset(), b.lastOffset(),
                (long) b.deliveryCount())).containsExactly(List.of(30L, 31L, 3L));
        assertThat(write(5, 50)).as("fenced by the read of leader 6").isEqualTo(Errors.FENCED_LEADER_EPOCH.code());

        DeleteShareGroupStateRequestView delete = new DeleteShareGroupStateRequestView().groupId("g");
        delete.addTopic().topicId(TOPIC).addPartition().partition(0);
        assertThat(new DeleteShareGroupStateResponseView(call(ApiKey.DELETE_SHARE_GROUP_STATE, delete.struct()))
                .results().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(read(6).startOffset()).isEqualTo(-1);
    }

    @Test
    void badStatesAreInvalidRequests() throws Exception {
        WriteShareGroupStateRequestView request = new WriteShareGroupStateRequestView().groupId("g");
        WriteShareGroupStateRequestView.WriteStateData topic = request.addTopic().topicId(TOPIC);
        topic.addPartition().partition(0).startOffset(5).addStateBatche().firstOffset(5).lastOffset(6)
                .deliveryState((byte) 1).deliveryCount((short) 1); // acquired: never stored
        topic.addPartition().partition(1).startOffset(5).addStateBatche().firstOffset(6).lastOffset(5)
                .deliveryState((byte) 0).deliveryCount((short) 1);
        topic.addPartition().partition(-1).startOffset(5);
        topic.addPartition().partition(2).startOffset(5);
        assertThat(new WriteShareGroupStateResponseView(call(ApiKey.WRITE_SHARE_GROUP_STATE, request.struct()))
                .results().get(0).partitions()).extracting(p -> (int) p.errorCode())
                .containsExactly((int) Errors.INVALID_REQUEST.code(), (int) Errors.INVALID_REQUEST.code(),
                        (int) Errors.INVALID_REQUEST.code(), (int) Errors.NONE.code());
    }
}
