package io.minibroker.broker.log;

import java.util.Optional;
import java.util.UUID;

/**
 * A partition, and the names of its log directories as Kafka's LocalLog makes them: {@code <topic>-<partition>},
 * and {@code <topic>-<partition>.<id>-delete} or {@code -future} for one renamed for deletion or on its way to
 * another of {@code log.dirs}. Topic names may contain '-' themselves ({@code my-topic-3} is partition 3 of
 * {@code my-topic}), so the partition is what follows the last one.
 */
public record TopicPartition(String topic, int partition) {
    /** Kafka's suffix of a partition directory renamed for deletion. */
    static final String DELETE_DIR_SUFFIX = "-delete";
    /** Kafka's suffix of a future replica's directory: a move to another of {@code log.dirs} under way. */
    static final String FUTURE_DIR_SUFFIX = "-future";
    /** The longest file name: a directory's name must stay within it. */
    private static final int MAX_DIR_NAME_LENGTH = 255;
    /** {@code .<32 hex digits>}: the random id before either suffix, so that such names never collide. */
    private static final int ID_LENGTH = 1 + 32;

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

    /** {@code <topic>-<partition>.<id>-delete}, the topic name cut so the name stays within 255 characters. */
    String deleteDirName() {
        String suffix = "-" + partition + uniqueId() + DELETE_DIR_SUFFIX;
        return topic.substring(0, Math.min(topic.length(), MAX_DIR_NAME_LENGTH - suffix.length())) + suffix;
    }

    /** {@code <topic>-<partition>.<id>-future}, as Kafka's logFutureDirName: never cut, see below. */
    String futureDirName() {
        return dirName() + uniqueId() + FUTURE_DIR_SUFFIX;
    }

    /**
     * Whether the future directory of a request's partition (its names not checked yet) would be longer than a file
     * name may be, for which Kafka refuses a move to another directory (KAFKA-4893).
     */
    public static boolean futureDirNameTooLong(String topic, int partition) {
        return (topic + "-" + partition).length() + ID_LENGTH + FUTURE_DIR_SUFFIX.length() > MAX_DIR_NAME_LENGTH;
    }

    private static String uniqueId() {
        return "." + UUID.randomUUID().toString().replace("-", "");
    }

    /** The partition of a future directory's name ({@link #futureDirName}), if the name is one. */
    static Optional<TopicPartition> parseFutureDirName(String name) {
        int dot = name.lastIndexOf('.');
        if (!name.endsWith(FUTURE_DIR_SUFFIX) || dot < 0) {
            return Optional.empty();
        }
        return parseDirName(name.substring(0, dot));
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
