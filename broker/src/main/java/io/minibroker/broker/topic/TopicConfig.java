package io.minibroker.broker.topic;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.BrokerCompressionType;
import io.minibroker.broker.log.LogConfig;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Topic-level configuration with Kafka's key names: a topic's overrides on top of the broker's defaults
 * ({@code retention.ms} over {@code log.retention.ms}, and so on), turned into the log's settings.
 *
 * <p>{@code cleanup.policy=compact} is accepted and kept, because Kafka Streams creates its changelog topics
 * that way, but compaction is not implemented yet: such a topic keeps everything (nothing is deleted by time or
 * size), which loses no data a compacted topic would have kept.
 */
public final class TopicConfig {

    public static final String CLEANUP_POLICY = "cleanup.policy";
    public static final String RETENTION_MS = "retention.ms";
    public static final String RETENTION_BYTES = "retention.bytes";
    public static final String SEGMENT_BYTES = "segment.bytes";
    public static final String SEGMENT_MS = "segment.ms";
    public static final String MAX_MESSAGE_BYTES = "max.message.bytes";
    public static final String MESSAGE_TIMESTAMP_TYPE = "message.timestamp.type";
    public static final String MIN_INSYNC_REPLICAS = "min.insync.replicas";
    public static final String FLUSH_MESSAGES = "flush.messages";
    public static final String FLUSH_MS = "flush.ms";
    public static final String INDEX_INTERVAL_BYTES = "index.interval.bytes";
    public static final String SEGMENT_INDEX_BYTES = "segment.index.bytes";
    public static final String COMPRESSION_TYPE = "compression.type";

    private static final Set<String> CLEANUP_POLICIES = Set.of("delete", "compact", "compact,delete", "delete,compact");

    private TopicConfig() {
    }

    /**
     * The configs Kafka gives an internal topic when it creates it: {@code __consumer_offsets} is compacted, so a
     * group's last commits are kept however old, rolls at {@code offsets.topic.segment.bytes} (100 MiB by default,
     * where other topics roll at 1 GiB), and keeps the coordinator's batches as written whatever the broker's
     * {@code compression.type}. Empty for any other topic.
     */
    public static Map<String, String> internalTopicOverrides(String topic, BrokerConfig broker) {
        return topic.equals(InternalTopics.CONSUMER_OFFSETS)
                ? Map.of(CLEANUP_POLICY, "compact",
                        COMPRESSION_TYPE, BrokerCompressionType.PRODUCER.configName(),
                        SEGMENT_BYTES, Integer.toString(broker.get(BrokerConfig.OFFSETS_TOPIC_SEGMENT_BYTES)))
                : Map.of();
    }

