package io.minibroker.broker.admin;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The DeleteRecords Kafka refuses: an internal topic's (ReplicaManager.deleteRecordsOnLocalLog) and one whose
 * cleanup.policy has no {@code delete} (Partition.deleteRecordsOnLeader).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeleteRecordsRefusalsTest {

    @TempDir
    Path logDir;

    @Test
    void internalAndCompactOnlyTopicsKeepTheirRecords() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of()); Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(
                    new NewTopic("compact-only", 1, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                    new NewTopic("compact-and-delete", 1, (short) 1)
                            .configs(Map.of("cleanup.policy", "compact,delete")))).all().get();
            admin.listConsumerGroupOffsets("any").partitionsToOffsetAndMetadata().get(); // makes the offsets topic

            assertThatThrownBy(() -> deleteAll(admin, "compact-only"))
                    .hasCauseInstanceOf(PolicyViolationException.class);
            assertThatThrownBy(() -> deleteAll(admin, "__consumer_offsets"))
                    .hasCauseInstanceOf(InvalidTopicException.class);
            assertThat(deleteAll(admin, "compact-and-delete")).as("its low watermark").isZero();
        }
    }

    /** Deletes partition 0's records below its high watermark; returns its low watermark. */
    private static long deleteAll(Admin admin, String topic) throws Exception {
        TopicPartition partition = new TopicPartition(topic, 0);
        return admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(-1L))).lowWatermarks()
                .get(partition).get().lowWatermark();
    }
}
