package io.minibroker.broker.topic;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.ConfigKey;
import io.minibroker.broker.log.BrokerCompressionType;
import io.minibroker.broker.log.LogConfig;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Topic-level configuration with Kafka's key names: a topic's overrides on top of the broker's defaults
 * ({@code retention.ms} over {@code log.retention.ms}, and so on), turned into the log's settings.
 *
 * <p>{@code cleanup.policy=compact} makes the log cleaner keep the last record of each key (see
 * {@code LogCleaner}), tuned by {@code delete.retention.ms}, {@code min.compaction.lag.ms},
 * {@code max.compaction.lag.ms} and {@code min.cleanable.dirty.ratio} over the broker's {@code log.cleaner.*}
 * defaults; {@code compact,delete} deletes by time and size too.
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
    public static final String MESSAGE_TIMESTAMP_BEFORE_MAX_MS = "message.timestamp.before.max.ms";
    public static final String MESSAGE_TIMESTAMP_AFTER_MAX_MS = "message.timestamp.after.max.ms";

    public static final String DELETE_RETENTION_MS = "delete.retention.ms";
    public static final String MIN_COMPACTION_LAG_MS = "min.compaction.lag.ms";
    public static final String MAX_COMPACTION_LAG_MS = "max.compaction.lag.ms";
    public static final String MIN_CLEANABLE_DIRTY_RATIO = "min.cleanable.dirty.ratio";
    public static final String SEGMENT_JITTER_MS = "segment.jitter.ms";
    public static final String FILE_DELETE_DELAY_MS = "file.delete.delay.ms";
    // Kafka's topic configs that are validated, kept and described but change nothing here yet: codec levels
    // (recompression uses each codec's default level), replication throttles and preallocation.
    public static final String COMPRESSION_GZIP_LEVEL = "compression.gzip.level";
    public static final String COMPRESSION_LZ4_LEVEL = "compression.lz4.level";
    public static final String COMPRESSION_ZSTD_LEVEL = "compression.zstd.level";
    public static final String LEADER_REPLICATION_THROTTLED_REPLICAS = "leader.replication.throttled.replicas";
    public static final String FOLLOWER_REPLICATION_THROTTLED_REPLICAS = "follower.replication.throttled.replicas";
    public static final String PREALLOCATE = "preallocate";
    // Tiered storage, which minibroker does not offer: only the values that leave it off are accepted.
    public static final String REMOTE_STORAGE_ENABLE = "remote.storage.enable";
    public static final String LOCAL_RETENTION_MS = "local.retention.ms";
    public static final String LOCAL_RETENTION_BYTES = "local.retention.bytes";
    public static final String REMOTE_LOG_COPY_DISABLE = "remote.log.copy.disable";
    public static final String REMOTE_LOG_DELETE_ON_DISABLE = "remote.log.delete.on.disable";
    public static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";

    /** "*" or a list of partition:broker pairs, as Kafka's throttled-replicas validator takes. */
    private static final Pattern THROTTLED_REPLICAS = Pattern.compile("\\*|(\\d+:\\d+(,\\d+:\\d+)*)?");

    /** Kafka 4's minimum segment.bytes (KIP-1030), 1 MiB. */
    private static final int MIN_SEGMENT_BYTES = 1_048_576;

    /** The values of a list of cleanup.policy and of message.timestamp.type, in Kafka's order. */
    private static final List<String> CLEANUP_POLICIES = List.of("compact", "delete");
    private static final List<String> TIMESTAMP_TYPES = List.of("CreateTime", "LogAppendTime");

    private TopicConfig() {
    }

    /**
     * The configs Kafka gives an internal topic when it creates it: {@code __consumer_offsets} is compacted, so a
     * group's last commits are kept however old, rolls at {@code offsets.topic.segment.bytes} (100 MiB by default,
     * where other topics roll at 1 GiB), and keeps the coordinator's batches as written whatever the broker's
     * {@code compression.type}. Empty for any other topic.
     */
    public static Map<String, String> internalTopicOverrides(String topic, BrokerConfig broker) {
        if (topic.equals(InternalTopics.TRANSACTION_STATE)) {
            // Kafka's TransactionStateManager.transactionTopicConfigs: compacted, uncompressed, its own min ISR.
            return Map.of(CLEANUP_POLICY, "compact",
                    COMPRESSION_TYPE, BrokerCompressionType.UNCOMPRESSED.configName(),
                    MIN_INSYNC_REPLICAS, Integer.toString(broker.get(BrokerConfig.TRANSACTION_STATE_LOG_MIN_ISR)),
                    SEGMENT_BYTES, Integer.toString(broker.get(BrokerConfig.TRANSACTION_STATE_LOG_SEGMENT_BYTES)));
        }
        if (topic.equals(InternalTopics.SHARE_GROUP_STATE)) {
            // Kafka's ShareCoordinatorService.shareGroupStateTopicConfigs: kept forever (Kafka prunes it with
            // DeleteRecords below the snapshots still needed), the coordinator's batches kept as written, its own
            // min ISR.
            return Map.of(CLEANUP_POLICY, "delete", RETENTION_MS, "-1",
                    COMPRESSION_TYPE, BrokerCompressionType.PRODUCER.configName(),
                    MIN_INSYNC_REPLICAS, Integer.toString(broker.get(BrokerConfig.SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR)),
                    SEGMENT_BYTES, Integer.toString(broker.get(BrokerConfig.SHARE_COORDINATOR_STATE_TOPIC_SEGMENT_BYTES)));
        }
        return topic.equals(InternalTopics.CONSUMER_OFFSETS)
                ? Map.of(CLEANUP_POLICY, "compact",
                        COMPRESSION_TYPE, BrokerCompressionType.PRODUCER.configName(),
                        SEGMENT_BYTES, Integer.toString(broker.get(BrokerConfig.OFFSETS_TOPIC_SEGMENT_BYTES)))
                : Map.of();
    }

    /**
     * One broker config a topic config falls back to, as Kafka's ServerTopicConfigSynonyms lists them: its name,
     * the key this broker reads it by (null for one it does not read, which keeps {@code kafkaDefault}).
     */
    public record BrokerSynonym(String name, ConfigKey<?> key, String kafkaDefault) {
        static BrokerSynonym of(ConfigKey<?> key) {
            return new BrokerSynonym(key.name(), key, null);
        }

        public static BrokerSynonym unread(String name, String kafkaDefault) {
            return new BrokerSynonym(name, null, kafkaDefault);
        }
    }

    /**
     * Each topic config's broker synonyms, in Kafka's order of precedence (DescribeConfigs lists them); a topic
     * config missing here has none.
     */
    private static final Map<String, List<BrokerSynonym>> BROKER_SYNONYMS = Map.ofEntries(
            Map.entry(SEGMENT_BYTES, List.of(BrokerSynonym.of(BrokerConfig.LOG_SEGMENT_BYTES))),
            Map.entry(SEGMENT_MS, List.of(BrokerSynonym.of(BrokerConfig.LOG_ROLL_MS),
                    BrokerSynonym.of(BrokerConfig.LOG_ROLL_HOURS))),
            Map.entry(SEGMENT_JITTER_MS, List.of(BrokerSynonym.of(BrokerConfig.LOG_ROLL_JITTER_MS),
                    BrokerSynonym.of(BrokerConfig.LOG_ROLL_JITTER_HOURS))),
            Map.entry(SEGMENT_INDEX_BYTES, List.of(BrokerSynonym.of(BrokerConfig.LOG_INDEX_SIZE_MAX_BYTES))),
            Map.entry(FLUSH_MESSAGES, List.of(BrokerSynonym.of(BrokerConfig.LOG_FLUSH_INTERVAL_MESSAGES))),
            Map.entry(FLUSH_MS, List.of(BrokerSynonym.of(BrokerConfig.LOG_FLUSH_INTERVAL_MS),
                    BrokerSynonym.of(BrokerConfig.LOG_FLUSH_SCHEDULER_INTERVAL_MS))),
            Map.entry(RETENTION_BYTES, List.of(BrokerSynonym.of(BrokerConfig.LOG_RETENTION_BYTES))),
            Map.entry(RETENTION_MS, List.of(BrokerSynonym.of(BrokerConfig.LOG_RETENTION_MS),
                    BrokerSynonym.of(BrokerConfig.LOG_RETENTION_MINUTES), BrokerSynonym.of(BrokerConfig.LOG_RETENTION_HOURS))),
            Map.entry(MAX_MESSAGE_BYTES, List.of(BrokerSynonym.of(BrokerConfig.MESSAGE_MAX_BYTES))),
            Map.entry(INDEX_INTERVAL_BYTES, List.of(BrokerSynonym.of(BrokerConfig.LOG_INDEX_INTERVAL_BYTES))),
            Map.entry(DELETE_RETENTION_MS, List.of(BrokerSynonym.of(BrokerConfig.LOG_CLEANER_DELETE_RETENTION_MS))),
            Map.entry(MIN_COMPACTION_LAG_MS, List.of(BrokerSynonym.of(BrokerConfig.LOG_CLEANER_MIN_COMPACTION_LAG_MS))),
            Map.entry(MAX_COMPACTION_LAG_MS, List.of(BrokerSynonym.of(BrokerConfig.LOG_CLEANER_MAX_COMPACTION_LAG_MS))),
            Map.entry(FILE_DELETE_DELAY_MS, List.of(BrokerSynonym.of(BrokerConfig.LOG_SEGMENT_DELETE_DELAY_MS))),
            Map.entry(MIN_CLEANABLE_DIRTY_RATIO, List.of(BrokerSynonym.of(BrokerConfig.LOG_CLEANER_MIN_CLEANABLE_RATIO))),
            Map.entry(CLEANUP_POLICY, List.of(BrokerSynonym.of(BrokerConfig.LOG_CLEANUP_POLICY))),
            Map.entry(UNCLEAN_LEADER_ELECTION_ENABLE, List.of(BrokerSynonym.of(BrokerConfig.UNCLEAN_LEADER_ELECTION_ENABLE))),
            Map.entry(MIN_INSYNC_REPLICAS, List.of(BrokerSynonym.of(BrokerConfig.MIN_INSYNC_REPLICAS))),
            Map.entry(COMPRESSION_TYPE, List.of(BrokerSynonym.of(BrokerConfig.COMPRESSION_TYPE))),
            Map.entry(COMPRESSION_GZIP_LEVEL, List.of(BrokerSynonym.unread(COMPRESSION_GZIP_LEVEL, "-1"))),
            Map.entry(COMPRESSION_LZ4_LEVEL, List.of(BrokerSynonym.unread(COMPRESSION_LZ4_LEVEL, "9"))),
            Map.entry(COMPRESSION_ZSTD_LEVEL, List.of(BrokerSynonym.unread(COMPRESSION_ZSTD_LEVEL, "3"))),
            Map.entry(PREALLOCATE, List.of(BrokerSynonym.unread("log.preallocate", "false"))),
            Map.entry(MESSAGE_TIMESTAMP_TYPE, List.of(BrokerSynonym.of(BrokerConfig.LOG_MESSAGE_TIMESTAMP_TYPE))),
            Map.entry(MESSAGE_TIMESTAMP_BEFORE_MAX_MS,
                    List.of(BrokerSynonym.of(BrokerConfig.LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS))),
            Map.entry(MESSAGE_TIMESTAMP_AFTER_MAX_MS,
                    List.of(BrokerSynonym.of(BrokerConfig.LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS))),
            Map.entry(LOCAL_RETENTION_MS, List.of(BrokerSynonym.unread("log.local.retention.ms", "-2"))),
            Map.entry(LOCAL_RETENTION_BYTES, List.of(BrokerSynonym.unread("log.local.retention.bytes", "-2"))));

    /** The broker configs {@code topicKey} falls back to, in Kafka's order; empty for one with none. */
    public static List<BrokerSynonym> brokerSynonyms(String topicKey) {
        return BROKER_SYNONYMS.getOrDefault(topicKey, List.of());
    }

    /**
     * A broker config's family, as Kafka's DynamicBrokerConfig.brokerConfigSynonyms lists it for DescribeConfigs:
     * log.roll.ms and log.roll.hours, log.roll.jitter.ms and log.roll.jitter.hours, the three log.retention.* units,
     * and log.flush.interval.ms with
     * log.flush.scheduler.interval.ms (that one only for log.flush.interval.ms); any other config alone.
     */
    public static List<BrokerSynonym> brokerFamily(ConfigKey<?> brokerKey) {
        if (brokerKey != BrokerConfig.LOG_FLUSH_SCHEDULER_INTERVAL_MS) {
            for (String family : List.of(SEGMENT_MS, SEGMENT_JITTER_MS, RETENTION_MS, FLUSH_MS)) {
                List<BrokerSynonym> synonyms = BROKER_SYNONYMS.get(family);
                if (synonyms.stream().anyMatch(synonym -> synonym.key() == brokerKey)) {
                    return synonyms;
                }
            }
        }
        return List.of(BrokerSynonym.of(brokerKey));
    }

    /** Every topic config with its effective value for a topic with these overrides, in a stable order. */
    public static Map<String, String> effective(BrokerConfig broker, Map<String, String> overrides) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(CLEANUP_POLICY, String.join(",", broker.get(BrokerConfig.LOG_CLEANUP_POLICY)));
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
        values.put(MESSAGE_TIMESTAMP_BEFORE_MAX_MS,
                Long.toString(broker.get(BrokerConfig.LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS)));
        values.put(MESSAGE_TIMESTAMP_AFTER_MAX_MS, Long.toString(broker.get(BrokerConfig.LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS)));
        values.put(UNCLEAN_LEADER_ELECTION_ENABLE, Boolean.toString(broker.get(BrokerConfig.UNCLEAN_LEADER_ELECTION_ENABLE)));
        values.put(DELETE_RETENTION_MS, Long.toString(broker.get(BrokerConfig.LOG_CLEANER_DELETE_RETENTION_MS)));
        values.put(MIN_COMPACTION_LAG_MS, Long.toString(broker.get(BrokerConfig.LOG_CLEANER_MIN_COMPACTION_LAG_MS)));
        values.put(MAX_COMPACTION_LAG_MS, Long.toString(broker.get(BrokerConfig.LOG_CLEANER_MAX_COMPACTION_LAG_MS)));
        values.put(MIN_CLEANABLE_DIRTY_RATIO, Double.toString(broker.get(BrokerConfig.LOG_CLEANER_MIN_CLEANABLE_RATIO)));
        values.put(FILE_DELETE_DELAY_MS, Long.toString(broker.get(BrokerConfig.LOG_SEGMENT_DELETE_DELAY_MS)));
        values.put(SEGMENT_JITTER_MS, Long.toString(broker.logRollJitterMs()));
        // Kafka's defaults for the keys kept without effect (see above).
        values.put(COMPRESSION_GZIP_LEVEL, "-1");
        values.put(COMPRESSION_LZ4_LEVEL, "9");
        values.put(COMPRESSION_ZSTD_LEVEL, "3");
        values.put(LEADER_REPLICATION_THROTTLED_REPLICAS, "");
        values.put(FOLLOWER_REPLICATION_THROTTLED_REPLICAS, "");
        values.put(PREALLOCATE, "false");
        values.put(REMOTE_STORAGE_ENABLE, "false");
        values.put(LOCAL_RETENTION_MS, "-2");
        values.put(LOCAL_RETENTION_BYTES, "-2");
        values.put(REMOTE_LOG_COPY_DISABLE, "false");
        values.put(REMOTE_LOG_DELETE_ON_DISABLE, "false");
        values.putAll(overrides);
        return values;
    }

    /** A topic's {@code min.insync.replicas}, without building the whole effective map (acks=all asks per produce). */
    public static int minInsyncReplicas(BrokerConfig broker, Map<String, String> overrides) {
        String override = overrides.get(MIN_INSYNC_REPLICAS);
        return override != null ? Integer.parseInt(override) : broker.get(BrokerConfig.MIN_INSYNC_REPLICAS);
    }

    /**
     * Checks overrides as CreateTopics and AlterConfigs must; returns null if valid, else the reason, in the words of
     * Kafka's LogConfig.validate (ConfigDef's "Invalid value V for configuration K: ...").
     */
    public static String invalidReason(Map<String, String> overrides) {
        List<String> nullValues = overrides.entrySet().stream().filter(e -> e.getValue() == null)
                .map(Map.Entry::getKey).toList();
        if (!nullValues.isEmpty()) {
            return "Null value not supported for topic configs: " + String.join(",", nullValues);
        }
        for (Map.Entry<String, String> entry : overrides.entrySet()) {
            String key = entry.getKey();
            String value = entry.getValue();
            try {
                switch (key) {
                    case CLEANUP_POLICY -> {
                        for (String policy : listItems(value)) {
                            requireOneOf(key, policy, CLEANUP_POLICIES);
                        }
                    }
                    case MESSAGE_TIMESTAMP_TYPE -> requireOneOf(key, value, TIMESTAMP_TYPES);
                    case RETENTION_BYTES -> parseLong(key, value);
                    case RETENTION_MS -> requireAtLeast(key, parseLong(key, value), -1);
                    case SEGMENT_MS, FLUSH_MESSAGES, MAX_COMPACTION_LAG_MS ->
                            requireAtLeast(key, parseLong(key, value), 1);
                    case SEGMENT_BYTES -> requireAtLeast(key, parseInt(key, value), MIN_SEGMENT_BYTES);
                    case MAX_MESSAGE_BYTES, INDEX_INTERVAL_BYTES -> requireAtLeast(key, parseInt(key, value), 0);
                    case MIN_INSYNC_REPLICAS -> requireAtLeast(key, parseInt(key, value), 1);
                    case SEGMENT_INDEX_BYTES -> requireAtLeast(key, parseInt(key, value), LogConfig.MIN_SEGMENT_INDEX_BYTES);
                    case FLUSH_MS, MESSAGE_TIMESTAMP_BEFORE_MAX_MS, MESSAGE_TIMESTAMP_AFTER_MAX_MS, DELETE_RETENTION_MS,
                         MIN_COMPACTION_LAG_MS, FILE_DELETE_DELAY_MS, SEGMENT_JITTER_MS ->
                            requireAtLeast(key, parseLong(key, value), 0);
                    case LOCAL_RETENTION_MS, LOCAL_RETENTION_BYTES -> requireAtLeast(key, parseLong(key, value), -2);
                    case MIN_CLEANABLE_DIRTY_RATIO -> {
                        double ratio = parseDouble(key, value);
                        requireBetween(key, Double.toString(ratio), ratio, 0, 1);
                    }
                    case COMPRESSION_GZIP_LEVEL -> {
                        int level = parseInt(key, value);
                        if (level != -1 && (level < 1 || level > 9)) {
                            throw invalid(key, value, "Value must be between 1 and 9 or equal to -1");
                        }
                    }
                    case COMPRESSION_LZ4_LEVEL -> requireBetween(key, value, parseInt(key, value), 1, 17);
                    case COMPRESSION_ZSTD_LEVEL -> requireBetween(key, value, parseInt(key, value), -131_072, 22);
                    case LEADER_REPLICATION_THROTTLED_REPLICAS, FOLLOWER_REPLICATION_THROTTLED_REPLICAS -> {
                        if (!THROTTLED_REPLICAS.matcher(value.replace(" ", "")).matches()) {
                            throw invalid(key, "[" + String.join(", ", listItems(value)) + "]", key
                                    + " must be the literal '*' or a list of replicas in the following format:"
                                    + " [partitionId]:[brokerId],[partitionId]:[brokerId],...");
                        }
                    }
                    case PREALLOCATE, REMOTE_LOG_COPY_DISABLE, REMOTE_LOG_DELETE_ON_DISABLE -> parseBoolean(key, value);
                    case REMOTE_STORAGE_ENABLE -> {
                        if (parseBoolean(key, value)) {
                            return "Tiered Storage functionality is disabled in the broker. "
                                    + "Topic cannot be configured with remote log storage.";
                        }
                    }
                    case UNCLEAN_LEADER_ELECTION_ENABLE -> {
                        if (parseBoolean(key, value)) {
                            return "unclean.leader.election.enable=true is not offered: a leader is only ever "
                                    + "elected from the in-sync replicas";
                        }
                    }
                    case COMPRESSION_TYPE -> {
                        if (BrokerCompressionType.forConfigName(value).isEmpty()) {
                            throw invalid(key, value, "String must be one of: uncompressed, zstd, lz4, snappy, gzip,"
                                    + " producer");
                        }
                    }
                    default -> {
                        return "Unknown topic config name: " + key;
                    }
                }
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        }
        return conflictingCompactionLags(overrides);
    }

    /** A list config's items, as Kafka's LIST type reads them: comma-separated, trimmed, none for an empty value. */
    private static List<String> listItems(String value) {
        return value.isBlank() ? List.of() : Arrays.stream(value.split(",")).map(String::trim).toList();
    }

    /** ConfigDef's refusal of a value, in its words. */
    private static IllegalArgumentException invalid(String key, String value, String why) {
        return new IllegalArgumentException("Invalid value " + value + " for configuration " + key + ": " + why);
    }

    private static long parseLong(String key, String value) {
        return parse(key, value, Long::parseLong, "LONG");
    }

    private static int parseInt(String key, String value) {
        return parse(key, value, Integer::parseInt, "INT");
    }

    private static double parseDouble(String key, String value) {
        return parse(key, value, Double::parseDouble, "DOUBLE");
    }

    /** A number, or ConfigDef's refusal naming the type ({@code type}) it is not. */
    private static <T> T parse(String key, String value, Function<String, T> parser, String type) {
        try {
            return parser.apply(value);
        } catch (NumberFormatException e) {
            throw invalid(key, value, "Not a number of type " + type);
        }
    }

    /** The value of a boolean key; anything but true or false (in any case) is refused, as Kafka refuses it. */
    private static boolean parseBoolean(String key, String value) {
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw invalid(key, value, "Expected value to be either true or false");
        }
        return Boolean.parseBoolean(value);
    }

    private static void requireAtLeast(String key, long value, long min) {
        if (value < min) {
            throw invalid(key, Long.toString(value), "Value must be at least " + min);
        }
    }

    /**
     * ConfigDef's Range check; {@code shown} is the value as Kafka's message prints the parsed value (a DOUBLE's as
     * Java prints a double: "-5.0").
     */
    private static void requireBetween(String key, String shown, double parsed, long min, long max) {
        if (parsed < min) {
            throw invalid(key, shown, "Value must be at least " + min);
        }
        if (!(parsed <= max)) {
            throw invalid(key, shown, "Value must be no more than " + max);
        }
    }

    /**
     * {@code item} (a value, or one item of a list's) among {@code allowed}, listed in Kafka's order in the refusal,
     * which names the item refused, as Kafka's ValidString and ValidList do.
     */
    private static void requireOneOf(String key, String item, List<String> allowed) {
        if (!allowed.contains(item)) {
            throw invalid(key, item, "String must be one of: " + String.join(", ", allowed));
        }
    }

    /**
     * Kafka refuses min.compaction.lag.ms above max.compaction.lag.ms. A side not overridden is taken at Kafka's
     * default here, not at the broker's {@code log.cleaner.*} value as Kafka takes it: only a broker that moves
     * those defaults toward each other can tell.
     */
    private static String conflictingCompactionLags(Map<String, String> overrides) {
        long min = Long.parseLong(overrides.getOrDefault(MIN_COMPACTION_LAG_MS, "0"));
        long max = Long.parseLong(overrides.getOrDefault(MAX_COMPACTION_LAG_MS, Long.toString(Long.MAX_VALUE)));
        return min > max ? "conflict topic config setting " + MIN_COMPACTION_LAG_MS + " (" + min + ") > "
                + MAX_COMPACTION_LAG_MS + " (" + max + ")" : null;
    }

    /**
     * Whether a topic with these overrides has {@code delete} in its {@code cleanup.policy}: retention runs, and
     * DeleteRecords may move its log start (Kafka's LogConfig.delete).
     */
    public static boolean deletes(BrokerConfig broker, Map<String, String> overrides) {
        return deletes(effective(broker, overrides));
    }

    private static boolean deletes(Map<String, String> values) {
        return values.get(CLEANUP_POLICY).contains("delete");
    }

    /** The log settings of a topic with these overrides. */
    public static LogConfig logConfig(BrokerConfig broker, Map<String, String> overrides) {
        Map<String, String> values = effective(broker, overrides);
        boolean deletes = deletes(values);
        boolean compacts = values.get(CLEANUP_POLICY).contains("compact");
        return new LogConfig.Builder()
                .segmentBytes(Integer.parseInt(values.get(SEGMENT_BYTES)))
                .segmentMs(Long.parseLong(values.get(SEGMENT_MS)))
                .retentionMs(deletes ? Long.parseLong(values.get(RETENTION_MS)) : -1)
                .retentionBytes(deletes ? Long.parseLong(values.get(RETENTION_BYTES)) : -1)
                .logAppendTime(values.get(MESSAGE_TIMESTAMP_TYPE).equals("LogAppendTime"))
                .maxMessageBytes(Integer.parseInt(values.get(MAX_MESSAGE_BYTES)))
                .indexIntervalBytes(Integer.parseInt(values.get(INDEX_INTERVAL_BYTES)))
                .segmentIndexBytes(Integer.parseInt(values.get(SEGMENT_INDEX_BYTES)))
                .flushIntervalMessages(Long.parseLong(values.get(FLUSH_MESSAGES)))
                .flushIntervalMs(Long.parseLong(values.get(FLUSH_MS)))
                .compressionType(BrokerCompressionType.forConfigName(values.get(COMPRESSION_TYPE)).orElseThrow())
                .timestampBeforeMaxMs(Long.parseLong(values.get(MESSAGE_TIMESTAMP_BEFORE_MAX_MS)))
                .timestampAfterMaxMs(Long.parseLong(values.get(MESSAGE_TIMESTAMP_AFTER_MAX_MS)))
                .compacted(compacts)
                .segmentJitterMs(Long.parseLong(values.get(SEGMENT_JITTER_MS)))
                .deleteRetentionMs(Long.parseLong(values.get(DELETE_RETENTION_MS)))
                .minCompactionLagMs(Long.parseLong(values.get(MIN_COMPACTION_LAG_MS)))
                .maxCompactionLagMs(Long.parseLong(values.get(MAX_COMPACTION_LAG_MS)))
                .minCleanableDirtyRatio(Double.parseDouble(values.get(MIN_CLEANABLE_DIRTY_RATIO)))
                .fileDeleteDelayMs(Long.parseLong(values.get(FILE_DELETE_DELAY_MS)))
                .build();
    }
}
