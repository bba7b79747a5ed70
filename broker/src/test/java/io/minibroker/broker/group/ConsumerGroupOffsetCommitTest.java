package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka 4.3's ConsumerGroup.validateOffsetCommit with assignment epochs: a commit at an epoch older than the member's
 * counts if every partition is one it holds or revokes and was assigned at or before that epoch, as a consumer's
 * commit sent just before a heartbeat moved its epoch on (VerifiableConsumer's, in Kafka's system tests, while the
 * group rebalances); otherwise the whole commit is refused.
 */
class ConsumerGroupOffsetCommitTest {

    private static final UUID T = new UUID(0, 9);

    private final ConsumerGroup group = new ConsumerGroup("g");
    private final ConsumerGroupMember member = new ConsumerGroupMember("m");

    @BeforeEach
    void memberAtEpochFive() {
        group.subscriptionMetadata = Map.of("t", new ConsumerGroup.SubscribedTopic(T, "t", 4, 0));
        member.memberEpoch = 5;
        member.state = MemberState.UNREVOKED_PARTITIONS;
        member.assignedPartitions = TopicAssignment.copyOf(Map.of(T, Set.of(0, 1)));
        member.partitionsPendingRevocation = TopicAssignment.copyOf(Map.of(T, Set.of(2)));
        member.assignmentEpochs = Map.of(T, Map.of(0, 2, 1, 5, 2, 3));
        group.add(member);
    }

    @Test
    void anOlderEpochCountsForPartitionsHeldSinceThen() {
        assertThat(group.validateOffsetCommit(commit(5, 0, 1, 2))).isEqualTo(Errors.NONE);
        assertThat(group.validateOffsetCommit(commit(3, 0, 2))).as("held, and revoking, since 2 and 3")
                .isEqualTo(Errors.NONE);
        assertThat(group.validateOffsetCommit(commit(2, 0))).isEqualTo(Errors.NONE);
        assertThat(group.validateOffsetCommit(commit(4, 0, 1))).as("partition 1 came at 5: the whole commit")
                .isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(group.validateOffsetCommit(commit(4, 3))).as("a partition it does not hold")
                .isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(group.validateOffsetCommit(commit(6, 0))).as("a newer epoch")
                .isEqualTo(Errors.STALE_MEMBER_EPOCH);
    }

    @Test
    void aClassicProtocolMemberIsToldIllegalGeneration() {
        member.classic = new ConsumerGroupMember.ClassicMetadata(10_000, new LinkedHashMap<>());
        assertThat(group.validateOffsetCommit(commit(2, 0))).isEqualTo(Errors.NONE);
        assertThat(group.validateOffsetCommit(commit(4, 1))).isEqualTo(Errors.ILLEGAL_GENERATION);
    }

    private static OffsetCommit commit(int epoch, int... partitions) {
        Map<TopicPartition, OffsetStore.CommittedOffset> offsets = new LinkedHashMap<>();
        for (int partition : partitions) {
            offsets.put(new TopicPartition("t", partition), new OffsetStore.CommittedOffset(10, -1, ""));
        }
        return new OffsetCommit("g", epoch, "m", null, offsets, (short) 9);
    }
}
