package io.minibroker.broker.share;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.share.ShareWire.ack;
import static io.minibroker.broker.share.ShareWire.acquired;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** kafka-clients 4.4's Admin list/alter/deleteShareGroupOffsets against the share state. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareGroupOffsetsAdminTest {

    private static final TopicPartition PARTITION = new TopicPartition(ShareBroker.TOPIC, 0);

    @TempDir
    Path logDir;

    private ShareBroker broker;

    @BeforeEach
    void start() throws Exception {
        broker = new ShareBroker(logDir);
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    private static SharePartitionOffsetInfo offsets(Admin admin, String group) throws Exception {
        return admin.listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo(group)
                .get().get(PARTITION);
    }

    @Test
    void offsetsAreListedAlteredAndDeletedOnlyWhileTheGroupIsEmpty() throws Exception {
        try (Admin admin = broker.admin(); ShareWire a = broker.member("g", "member-a")) {
            assertThatThrownBy(() -> offsets(admin, "g")).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(GroupIdNotFoundException.class);
            a.fetch(10);
            broker.produce(5);
            assertThat(acquired(a.fetch(10))).containsExactly(List.of(0L, 4L, 1L));
            a.acknowledge(ack(0, 1, AcknowledgeType.ACCEPT), ack(3, 3, AcknowledgeType.ACCEPT));
            SharePartitionOffsetInfo listed = offsets(admin, "g");
            assertThat(listed.startOffset()).isEqualTo(2);
            assertThat(listed.lag()).contains(2L); // 2 and 4 still to be finished with; 3 is done
            assertThatThrownBy(() -> admin.alterShareGroupOffsets("g", Map.of(PARTITION, 4L)).all().get())
                    .hasCauseInstanceOf(GroupNotEmptyException.class);
            a.epoch = -1;
            a.acknowledge();
            admin.alterShareGroupOffsets("g", Map.of(PARTITION, 4L)).all().get();
            assertThat(offsets(admin, "g").startOffset()).isEqualTo(4);
            try (ShareWire b = broker.member("g", "member-b")) {
                assertThat(acquired(b.fetch(10))).containsExactly(List.of(4L, 4L, 1L)); // an opening fetch acquires too
                b.epoch = -1;
                b.acknowledge(ack(4, 4, AcknowledgeType.ACCEPT));
            }
            admin.deleteShareGroupOffsets("g", Set.of(ShareBroker.TOPIC)).all().get();
            assertThatThrownBy(() -> offsets(admin, "g")).hasCauseInstanceOf(GroupIdNotFoundException.class);
        }
    }
}
