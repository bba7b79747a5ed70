package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.produce.TransactionalProduceCheck;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code transaction.partition.verification.enable=false}: what a leader still asks the coordinator, as Kafka's. */
class VerificationDisabledTest {

    private static final List<TopicPartition> PARTITIONS = List.of(new TopicPartition("t", 0), new TopicPartition("t", 1));

    private final List<Short> asked = new ArrayList<>();
    private final TransactionalProduceCheck coordinator = (id, producerId, epoch, partitions, version) -> {
        asked.add(version);
        return CompletableFuture.completedFuture(PartitionErrors.every(partitions, Errors.INVALID_TXN_STATE));
    };
    private final TransactionalProduceCheck check = CoordinatorProduceCheck.addingOnly(coordinator);

    @Test
    void aVersionOneProduceIsAppendedUnasked() {
        for (short version : new short[] {3, 9, 10, 11}) {
            Map<TopicPartition, Errors> answer = check.beforeAppend("tx", 7, (short) 0, PARTITIONS, version)
                    .toCompletableFuture().join();
            assertThat(answer).containsOnlyKeys(PARTITIONS).allSatisfy((partition, error) ->
                    assertThat(error).isEqualTo(Errors.NONE));
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void aVersionTwoProduceStillAddsItsPartitions() {
        Map<TopicPartition, Errors> answer = check.beforeAppend("tx", 7, (short) 0, PARTITIONS, (short) 12)
                .toCompletableFuture().join();
        assertThat(asked).containsExactly((short) 12);
        assertThat(answer).containsOnlyKeys(PARTITIONS).allSatisfy((partition, error) ->
                assertThat(error).isEqualTo(Errors.INVALID_TXN_STATE));
    }
}