    /** Every topic config with its effective value for a topic with these overrides, in a stable order. */
    public static Map<String, String> effective(BrokerConfig broker, Map<String, String> overrides) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(CLEANUP_POLICY, "delete");
        values.put(RETENTION_MS, Long.toString(broker.logRetentionMs()));
        values.put(RETENTION_BYTES, Long.toString(broker.get(BrokerConfig.LOG_RETENTION_BYTES)));
        values.put(SEGMENT_BYTES, Integer.toString(broker.get(BrokerConfig.LOG_SEGMENT_BYTES)));
        values.put(SEGMENT_MS, Long.toString(broker.logRollMs()));
        values.put(MAX_MESSAGE_BYTES, Integer.toString(broker.get(BrokerConfig.MESSAGE_MAX_BYTES)));
        values.put(MESSAGE_TIMESTAMP_TYPE, broker.get(BrokerConfig.LOG_MESSAGE_TIMESTAMP_TYPE));
        values.put(MIN_INSYNC_REPLICAS, Integer.toString(broker.get(BrokerConfig.MIN_INSYNC_REPLICAS)));
        values.put(FLUSH_MESSAGES, Long.toString(broker.get(BrokerConfig.LOG_FLUSH_INTERVAL_MESSAGES)));
        values.put(FLUSH_MS, Long.toString(broker.logFlushIntervalMs()));
        values.put(INDEX_INTERVAL_BYTES, Integer.toString(broker.get(BrokerConfig.LOG_INDEX_INTERVAL_BYTES)));
        values.put(SEGMENT_INDEX_BYTES, Integer.toString(broker.get(BrokerConfig.LOG_INDEX_SIZE_MAX_BYTES)));
        values.put(COMPRESSION_TYPE, broker.get(BrokerConfig.COMPRESSION_TYPE));
        values.putAll(overrides);
        return values;
    }

    /** A topic's {@code min.insync.replicas}, without building the whole effective map (acks=all asks per produce). */
    public static int minInsyncReplicas(BrokerConfig broker, Map<String, String> overrides) {
        String override = overrides.get(MIN_INSYNC_REPLICAS);
        return override != null ? Integer.parseInt(override) : broker.get(BrokerConfig.MIN_INSYNC_REPLICAS);
    }

    /** Checks overrides as CreateTopics and AlterConfigs must; returns null if valid, else the reason. */
    public static String invalidReason(Map<String, String> overrides) {
        for (Map.Entry<String, String> entry : overrides.entrySet()) {
            String key = entry.getKey();
            String value = entry.getValue();
            if (value == null) {
                return "config " + key + " has no value";
            }
            try {
                switch (key) {
                    case CLEANUP_POLICY -> {
                        if (!CLEANUP_POLICIES.contains(value.replace(" ", ""))) {
                            return "invalid cleanup.policy " + value;
                        }
                    }
                    case MESSAGE_TIMESTAMP_TYPE -> {
                        if (!value.equals("CreateTime") && !value.equals("LogAppendTime")) {
                            return "invalid message.timestamp.type " + value;
                        }
                    }
                    case RETENTION_MS, RETENTION_BYTES -> requireAtLeast(key, Long.parseLong(value), -1);
                    case SEGMENT_MS, FLUSH_MESSAGES, FLUSH_MS -> requireAtLeast(key, Long.parseLong(value), 1);
                    case SEGMENT_BYTES -> requireAtLeast(key, Integer.parseInt(value), 14);
                    case MAX_MESSAGE_BYTES, INDEX_INTERVAL_BYTES -> requireAtLeast(key, Integer.parseInt(value), 0);
                    case MIN_INSYNC_REPLICAS -> requireAtLeast(key, Integer.parseInt(value), 1);
                    case SEGMENT_INDEX_BYTES -> requireAtLeast(key, Integer.parseInt(value), 4);
                    case COMPRESSION_TYPE -> {
                        if (BrokerCompressionType.forConfigName(value).isEmpty()) {
                            return "invalid compression.type " + value;
                        }
                    }
                    default -> {
                        return "unknown topic config " + key;
                    }
                }
            } catch (NumberFormatException e) {
                return "invalid value " + value + " for " + key;
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        }
        return null;
    }

    /** The log settings of a topic with these overrides. */
    public static LogConfig logConfig(BrokerConfig broker, Map<String, String> overrides) {
        Map<String, String> values = effective(broker, overrides);
        boolean deletes = values.get(CLEANUP_POLICY).contains("delete");
        return new LogConfig(
                Integer.parseInt(values.get(SEGMENT_BYTES)),
                Long.parseLong(values.get(SEGMENT_MS)),
                deletes ? Long.parseLong(values.get(RETENTION_MS)) : -1,
                deletes ? Long.parseLong(values.get(RETENTION_BYTES)) : -1,
                values.get(MESSAGE_TIMESTAMP_TYPE).equals("LogAppendTime"),
                Integer.parseInt(values.get(MAX_MESSAGE_BYTES)),
                Integer.parseInt(values.get(INDEX_INTERVAL_BYTES)),
                Integer.parseInt(values.get(SEGMENT_INDEX_BYTES)),
                Long.parseLong(values.get(FLUSH_MESSAGES)),
                Long.parseLong(values.get(FLUSH_MS)),
                BrokerCompressionType.forConfigName(values.get(COMPRESSION_TYPE)).orElseThrow());
    }

    private static void requireAtLeast(String key, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(key + " must be at least " + min + ": " + value);
        }
    }
}
