package io.minibroker.broker.group;

import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which groups a broker coordinates, and Kafka's function placing a group in a partition. */
class CoordinatedPartitionsTest {

    @Test
    void aGroupsPartitionIsKafkasAbsOfItsHashModuloThePartitions() {
        assertThat("polygenelubricants".hashCode()).isEqualTo(Integer.MIN_VALUE);
        assertThat(InternalTopics.partitionFor("polygenelubricants", 50)).as("Utils.abs(MIN_VALUE) is 0").isZero();
        String negative = "group-with-a-negative-hash-3";
        assertThat(negative.hashCode()).isNegative();
        assertThat(InternalTopics.partitionFor(negative, 50)).isEqualTo(Math.abs(negative.hashCode()) % 50);
    }

    @Test
    void aSingleNodeCoordinatesEveryGroup() {
        CoordinatedPartitions single = CoordinatedPartitions.singleNode();
        assertThat(single.check(7)).isEqualTo(Errors.NONE);
        assertThat(single.anyLoading()).isFalse();
    }

    @Test
    void aClusterBrokerCoordinatesOnlyTheLoadedPartitionsItLeads() {
        CoordinatedPartitions led = CoordinatedPartitions.cluster();
        assertThat(led.check(3)).isEqualTo(Errors.NOT_COORDINATOR);

        led.loading(3, 4);
        assertThat(led.check(3)).isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(led.anyLoading()).isTrue();
        assertThat(led.loaded(3, 4)).isTrue();
        assertThat(led.check(3)).isEqualTo(Errors.NONE);

        led.resigned(3);
        assertThat(led.check(3)).isEqualTo(Errors.NOT_COORDINATOR);
    }

    @Test
    void aLoadThatFinishesAfterLeadershipMovedChangesNothing() {
        CoordinatedPartitions led = CoordinatedPartitions.cluster();
        led.loading(1, 0);
        led.resigned(1);
        assertThat(led.loaded(1, 0)).isFalse();
        assertThat(led.check(1)).isEqualTo(Errors.NOT_COORDINATOR);

        led.loading(1, 2);
        assertThat(led.loaded(1, 0)).as("the load of an older term").isFalse();
        assertThat(led.check(1)).isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
    }

    @Test
    void aLoadedPartitionLedAgainInANewTermStaysLoaded() {
        CoordinatedPartitions led = CoordinatedPartitions.cluster();
        assertThat(led.ledAgain(2, 1)).as("not led here: to be loaded").isFalse();

        led.loading(2, 0);
        assertThat(led.ledAgain(2, 1)).as("still loading: loaded again in the new term").isFalse();
        led.loading(2, 1);
        assertThat(led.loaded(2, 1)).isTrue();

        assertThat(led.ledAgain(2, 2)).isTrue();
        assertThat(led.check(2)).isEqualTo(Errors.NONE);
    }
}
