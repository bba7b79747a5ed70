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

    @Test
    void aFutureDirectoryNamesItsPartitionAndADeletedOneStaysWithinAFileName() {
        TopicPartition tp = new TopicPartition("my-topic", 12);
        String future = tp.futureDirName();
        assertThat(future).matches("my-topic-12\\.[0-9a-f]{32}-future");
        assertThat(TopicPartition.parseFutureDirName(future)).contains(tp);
        assertThat(TopicPartition.parseDirName(future)).as("not a partition's own directory").isEmpty();
        assertThat(TopicPartition.parseFutureDirName("my-topic-12")).isEmpty();
        assertThat(TopicPartition.parseFutureDirName(tp.deleteDirName())).isEmpty();

        assertThat(tp.deleteDirName()).matches("my-topic-12\\.[0-9a-f]{32}-delete");
        assertThat(new TopicPartition("t".repeat(249), 0).deleteDirName()).as("the topic cut to 255 characters in all")
                .matches("t{213}-0\\.[0-9a-f]{32}-delete");
    }

    @Test
    void aFutureDirectoryNameLongerThanAFileNameIsRefusedAsKafkaRefusesIt() {
        // <topic>-<partition> + "." + 32 hex digits + "-future": 40 characters past the partition's own name.
        assertThat(TopicPartition.futureDirNameTooLong("t".repeat(213), 0)).isFalse(); // 215 + 40 = 255
        assertThat(TopicPartition.futureDirNameTooLong("t".repeat(214), 0)).isTrue();
        assertThat(TopicPartition.futureDirNameTooLong("t".repeat(212), 10)).isFalse();
        assertThat(TopicPartition.futureDirNameTooLong("t".repeat(213), 10)).isTrue();
    }
}
