package io.minibroker.broker.replica;

import io.minibroker.broker.log.TopicPartition;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The partitions a test told this broker to stop replicating (its follower lags on purpose, so that the leader
 * drops it from the ISR as it would a slow or stuck follower): every fetcher skips them until resumed.
 */
final class FetchPauses {

    private final Set<TopicPartition> paused = ConcurrentHashMap.newKeySet();
    /** Topics paused whole (every partition, also those not yet followed). */
    private final Set<String> pausedTopics = ConcurrentHashMap.newKeySet();
    private volatile boolean all;

    /** Pauses one partition; {@code partition} -1 pauses the topic; a null topic pauses every partition. */
    void pause(String topic, int partition) {
        if (topic == null) {
            all = true;
        } else if (partition < 0) {
            pausedTopics.add(topic);
        } else {
            paused.add(new TopicPartition(topic, partition));
        }
    }

    /** Undoes {@link #pause} of the same arguments; a null topic resumes everything paused. */
    void resume(String topic, int partition) {
        if (topic == null) {
            all = false;
            paused.clear();
            pausedTopics.clear();
        } else if (partition < 0) {
            pausedTopics.remove(topic);
            paused.removeIf(p -> p.topic().equals(topic));
        } else {
            paused.remove(new TopicPartition(topic, partition));
        }
    }

    boolean paused(TopicPartition partition) {
        return all || pausedTopics.contains(partition.topic()) || paused.contains(partition);
    }
}
