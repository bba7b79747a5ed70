package io.minibroker.broker.topic;

import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where CreatePartitions meets the controller_mutation_rate, in Kafka 4.3.1's order
 * (ReplicationControlManager.createPartitions): a topic whose count and number of replica lists pass is counted, and
 * a quota that refuses it wins over what its lists name; a list of brokers that are not there is refused only once
 * counted, while a count that is no increase or the wrong number of lists is never counted.
 */
class PartitionRulesTest {

    private static final List<Integer> BROKERS = List.of(0, 1, 2);

    private final List<Integer> counted = new ArrayList<>();

    private IntPredicate quota(boolean permits) {
        return added -> {
            counted.add(added);
            return permits;
        };
    }

    @Test
    void aRefusingQuotaWinsOverTheAssignmentsBrokers() {
        PartitionRules.Refusal refused = PartitionRules.increase("t", 1, 3, List.of(List.of(7), List.of(8)), 1,
                BROKERS, quota(false));

        assertThat(refused.error()).isEqualTo(Errors.THROTTLING_QUOTA_EXCEEDED);
        assertThat(refused.message()).isNull();
        assertThat(counted).containsExactly(2);
    }

    @Test
    void anAssignmentOfAbsentBrokersIsCountedBeforeItIsRefused() {
        PartitionRules.Refusal refused = PartitionRules.increase("t", 1, 3, List.of(List.of(7), List.of(8)), 1,
                BROKERS, quota(true));

        assertThat(refused.error()).isEqualTo(Errors.INVALID_REPLICA_ASSIGNMENT);
        assertThat(counted).containsExactly(2);
    }

    @Test
    void aCountOrANumberOfListsThatFailsIsNotCounted() {
        assertThat(PartitionRules.increase("t", 3, 3, null, 1, BROKERS, quota(false)).error())
                .isEqualTo(Errors.INVALID_PARTITIONS);
        assertThat(PartitionRules.increase("t", 1, 3, List.of(List.of(0)), 1, BROKERS, quota(false)).error())
                .isEqualTo(Errors.INVALID_REPLICA_ASSIGNMENT);
        assertThat(counted).isEmpty();
        assertThat(PartitionRules.increase("t", 1, 3, null, 1, BROKERS, quota(true))).isNull();
        assertThat(counted).containsExactly(2);
    }
}
