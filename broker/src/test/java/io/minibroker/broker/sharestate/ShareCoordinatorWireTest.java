package io.minibroker.broker.sharestate;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.DeleteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.DeleteShareGroupStateResponseView;
import io.minibroker.protocol.message.view.InitializeShareGroupStateRequestView;
import io.minibroker.protocol.message.view.InitializeShareGroupStateResponseView;
import io.minibroker.protocol.message.view.ReadShareGroupStateRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateResponseView;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryResponseView;
import io.minibroker.protocol.message.view.WriteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.WriteShareGroupStateResponseView;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
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
 * asked): a state is read and written only once initialized (else INVALID_REQUEST, as Kafka's); a write is read back,
 * by the broker after a restart too; a share-partition leader older than the last one heard from is fenced; an
 * administrator's write (no leader epoch) is not; a deleted state is uninitialized again.
 */
@Timeout(60)
class ShareCoordinatorWireTest {

    /** The share partitions' data topic (the coordinator answers UNKNOWN_TOPIC_OR_PARTITION for one it lacks). */
    private UUID topic;

    @TempDir
    Path logDir;

    private Broker broker;
    private RawClient client;
    private int correlationId;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("share.coordinator.state.topic.num.partitions", "2"));
        client = new RawClient(broker.boundPort("PLAINTEXT"));
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("data", 3, (short) 1))).all().get();
            Uuid id = admin.describeTopics(List.of("data")).allTopicNames().get().get("data").topicId();
            topic = new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
        }
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    private Struct call(ApiKey api, Struct body) throws Exception {
        return call(api, (short) 0, body);
    }

    private Struct call(ApiKey api, short version, Struct body) throws Exception {
        client.send(RawClient.request(api, version, ++correlationId, body));
        return client.receive(api, version).body();
    }

    private void restart() throws Exception {
        client.close();
        broker.close();
        broker = TestBrokers.start(logDir, Map.of("share.coordinator.state.topic.num.partitions", "2"));
        client = new RawClient(broker.boundPort("PLAINTEXT"));
    }

    private short write(int leaderEpoch, long startOffset) throws Exception {
        return write(leaderEpoch, 0, startOffset);
    }

    private short write(int leaderEpoch, int stateEpoch, long startOffset) throws Exception {
        WriteShareGroupStateRequestView request = new WriteShareGroupStateRequestView().groupId("g");
        request.addTopic().topicId(topic).addPartition().partition(0).leaderEpoch(leaderEpoch).stateEpoch(stateEpoch)
                .startOffset(startOffset).addStateBatche().firstOffset(startOffset).lastOffset(startOffset + 1).deliveryState((byte) 0)
                .deliveryCount((short) 3);
        return new WriteShareGroupStateResponseView(call(ApiKey.WRITE_SHARE_GROUP_STATE, request.struct()))
                .results().get(0).partitions().get(0).errorCode();
    }

    private ReadShareGroupStateResponseView.PartitionResult read(int leaderEpoch) throws Exception {
        ReadShareGroupStateRequestView request = new ReadShareGroupStateRequestView().groupId("g");
        request.addTopic().topicId(topic).addPartition().partition(0).leaderEpoch(leaderEpoch);
        return new ReadShareGroupStateResponseView(call(ApiKey.READ_SHARE_GROUP_STATE, request.struct()))
                .results().get(0).partitions().get(0);
    }

    /**
     * As Kafka's ShareCoordinatorShard: a read or write of a share partition never initialized is INVALID_REQUEST with
     * its message (checked before the epochs and the data partition; the other fields at their defaults), a summary
     * answers the state of one never seen (start offset -1, epochs 0) and a deletion has nothing to do.
     */
    @Test
    void aSharePartitionNeverInitializedIsNeitherReadNorWritten() throws Exception {
        ReadShareGroupStateResponseView.PartitionResult read = read(0);
        assertThat(List.of((int) read.errorCode(), read.errorMessage(), read.startOffset(), read.stateEpoch()))
                .containsExactly((int) Errors.INVALID_REQUEST.code(),
                        "Read operation on uninitialized share partition not allowed.", 0L, 0);
        WriteShareGroupStateRequestView request = new WriteShareGroupStateRequestView().groupId("g");
        request.addTopic().topicId(topic).addPartition().partition(0).leaderEpoch(0).stateEpoch(0).startOffset(0);
        WriteShareGroupStateResponseView.PartitionResult written = new WriteShareGroupStateResponseView(
                call(ApiKey.WRITE_SHARE_GROUP_STATE, request.struct())).results().get(0).partitions().get(0);
        assertThat(List.of((int) written.errorCode(), written.errorMessage())).containsExactly(
                (int) Errors.INVALID_REQUEST.code(), "Write operation on uninitialized share partition not allowed.");
        assertThat(summary(0).errorCode()).isEqualTo(Errors.NONE.code());
        DeleteShareGroupStateRequestView delete = new DeleteShareGroupStateRequestView().groupId("g");
        delete.addTopic().topicId(topic).addPartition().partition(0);
        assertThat(new DeleteShareGroupStateResponseView(call(ApiKey.DELETE_SHARE_GROUP_STATE, delete.struct()))
                .results().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());

        assertThat(initialize(0, -1)).isEqualTo(Errors.NONE.code());
        assertThat(read(0).errorCode()).as("initialized").isEqualTo(Errors.NONE.code());
        assertThat(read(0).startOffset()).as("with no start offset").isEqualTo(-1);
        assertThat(write(0, 10)).isEqualTo(Errors.NONE.code());
    }

    @Test
    void statesAreWrittenReadFencedAndDeleted() throws Exception {
        assertThat(initialize(0, -1)).isEqualTo(Errors.NONE.code());
        assertThat(write(5, 10)).isEqualTo(Errors.NONE.code());
        assertThat(write(4, 20)).as("an older leader").isEqualTo(Errors.FENCED_LEADER_EPOCH.code());
        assertThat(read(4).errorCode()).isEqualTo(Errors.FENCED_LEADER_EPOCH.code());
        assertThat(write(-1, 30)).as("an administrator").isEqualTo(Errors.NONE.code());
        assertThat(write(4, 40)).as("still fenced after it").isEqualTo(Errors.FENCED_LEADER_EPOCH.code());

        restart();
        ReadShareGroupStateResponseView.PartitionResult read = read(6);
        assertThat(read.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(read.startOffset()).isEqualTo(30);
        assertThat(read.stateBatches()).extracting(b -> List.of(b.firstOffset(), b.lastOffset(),
                (long) b.deliveryCount())).containsExactly(List.of(30L, 31L, 3L));
        assertThat(write(5, 50)).as("fenced by the read of leader 6").isEqualTo(Errors.FENCED_LEADER_EPOCH.code());

        DeleteShareGroupStateRequestView delete = new DeleteShareGroupStateRequestView().groupId("g");
        delete.addTopic().topicId(topic).addPartition().partition(0);
        assertThat(new DeleteShareGroupStateResponseView(call(ApiKey.DELETE_SHARE_GROUP_STATE, delete.struct()))
                .results().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(read(6).errorCode()).as("uninitialized again").isEqualTo(Errors.INVALID_REQUEST.code());
    }

    /**
     * The error answers carry Kafka's messages, as its share coordinator sets them: a fenced leader or state epoch
     * the error's own message, a negative partition its key check's.
     */
    @Test
    void errorAnswersCarryKafkasMessages() throws Exception {
        assertThat(initialize(2, -1)).isEqualTo(Errors.NONE.code());
        assertThat(write(5, 2, 10)).isEqualTo(Errors.NONE.code());
        ReadShareGroupStateResponseView.PartitionResult read = read(4);
        assertThat(List.of((int) read.errorCode(), read.errorMessage())).containsExactly(
                (int) Errors.FENCED_LEADER_EPOCH.code(),
                "The leader epoch in the request is older than the epoch on the broker.");
        assertThat(writeAnswer(4, 2, 20).errorMessage())
                .isEqualTo("The leader epoch in the request is older than the epoch on the broker.");
        WriteShareGroupStateResponseView.PartitionResult fencedState = writeAnswer(5, 1, 20);
        assertThat(List.of((int) fencedState.errorCode(), fencedState.errorMessage())).containsExactly(
                (int) Errors.FENCED_STATE_EPOCH.code(),
                "The share coordinator rejected the request because the share-group state epoch did not match.");
        assertThat(writeAnswer(5, 2, 30).errorMessage()).as("no error, no message").isNull();

        ReadShareGroupStateRequestView negative = new ReadShareGroupStateRequestView().groupId("g");
        negative.addTopic().topicId(topic).addPartition().partition(-1).leaderEpoch(0);
        ReadShareGroupStateResponseView.PartitionResult refused = new ReadShareGroupStateResponseView(
                call(ApiKey.READ_SHARE_GROUP_STATE, negative.struct())).results().get(0).partitions().get(0);
        assertThat(List.of((int) refused.errorCode(), refused.errorMessage())).containsExactly(
                (int) Errors.INVALID_REQUEST.code(), "The partition id cannot be a negative number.");
    }

    private WriteShareGroupStateResponseView.PartitionResult writeAnswer(int leaderEpoch, int stateEpoch,
                                                                         long startOffset) throws Exception {
        WriteShareGroupStateRequestView request = new WriteShareGroupStateRequestView().groupId("g");
        request.addTopic().topicId(topic).addPartition().partition(0).leaderEpoch(leaderEpoch).stateEpoch(stateEpoch)
                .startOffset(startOffset);
        return new WriteShareGroupStateResponseView(call(ApiKey.WRITE_SHARE_GROUP_STATE, request.struct()))
                .results().get(0).partitions().get(0);
    }

    private short initialize(int stateEpoch, long startOffset) throws Exception {
        return initialize(0, stateEpoch, startOffset);
    }

    private short initialize(int partition, int stateEpoch, long startOffset) throws Exception {
        InitializeShareGroupStateRequestView request = new InitializeShareGroupStateRequestView().groupId("g");
        request.addTopic().topicId(topic).addPartition().partition(partition).stateEpoch(stateEpoch)
                .startOffset(startOffset);
        return new InitializeShareGroupStateResponseView(call(ApiKey.INITIALIZE_SHARE_GROUP_STATE, request.struct()))
                .results().get(0).partitions().get(0).errorCode();
    }

    private ReadShareGroupStateSummaryResponseView.PartitionResult summary(int leaderEpoch) throws Exception {
        ReadShareGroupStateSummaryRequestView request = new ReadShareGroupStateSummaryRequestView().groupId("g");
        request.addTopic().topicId(topic).addPartition().partition(0).leaderEpoch(leaderEpoch);
        return new ReadShareGroupStateSummaryResponseView(call(ApiKey.READ_SHARE_GROUP_STATE_SUMMARY, (short) 1,
                request.struct())).results().get(0).partitions().get(0);
    }

    /**
     * Kafka's readStateAndMaybeUpdateLeaderEpoch writes a newer leader's epoch: after a reload of the topic (here a
     * restart) the leader before it is still fenced, though nothing but the read ever carried the new epoch.
     */
    @Test
    void aNewerLeadersReadFencesTheOlderOneAfterAReload() throws Exception {
        assertThat(initialize(0, -1)).isEqualTo(Errors.NONE.code());
        assertThat(write(3, 10)).isEqualTo(Errors.NONE.code());
        assertThat(read(4).errorCode()).isEqualTo(Errors.NONE.code());
        restart();
        assertThat(write(3, 20)).as("leader 3 after leader 4 read").isEqualTo(Errors.FENCED_LEADER_EPOCH.code());
        assertThat(read(3).errorCode()).isEqualTo(Errors.FENCED_LEADER_EPOCH.code());
        assertThat(write(4, 20)).isEqualTo(Errors.NONE.code());

        assertThat(read(7).startOffset()).as("a read by a new leader answers the state").isEqualTo(20);
        restart();
        // As Kafka 4.3.1's ShareCoordinatorShard (maybeGetReadStateError skips the fencing check for -1): not fenced,
        // and recording no leader, so that leader 6 is still fenced by leader 7's read.
        assertThat(read(-1).errorCode()).as("a read at leader epoch -1").isEqualTo(Errors.NONE.code());
        assertThat(write(6, 30)).isEqualTo(Errors.FENCED_LEADER_EPOCH.code());

        assertThat(read(2).errorCode()).isEqualTo(Errors.FENCED_LEADER_EPOCH.code());
    }

    /** A leader's first read of a share partition initialized with no start offset records its epoch too. */
    @Test
    void aReadWithNoStartOffsetFencesOlderLeadersAfterAReload() throws Exception {
        assertThat(initialize(0, -1)).isEqualTo(Errors.NONE.code());
        ReadShareGroupStateResponseView.PartitionResult none = read(5);
        assertThat(none.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(none.startOffset()).isEqualTo(-1);
        restart();
        assertThat(write(4, 10)).isEqualTo(Errors.FENCED_LEADER_EPOCH.code());
        assertThat(read(8).startOffset()).as("still no state").isEqualTo(-1);
        assertThat(write(5, 10)).isEqualTo(Errors.FENCED_LEADER_EPOCH.code());
        assertThat(write(8, 10)).isEqualTo(Errors.NONE.code());
    }

    /**
     * The state epoch as Kafka's share coordinator checks it: InitializeShareGroupState sets it, and refuses an older
     * one; a write with an older one is FENCED_STATE_EPOCH (after the leader epoch check), an equal or newer one is
     * taken, -1 is not checked; reads carry none. It survives a reload.
     */
    @Test
    void stateEpochsAreSetByInitializeAndFenceOlderWrites() throws Exception {
        assertThat(initialize(0, -1)).isEqualTo(Errors.NONE.code());
        assertThat(write(1, 0, 5)).isEqualTo(Errors.NONE.code());
        assertThat(initialize(3, 100)).isEqualTo(Errors.NONE.code());
        ReadShareGroupStateResponseView.PartitionResult read = read(1);
        assertThat(read.startOffset()).isEqualTo(100);
        assertThat(read.stateEpoch()).isEqualTo(3);
        assertThat(read.stateBatches()).as("nothing in flight").isEmpty();

        assertThat(write(1, 2, 110)).isEqualTo(Errors.FENCED_STATE_EPOCH.code());
        assertThat(write(0, 2, 110)).as("the leader epoch first").isEqualTo(Errors.FENCED_LEADER_EPOCH.code());
        assertThat(write(1, 3, 110)).isEqualTo(Errors.NONE.code());
        assertThat(write(1, -1, 120)).isEqualTo(Errors.NONE.code());
        assertThat(read(1).stateEpoch()).as("-1 keeps the state epoch").isEqualTo(3);

        assertThat(initialize(2, 0)).isEqualTo(Errors.FENCED_STATE_EPOCH.code());
        assertThat(initialize(3, 130)).as("the same state epoch").isEqualTo(Errors.NONE.code());
        assertThat(initialize(-1, 140)).as("-1 is not checked").isEqualTo(Errors.NONE.code());
        assertThat(write(1, 3, 150)).as("-1 did not lower it").isEqualTo(Errors.NONE.code());
        assertThat(write(1, 4, 160)).as("a newer state epoch").isEqualTo(Errors.NONE.code());

        restart();
        assertThat(write(1, 3, 170)).isEqualTo(Errors.FENCED_STATE_EPOCH.code());
        assertThat(initialize(3, 170)).isEqualTo(Errors.FENCED_STATE_EPOCH.code());
        assertThat(read(1).startOffset()).isEqualTo(160);
        assertThat(write(0, 4, 170)).as("the leader epoch survives an initialization").isEqualTo(
                Errors.FENCED_LEADER_EPOCH.code());
    }

    /**
     * ReadShareGroupStateSummary: Kafka's answer with no state, then the state's offsets, epochs and the
     * DeliveryCompleteCount its leader sent (WriteShareGroupState v1; -1 from v0, as Kafka stores it); never fenced.
     */
    @Test
    void summariesAnswerTheStateAndFenceNothing() throws Exception {
        ReadShareGroupStateSummaryResponseView.PartitionResult none = summary(0);
        assertThat(List.of((int) none.errorCode(), none.startOffset(), (long) none.leaderEpoch(),
                (long) none.stateEpoch(), (long) none.deliveryCompleteCount()))
                .containsExactly(0, -1L, 0L, 0L, -1L);

        assertThat(initialize(0, -1)).isEqualTo(Errors.NONE.code());
        WriteShareGroupStateRequestView request = new WriteShareGroupStateRequestView().groupId("g");
        WriteShareGroupStateRequestView.PartitionData partition = request.addTopic().topicId(topic).addPartition()
                .partition(0).leaderEpoch(7).stateEpoch(2).startOffset(10).deliveryCompleteCount(5);
        partition.addStateBatche().firstOffset(10).lastOffset(12).deliveryState((byte) 2).deliveryCount((short) 1);
        partition.addStateBatche().firstOffset(13).lastOffset(13).deliveryState((byte) 0).deliveryCount((short) 1);
        partition.addStateBatche().firstOffset(14).lastOffset(15).deliveryState((byte) 4).deliveryCount((short) 5);
        assertThat(new WriteShareGroupStateResponseView(call(ApiKey.WRITE_SHARE_GROUP_STATE, (short) 1,
                request.struct())).results().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());

        ReadShareGroupStateSummaryResponseView.PartitionResult summary = summary(3);
        assertThat(List.of((int) summary.errorCode(), summary.startOffset(), (long) summary.leaderEpoch(),
                (long) summary.stateEpoch(), (long) summary.deliveryCompleteCount()))
                .as("acknowledged 10-12 and archived 14-15 are complete, as sent").containsExactly(0, 10L, 7L, 2L, 5L);
        assertThat(write(7, 2, 10)).as("the summary at leader epoch 3 fenced nothing").isEqualTo(Errors.NONE.code());
        assertThat(summary(3).deliveryCompleteCount()).as("a v0 write sends none").isEqualTo(-1);
    }

    @Test
    void badStatesAreInvalidRequests() throws Exception {
        assertThat(initialize(2, 0, -1)).isEqualTo(Errors.NONE.code());
        WriteShareGroupStateRequestView request = new WriteShareGroupStateRequestView().groupId("g");
        WriteShareGroupStateRequestView.WriteStateData data = request.addTopic().topicId(topic);
        data.addPartition().partition(0).startOffset(5).addStateBatche().firstOffset(5).lastOffset(6)
                .deliveryState((byte) 1).deliveryCount((short) 1); // acquired: never stored
        data.addPartition().partition(1).startOffset(5).addStateBatche().firstOffset(6).lastOffset(5)
                .deliveryState((byte) 0).deliveryCount((short) 1);
        data.addPartition().partition(-1).startOffset(5);
        data.addPartition().partition(2).startOffset(5);
        assertThat(new WriteShareGroupStateResponseView(call(ApiKey.WRITE_SHARE_GROUP_STATE, request.struct()))
                .results().get(0).partitions()).extracting(p -> (int) p.errorCode())
                .containsExactly((int) Errors.INVALID_REQUEST.code(), (int) Errors.INVALID_REQUEST.code(),
                        (int) Errors.INVALID_REQUEST.code(), (int) Errors.NONE.code());
    }

    /**
     * As Kafka's share coordinator checks its metadata image: a share partition whose data topic or partition does
     * not exist is UNKNOWN_TOPIC_OR_PARTITION for an initialization and a summary; a read and a write of it find it
     * uninitialized first (INVALID_REQUEST), as Kafka's do.
     */
    @Test
    void aSharePartitionOfNoDataPartitionIsUnknown() throws Exception {
        UUID known = topic;
        for (UUID id : List.of(new UUID(7, 9), known)) {
            int partition = id.equals(known) ? 3 : 0; // "data" has partitions 0 to 2
            ReadShareGroupStateRequestView read = new ReadShareGroupStateRequestView().groupId("g");
            read.addTopic().topicId(id).addPartition().partition(partition).leaderEpoch(0);
            assertThat(new ReadShareGroupStateResponseView(call(ApiKey.READ_SHARE_GROUP_STATE, read.struct()))
                    .results().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.INVALID_REQUEST.code());
            WriteShareGroupStateRequestView write = new WriteShareGroupStateRequestView().groupId("g");
            write.addTopic().topicId(id).addPartition().partition(partition).startOffset(0);
            assertThat(new WriteShareGroupStateResponseView(call(ApiKey.WRITE_SHARE_GROUP_STATE, write.struct()))
                    .results().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.INVALID_REQUEST.code());
            InitializeShareGroupStateRequestView initialize = new InitializeShareGroupStateRequestView().groupId("g");
            initialize.addTopic().topicId(id).addPartition().partition(partition).stateEpoch(1).startOffset(-1);
            assertThat(new InitializeShareGroupStateResponseView(call(ApiKey.INITIALIZE_SHARE_GROUP_STATE,
                    initialize.struct())).results().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            ReadShareGroupStateSummaryRequestView summary = new ReadShareGroupStateSummaryRequestView().groupId("g");
            summary.addTopic().topicId(id).addPartition().partition(partition).leaderEpoch(0);
            assertThat(new ReadShareGroupStateSummaryResponseView(call(ApiKey.READ_SHARE_GROUP_STATE_SUMMARY,
                    (short) 1, summary.struct())).results().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
    }
}
