package io.minibroker.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicPartitionTest {
    @Test
    void thePartitionFollowsTheLastDash() {
        assertThat(TopicPartition.parseDirName("orders-0")).contains(new TopicPartition("orders", 0));
        assertThat(TopicPartition.parseDirName("my-topic-12")).contains(new TopicPartition("my-topic", 12));
        assertThat(TopicPartition.parseDirName("a--3")).contains(new TopicPartition("a-", 3));
        assertThat(new TopicPartition("my-topic", 12).dirName()).isEqualTo("my-topic-12");
    }

    @Test
    void otherNamesAreNotPartitions() {
        assertThat(TopicPartition.parseDirName("orders")).isEmpty();
        assertThat(TopicPartition.parseDirName("orders-")).isEmpty();
        assertThat(TopicPartition.parseDirName("-3")).isEmpty();
        assertThat(TopicPartition.parseDirName("orders-x1")).isEmpty();
        assertThat(TopicPartition.parseDirName("orders-99999999999")).isEmpty();
        assertThat(TopicPartition.parseDirName("orders-1.abc-delete")).isEmpty();
    }
}
