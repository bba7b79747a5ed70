package io.minibroker.broker.share;

import io.minibroker.broker.server.Eventually;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;

/**
 * What tests of share consumers sharing a partition wait for before they count who gets which records: every
 * consumer assigned. A member is assigned a share partition only at a heartbeat after the partition's share state is
 * initialized (as Kafka's coordinator assigns it), so until each is, the first one assigned would take every record.
 */
public final class ShareConsumersAssigned {

    private ShareConsumersAssigned() {
    }

    /**
     * Polls the consumers (whose heartbeats go with their polls) until the group lists as many members as there are
     * consumers, each with a partition assigned.
     */
    public static void await(Admin admin, String group, Duration poll, KafkaShareConsumer<?, ?>... consumers) {
        Eventually.await(() -> {
            for (KafkaShareConsumer<?, ?> consumer : consumers) {
                consumer.poll(poll);
            }
            try {
                Collection<ShareMemberDescription> members = admin.describeShareGroups(List.of(group)).all().get()
                        .get(group).members();
                return members.size() == consumers.length
                        && members.stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty());
            } catch (ExecutionException notYet) {
                return false;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, consumers.length + " consumers of " + group + " assigned");
    }
}
