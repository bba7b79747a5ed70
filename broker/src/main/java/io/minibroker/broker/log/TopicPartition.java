package io.minibroker.broker.log;

import java.util.Optional;

/**
 * A partition, and the name of its log directory: {@code <topic>-<partition>}. Topic names may contain
 * '-' themselves ({@code my-topic-3} is partition 3 of {@code my-topic}), so the partition is what follows
 * the last one.
 */
public record TopicPartition(String topic, int partition) {

    public TopicPartition {
        if (!isValid(topic, partition)) {
            throw new IllegalArgumentException("invalid partition " + topic + "-" + partition);
        }
    }

    /** Whether a request's topic name and partition index can name a partition at all. */
    public static boolean isValid(String topic, int partition) {
        return topic != null && !topic.isEmpty() && partition >= 0;
    }

    public String dirName() {
        return topic + "-" + partition;
    }

    /** The partition a directory name stands for, or empty for any other name. */
    public static Optional<TopicPartition> parseDirName(String name) {
        int dash = name.lastIndexOf('-');
        if (dash <= 0 || dash == name.length() - 1) {
            return Optional.empty();
        }
        String digits = name.substring(dash + 1);
        for (int i = 0; i < digits.length(); i++) {
            if (!Character.isDigit(digits.charAt(i))) {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(new TopicPartition(name.substring(0, dash), Integer.parseInt(digits)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return dirName();
    }
}
