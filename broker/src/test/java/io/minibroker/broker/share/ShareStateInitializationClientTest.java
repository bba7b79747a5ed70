package io.minibroker.broker.share;

import io.minibroker.broker.network.RawClient;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-clients 4.4's {@code KafkaShareConsumer} against the two-step assignment Kafka's group coordinator makes: the
 * member joins with nothing assigned, the share coordinator is asked to initialize the partition's state (state epoch
 * the group epoch at the join, 1), and only once that state exists does a later heartbeat assign the partition, at a
 * new epoch. Consumption then works as before.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareStateInitializationClientTest {

    private static final Duration POLL = Duration.ofMillis(100);

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest();

    /** The share coordinator's summary of the group's partition 0 (ReadShareGroupStateSummary v1, on the wire). */
    private ReadShareGroupStateSummaryResponseView.PartitionResult summary(RawClient client, int correlationId)
            throws Exception {
        ReadShareGroupStateSummaryRequestView request = new ReadShareGroupStateSummaryRequestView().groupId("g");
        request.addTopic().topicId(broker.topicId).addPartition().partition(0).leaderEpoch(-1);
        client.send(RawClient.request(ApiKey.READ_SHARE_GROUP_STATE_SUMMARY, (short) 1, correlationId,
                request.struct()));
        return new ReadShareGroupStateSummaryResponseView(client.receive(ApiKey.READ_SHARE_GROUP_STATE_SUMMARY,
                (short) 1).body()).results().get(0).partitions().get(0);
    }

    /** The consumer's membership as ShareGroupDescribe gives it, or null before it has joined. */
    private static ShareMemberDescription member(Admin admin) throws InterruptedException {
        try {
            var members = admin.describeShareGroups(List.of("g")).all().get().get("g").members();
            return members.isEmpty() ? null : members.iterator().next();
        } catch (ExecutionException notYet) {
            return null;
        }
    }

    @Test
    void thePartitionIsAssignedOnlyOnceItsShareStateExists() throws Exception {
        try (Admin admin = broker.admin(); RawClient client = new RawClient(broker.port());
             KafkaShareConsumer<String, String> consumer = broker.shareConsumer("g")) {
            int correlationId = 0;
            ShareMemberDescription member = null;
            while (member == null || member.assignment().topicPartitions().isEmpty()) {
                consumer.poll(POLL);
                member = member(admin);
                if (member != null && member.assignment().topicPartitions().isEmpty()) {
                    assertThat(member.memberEpoch()).as("joined, nothing assigned yet").isEqualTo(2);
                }
            }
            // Assigned: the share coordinator holds the state the group coordinator had it initialize.
            ReadShareGroupStateSummaryResponseView.PartitionResult state = summary(client, ++correlationId);
            assertThat(state.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(state.stateEpoch()).as("initialized at the group epoch of the join").isEqualTo(2);
            assertThat(state.startOffset()).as("no start offset: the leader starts at share.auto.offset.reset")
                    .isEqualTo(-1);
            assertThat(member.memberEpoch()).as("assigned at a later epoch than the join").isEqualTo(3);

            while (broker.parkedShareFetches() == 0) { // the member's fetch loaded the partition, at the log end
                consumer.poll(POLL);
            }
            broker.produce(3);
            assertThat(broker.consume(consumer, 3, value -> value.equals("v1") ? null : AcknowledgeType.ACCEPT))
                    .containsExactly("v0", "v1", "v2");
            ReadShareGroupStateSummaryResponseView.PartitionResult consumed = summary(client, ++correlationId);
            // The start offset the last acknowledgement was written with, before it moved past (as Kafka's): 1 if
            // v0's was written alone first, else 0. Either way only v1, still held, is left of the three.
            assertThat(consumed.startOffset()).isBetween(0L, 1L);
            assertThat(3 - consumed.startOffset() - consumed.deliveryCompleteCount()).as("v1 still held")
                    .isEqualTo(1);
        }
    }
}
