package io.minibroker.broker.sharegroup;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.ConfigKey;
import io.minibroker.broker.config.GroupKeyRanges;
import io.minibroker.broker.config.ResourceConfigsFile;
import io.minibroker.broker.share.ShareAutoOffsetReset;
import io.minibroker.broker.share.ShareGroupConfigs;
import io.minibroker.broker.share.ShareGroupSettings;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Group configs (Kafka's GroupConfig: ConfigResource type GROUP, {@code kafka-configs.sh --entity-type groups}), the
 * share groups' ones: {@code share.auto.offset.reset}, {@code share.isolation.level},
 * {@code share.record.lock.duration.ms}, {@code share.delivery.count.limit}, {@code share.partition.max.record.locks},
 * {@code share.session.timeout.ms} and {@code share.heartbeat.interval.ms}, the integer ones defaulting to the
 * broker's {@code group.share.*} key, as Kafka's do (the two others have no broker key: latest, read_uncommitted);
 * the KIP-848 consumer groups' {@code consumer.session.timeout.ms} and {@code consumer.heartbeat.interval.ms},
 * defaulting to {@code group.consumer.*}; and the KIP-1071 streams groups' {@code streams.session.timeout.ms},
 * {@code streams.heartbeat.interval.ms} and {@code streams.num.standby.replicas}, defaulting to
 * {@code group.streams.*}. Kafka 4.3's other group configs ({@code *.assignment.interval.ms},
 * {@code streams.initial.rebalance.delay.ms}, {@code share.renew.acknowledge.enable}) are taken, kept and described,
 * not acted on. A value is checked as Kafka's GroupConfig.validate checks it. A group id needs no group to carry configs (Kafka resolves a group's
 * configs before it exists). The data side reads them through {@link ShareGroupConfigs}, the share-group
 * coordinator through {@link ShareGroupTimings}, the consumer-group coordinator through
 * {@code group/ConsumerGroupTimings}.
 *
 * <p>Kafka keeps them in the cluster metadata log, as ConfigRecords every broker applies. Here a single node keeps
 * them in one file ({@code <first log.dir>/.minibroker-group-configs}, a {@link ResourceConfigsFile} by group id),
 * replaced whole by the disk thread that
 * IncrementalAlterConfigs runs on; so does a cluster's controller (under its {@code .minibroker-controller}), where
 * brokers forward the changes, and each broker holds a {@linkplain #mirror mirror} that every image it fetches
 * replaces ({@link #install}). Reads take the in-memory copy, a map replaced whole on each change.
 */
public final class GroupConfigs implements ShareGroupConfigs, ShareGroupTimings {

    public static final String CONSUMER_SESSION_TIMEOUT_MS = "consumer.session.timeout.ms";
    public static final String CONSUMER_HEARTBEAT_INTERVAL_MS = "consumer.heartbeat.interval.ms";
    public static final String STREAMS_SESSION_TIMEOUT_MS = "streams.session.timeout.ms";
    public static final String STREAMS_HEARTBEAT_INTERVAL_MS = "streams.heartbeat.interval.ms";
    public static final String STREAMS_NUM_STANDBY_REPLICAS = "streams.num.standby.replicas";
    public static final String SHARE_AUTO_OFFSET_RESET = "share.auto.offset.reset";
    public static final String SHARE_ISOLATION_LEVEL = "share.isolation.level";
    public static final String SHARE_RECORD_LOCK_DURATION_MS = "share.record.lock.duration.ms";
    public static final String SHARE_DELIVERY_COUNT_LIMIT = "share.delivery.count.limit";
    public static final String SHARE_PARTITION_MAX_RECORD_LOCKS = "share.partition.max.record.locks";
    public static final String SHARE_SESSION_TIMEOUT_MS = "share.session.timeout.ms";
    public static final String SHARE_HEARTBEAT_INTERVAL_MS = "share.heartbeat.interval.ms";
    public static final String SHARE_RENEW_ACKNOWLEDGE_ENABLE = "share.renew.acknowledge.enable";
    public static final String CONSUMER_ASSIGNMENT_INTERVAL_MS = "consumer.assignment.interval.ms";
    public static final String SHARE_ASSIGNMENT_INTERVAL_MS = "share.assignment.interval.ms";
    public static final String STREAMS_ASSIGNMENT_INTERVAL_MS = "streams.assignment.interval.ms";
    public static final String STREAMS_INITIAL_REBALANCE_DELAY_MS = "streams.initial.rebalance.delay.ms";
    private static final String READ_COMMITTED = "read_committed";
    private static final String READ_UNCOMMITTED = "read_uncommitted";
    private static final String FILE = ".minibroker-group-configs";

    /** The integer configs and the broker key each defaults to (and takes its valid range from). */
    private static final Map<String, ConfigKey<Integer>> INT_CONFIGS = Map.of(
            CONSUMER_SESSION_TIMEOUT_MS, BrokerConfig.GROUP_CONSUMER_SESSION_TIMEOUT_MS,
            CONSUMER_HEARTBEAT_INTERVAL_MS, BrokerConfig.GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS,
            SHARE_RECORD_LOCK_DURATION_MS, BrokerConfig.GROUP_SHARE_RECORD_LOCK_DURATION_MS,
            SHARE_DELIVERY_COUNT_LIMIT, BrokerConfig.GROUP_SHARE_DELIVERY_COUNT_LIMIT,
            SHARE_PARTITION_MAX_RECORD_LOCKS, BrokerConfig.GROUP_SHARE_PARTITION_MAX_RECORD_LOCKS,
            SHARE_SESSION_TIMEOUT_MS, BrokerConfig.GROUP_SHARE_SESSION_TIMEOUT_MS,
            SHARE_HEARTBEAT_INTERVAL_MS, BrokerConfig.GROUP_SHARE_HEARTBEAT_INTERVAL_MS,
            STREAMS_SESSION_TIMEOUT_MS, BrokerConfig.GROUP_STREAMS_SESSION_TIMEOUT_MS,
            STREAMS_HEARTBEAT_INTERVAL_MS, BrokerConfig.GROUP_STREAMS_HEARTBEAT_INTERVAL_MS,
            STREAMS_NUM_STANDBY_REPLICAS, BrokerConfig.GROUP_STREAMS_NUM_STANDBY_REPLICAS);

    /**
     * Integer configs Kafka 4.3 takes that this broker accepts, describes and keeps but does not act on (it has no
     * periodic assignor and no streams initial delay): the broker key Kafka names as their synonym (which this broker
     * does not read, so its default applies) and that default.
     */
    private record Unused(String brokerKey, int defaultValue) {
    }

    private static final Map<String, Unused> UNUSED_INT_CONFIGS = Map.of(
            CONSUMER_ASSIGNMENT_INTERVAL_MS, new Unused("group.consumer.assignment.interval.ms", 1000),
            SHARE_ASSIGNMENT_INTERVAL_MS, new Unused("group.share.assignment.interval.ms", 1000),
            STREAMS_ASSIGNMENT_INTERVAL_MS, new Unused("group.streams.assignment.interval.ms", 1000),
            STREAMS_INITIAL_REBALANCE_DELAY_MS, new Unused("group.streams.initial.rebalance.delay.ms", 3000));

    /** The configs Kafka gives no broker synonym, with their defaults. */
    private static final Map<String, String> NO_SYNONYM_DEFAULTS = Map.of(SHARE_AUTO_OFFSET_RESET, "latest",
            SHARE_ISOLATION_LEVEL, READ_UNCOMMITTED, SHARE_RENEW_ACKNOWLEDGE_ENABLE, "true");

    /** The lowest value Kafka's GroupConfig definition takes for each integer config (its ConfigDef "at least"). */
    private static final Map<String, Integer> AT_LEAST = Map.ofEntries(
            Map.entry(CONSUMER_SESSION_TIMEOUT_MS, 1), Map.entry(CONSUMER_HEARTBEAT_INTERVAL_MS, 1),
            Map.entry(SHARE_SESSION_TIMEOUT_MS, 1), Map.entry(SHARE_HEARTBEAT_INTERVAL_MS, 1),
            Map.entry(SHARE_RECORD_LOCK_DURATION_MS, 1000), Map.entry(SHARE_DELIVERY_COUNT_LIMIT, 2),
            Map.entry(SHARE_PARTITION_MAX_RECORD_LOCKS, 100), Map.entry(STREAMS_SESSION_TIMEOUT_MS, 1),
            Map.entry(STREAMS_HEARTBEAT_INTERVAL_MS, 1), Map.entry(STREAMS_NUM_STANDBY_REPLICAS, 0),
            Map.entry(CONSUMER_ASSIGNMENT_INTERVAL_MS, 0), Map.entry(SHARE_ASSIGNMENT_INTERVAL_MS, 0),
            Map.entry(STREAMS_ASSIGNMENT_INTERVAL_MS, 0), Map.entry(STREAMS_INITIAL_REBALANCE_DELAY_MS, 0));

    /**
     * The bounds Kafka's GroupConfig.validate checks a group's value against: its {@code group.*.min/max.*} broker
     * keys, read from the broker's config where it has them ({@code config/GroupKeyRanges}), else at their Kafka
     * defaults (the assignment intervals' and delivery count limit's, keys this broker does not read). An empty
     * key: no such bound.
     */
    private record Bounds(int min, String minKey, int max, String maxKey) {
        private static Bounds of(ConfigKey<Integer> min, ConfigKey<Integer> max) {
            return new Bounds(min.defaultValue(), min.name(), max.defaultValue(), max.name());
        }

        /** Bounding keys this broker does not read, at Kafka's defaults. */
        private static Bounds unread(String family, String what, int min, int max) {
            return new Bounds(min, "group." + family + ".min." + what, max, "group." + family + ".max." + what);
        }
    }

    private static final Map<String, Bounds> BOUNDS = Map.ofEntries(
            Map.entry(CONSUMER_SESSION_TIMEOUT_MS, Bounds.of(GroupKeyRanges.GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS,
                    GroupKeyRanges.GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS)),
            Map.entry(CONSUMER_HEARTBEAT_INTERVAL_MS, Bounds.of(GroupKeyRanges.GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS,
                    GroupKeyRanges.GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS)),
            Map.entry(CONSUMER_ASSIGNMENT_INTERVAL_MS, Bounds.unread("consumer", "assignment.interval.ms", 0, 15_000)),
            Map.entry(SHARE_SESSION_TIMEOUT_MS, Bounds.of(GroupKeyRanges.GROUP_SHARE_MIN_SESSION_TIMEOUT_MS,
                    GroupKeyRanges.GROUP_SHARE_MAX_SESSION_TIMEOUT_MS)),
            Map.entry(SHARE_HEARTBEAT_INTERVAL_MS, Bounds.of(GroupKeyRanges.GROUP_SHARE_MIN_HEARTBEAT_INTERVAL_MS,
                    GroupKeyRanges.GROUP_SHARE_MAX_HEARTBEAT_INTERVAL_MS)),
            Map.entry(SHARE_RECORD_LOCK_DURATION_MS, Bounds.of(GroupKeyRanges.GROUP_SHARE_MIN_RECORD_LOCK_DURATION_MS,
                    GroupKeyRanges.GROUP_SHARE_MAX_RECORD_LOCK_DURATION_MS)),
            Map.entry(SHARE_DELIVERY_COUNT_LIMIT, Bounds.unread("share", "delivery.count.limit", 2, 10)),
            Map.entry(SHARE_PARTITION_MAX_RECORD_LOCKS,
                    Bounds.of(GroupKeyRanges.GROUP_SHARE_MIN_PARTITION_MAX_RECORD_LOCKS,
                            GroupKeyRanges.GROUP_SHARE_MAX_PARTITION_MAX_RECORD_LOCKS)),
            Map.entry(SHARE_ASSIGNMENT_INTERVAL_MS, Bounds.unread("share", "assignment.interval.ms", 0, 15_000)),
            Map.entry(STREAMS_SESSION_TIMEOUT_MS, Bounds.of(GroupKeyRanges.GROUP_STREAMS_MIN_SESSION_TIMEOUT_MS,
                    GroupKeyRanges.GROUP_STREAMS_MAX_SESSION_TIMEOUT_MS)),
            Map.entry(STREAMS_HEARTBEAT_INTERVAL_MS, Bounds.of(GroupKeyRanges.GROUP_STREAMS_MIN_HEARTBEAT_INTERVAL_MS,
                    GroupKeyRanges.GROUP_STREAMS_MAX_HEARTBEAT_INTERVAL_MS)),
            Map.entry(STREAMS_ASSIGNMENT_INTERVAL_MS, Bounds.unread("streams", "assignment.interval.ms", 0, 15_000)),
            Map.entry(STREAMS_NUM_STANDBY_REPLICAS, new Bounds(0, "",
                    GroupKeyRanges.GROUP_STREAMS_MAX_STANDBY_REPLICAS.defaultValue(),
                    GroupKeyRanges.GROUP_STREAMS_MAX_STANDBY_REPLICAS.name())));

    /** The outcome of a change: NONE, or why not. */
    public record Change(boolean ok, String message) {
    }

    private final BrokerConfig broker;
    /** Where changes are kept; null for a broker's mirror of the controller's. */
    private final Path file;
    /** Told of each change made here (the controller's image version moves on); nothing elsewhere. */
    private final Runnable onChange;
    /** Every group's overrides, by group id: immutable, replaced whole on each change. */
    private volatile Map<String, Map<String, String>> overrides = Map.of();
    /**
     * Each share.auto.offset.reset value set, parsed (a by_duration's duration): as many entries as distinct values
     * were ever set, a handful.
     */
    private final Map<String, ShareAutoOffsetReset> parsedResets = new ConcurrentHashMap<>();

    private GroupConfigs(BrokerConfig broker, Path file, Runnable onChange) {
        this.broker = broker;
        this.file = file;
        this.onChange = onChange;
    }

    /** Reads the overrides this node keeps in {@code logDir}, if any. */
    public static GroupConfigs open(BrokerConfig broker, Path logDir) {
        return open(broker, logDir, () -> { });
    }

    /** As {@link #open(BrokerConfig, Path)}, telling {@code onChange} of each change made. */
    public static GroupConfigs open(BrokerConfig broker, Path logDir, Runnable onChange) {
        GroupConfigs configs = new GroupConfigs(broker, logDir.resolve(FILE), onChange);
        configs.overrides = ResourceConfigsFile.read(configs.file);
        return configs;
    }

    /**
     * A cluster broker's copy of the controller's group configs: nothing until the first image, changed only by
     * {@link #install}, never by {@link #replace} (brokers forward changes to the controller).
     */
    public static GroupConfigs mirror(BrokerConfig broker) {
        return new GroupConfigs(broker, null, () -> { });
    }

    /** Every group's overrides, by group id: the same map until the next change (what the controller hands out). */
    public Map<String, Map<String, String>> all() {
        return overrides;
    }

    /**
     * Replaces every group's overrides with the image's: a mirror's only change, made when the image changed them
     * (the broker's {@code server/SnapshotChanges} compares).
     *
     * @param all unmodifiable, inner maps too, and held by no one who changes it (the image's, as
     *            {@code cluster/SecurityRecords.decode} reads it): kept as it is, not copied
     */
    public void install(Map<String, Map<String, String>> all) {
        overrides = all;
    }

    /** The names Kafka lists for a group that this broker serves, in order. */
    public static List<String> names() {
        return List.of(CONSUMER_ASSIGNMENT_INTERVAL_MS, CONSUMER_HEARTBEAT_INTERVAL_MS, CONSUMER_SESSION_TIMEOUT_MS,
                SHARE_ASSIGNMENT_INTERVAL_MS, SHARE_AUTO_OFFSET_RESET, SHARE_DELIVERY_COUNT_LIMIT,
                SHARE_HEARTBEAT_INTERVAL_MS, SHARE_ISOLATION_LEVEL, SHARE_PARTITION_MAX_RECORD_LOCKS,
                SHARE_RECORD_LOCK_DURATION_MS, SHARE_RENEW_ACKNOWLEDGE_ENABLE, SHARE_SESSION_TIMEOUT_MS,
                STREAMS_ASSIGNMENT_INTERVAL_MS, STREAMS_HEARTBEAT_INTERVAL_MS, STREAMS_INITIAL_REBALANCE_DELAY_MS,
                STREAMS_NUM_STANDBY_REPLICAS, STREAMS_SESSION_TIMEOUT_MS);
    }

    /** The group's overrides (none for a group that has none). */
    public Map<String, String> overrides(String groupId) {
        return Map.copyOf(overrides.getOrDefault(groupId, Map.of()));
    }

    /** Every config's effective value for the group, by name. */
    public Map<String, String> effective(String groupId) {
        Map<String, String> values = defaults();
        values.putAll(overrides(groupId));
        return values;
    }

    private Map<String, String> defaults() {
        Map<String, String> values = new TreeMap<>();
        values.putAll(NO_SYNONYM_DEFAULTS);
        UNUSED_INT_CONFIGS.forEach((name, unused) -> values.put(name, Integer.toString(unused.defaultValue())));
        INT_CONFIGS.forEach((name, key) -> values.put(name, Integer.toString(broker.get(key))));
        return values;
    }

    /** The broker key a group config defaults to, or null if it has none or this broker does not read it. */
    public static ConfigKey<Integer> brokerDefault(String name) {
        return INT_CONFIGS.get(name);
    }

    /**
     * The default synonym Kafka lists for a config whose broker key this broker does not read: the key Kafka names
     * with its default for a config this broker does not act on, the config itself with its default for one Kafka
     * gives no broker key; null for the others ({@link #brokerDefault}).
     */
    public static Map.Entry<String, String> fixedDefault(String name) {
        Unused unused = UNUSED_INT_CONFIGS.get(name);
        if (unused != null) {
            return Map.entry(unused.brokerKey(), Integer.toString(unused.defaultValue()));
        }
        String value = NO_SYNONYM_DEFAULTS.get(name);
        return value == null ? null : Map.entry(name, value);
    }

    /**
     * Replaces the group's overrides with {@code wanted}, if each is a known name with a valid value (Kafka's
     * INVALID_CONFIG otherwise, with its message); written to disk before it is answered. Called on the disk thread.
     */
    public synchronized Change replace(String groupId, Map<String, String> wanted, boolean validateOnly) {
        for (Map.Entry<String, String> entry : wanted.entrySet()) {
            String problem = invalid(entry.getKey(), entry.getValue());
            if (problem != null) {
                return new Change(false, problem);
            }
        }
        Map<String, String> after = defaults();
        after.putAll(wanted);
        for (String[] pair : new String[][] {{SHARE_SESSION_TIMEOUT_MS, SHARE_HEARTBEAT_INTERVAL_MS},
                {STREAMS_SESSION_TIMEOUT_MS, STREAMS_HEARTBEAT_INTERVAL_MS}}) {
            if (Integer.parseInt(after.get(pair[0]).trim()) <= Integer.parseInt(after.get(pair[1]).trim())) {
                return new Change(false, pair[0] + " must be greater than " + pair[1]);
            }
        }
        if (validateOnly) {
            return new Change(true, null);
        }
        if (file == null) {
            throw new IllegalStateException("a broker's group configs change only at the controller");
        }
        Map<String, String> trimmed = new LinkedHashMap<>();
        wanted.forEach((name, value) -> trimmed.put(name, value.trim()));
        Map<String, Map<String, String>> next = new TreeMap<>(overrides);
        if (trimmed.isEmpty()) {
            next.remove(groupId);
        } else {
            next.put(groupId, trimmed);
        }
        try {
            ResourceConfigsFile.write(file, next);
        } catch (IOException e) {
            return new Change(false, "cannot write " + file + ": " + e.getMessage());
        }
        next.replaceAll((group, configs) -> Map.copyOf(configs));
        overrides = Collections.unmodifiableMap(next);
        onChange.run();
        return new Change(true, null);
    }

    private String invalid(String name, String value) {
        if (name.equals(SHARE_AUTO_OFFSET_RESET)) { // Kafka 4.3.1's ShareGroupAutoOffsetResetStrategy.Validator
            String trimmed = value.trim();
            return ShareAutoOffsetReset.parse(trimmed) != null ? null : "Invalid value " + trimmed
                    + " for configuration " + name + ": Invalid value `" + trimmed + "` for configuration " + name
                    + ". The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.";
        }
        if (name.equals(SHARE_ISOLATION_LEVEL)) { // Kafka's IsolationLevel names, as its ValidString takes them
            return value.trim().equals(READ_COMMITTED) || value.trim().equals(READ_UNCOMMITTED) ? null
                    : "Invalid value " + value + " for configuration " + name
                    + ": String must be one of: read_committed, read_uncommitted";
        }
        if (name.equals(SHARE_RENEW_ACKNOWLEDGE_ENABLE)) { // Kafka's BOOLEAN: either word, any case
            return value.trim().equalsIgnoreCase("true") || value.trim().equalsIgnoreCase("false") ? null
                    : "Invalid value " + value + " for configuration " + name
                    + ": Expected value to be either true or false";
        }
        Integer atLeast = AT_LEAST.get(name);
        if (atLeast == null) {
            return "Unknown group config name: " + name;
        }
        int parsed;
        try {
            parsed = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return "Invalid value " + value + " for configuration " + name + ": Not a number of type INT";
        }
        if (parsed < atLeast) {
            return "Invalid value " + value + " for configuration " + name + ": Value must be at least " + atLeast;
        }
        Bounds bounds = BOUNDS.get(name);
        if (bounds != null && parsed < bound(bounds.minKey(), bounds.min())) {
            return name + " must be greater than or equal to " + bounds.minKey();
        }
        return bounds != null && parsed > bound(bounds.maxKey(), bounds.max())
                ? name + " must be less than or equal to " + bounds.maxKey() : null;
    }

    /** A bounding broker key's value here, or Kafka's default for one this broker does not read. */
    private int bound(String key, int kafkaDefault) {
        ConfigKey<?> known = BrokerConfig.knownKeys().get(key);
        return known == null ? kafkaDefault : (Integer) broker.get(known);
    }

    /** {@code consumer.heartbeat.interval.ms}, else {@code group.consumer.heartbeat.interval.ms}. */
    public int consumerHeartbeatIntervalMs(String groupId) {
        return intValue(overrides.get(groupId), CONSUMER_HEARTBEAT_INTERVAL_MS);
    }

    /** {@code consumer.session.timeout.ms}, else {@code group.consumer.session.timeout.ms}. */
    public int consumerSessionTimeoutMs(String groupId) {
        return intValue(overrides.get(groupId), CONSUMER_SESSION_TIMEOUT_MS);
    }

    /** {@code streams.heartbeat.interval.ms}, else {@code group.streams.heartbeat.interval.ms}. */
    public int streamsHeartbeatIntervalMs(String groupId) {
        return intValue(overrides.get(groupId), STREAMS_HEARTBEAT_INTERVAL_MS);
    }

    /** {@code streams.session.timeout.ms}, else {@code group.streams.session.timeout.ms}. */
    public int streamsSessionTimeoutMs(String groupId) {
        return intValue(overrides.get(groupId), STREAMS_SESSION_TIMEOUT_MS);
    }

    /** {@code streams.num.standby.replicas}, else {@code group.streams.num.standby.replicas}. */
    public int streamsNumStandbyReplicas(String groupId) {
        return intValue(overrides.get(groupId), STREAMS_NUM_STANDBY_REPLICAS);
    }

    @Override
    public int heartbeatIntervalMs(String groupId) {
        return intValue(overrides.get(groupId), SHARE_HEARTBEAT_INTERVAL_MS);
    }

    @Override
    public int sessionTimeoutMs(String groupId) {
        return intValue(overrides.get(groupId), SHARE_SESSION_TIMEOUT_MS);
    }

    /** Read at every share fetch and heartbeat: straight from the override or the broker key, no map of all. */
    @Override
    public ShareGroupSettings settings(String groupId) {
        Map<String, String> group = overrides.get(groupId);
        return new ShareGroupSettings(intValue(group, SHARE_RECORD_LOCK_DURATION_MS),
                intValue(group, SHARE_DELIVERY_COUNT_LIMIT), intValue(group, SHARE_PARTITION_MAX_RECORD_LOCKS),
                autoOffsetReset(group),
                group != null && READ_COMMITTED.equals(group.get(SHARE_ISOLATION_LEVEL)));
    }

    /**
     * share.auto.offset.reset for a group with these overrides (null for none): latest unless set (checked then).
     * Each value is parsed once ({@link #parsedResets}): this is read at every share fetch.
     */
    private ShareAutoOffsetReset autoOffsetReset(Map<String, String> group) {
        String value = group == null ? null : group.get(SHARE_AUTO_OFFSET_RESET);
        return value == null ? ShareAutoOffsetReset.LATEST
                : parsedResets.computeIfAbsent(value, set -> ShareAutoOffsetReset.parse(set.trim()));
    }

    /** An integer config's value for a group with these overrides (null for none). */
    private int intValue(Map<String, String> group, String name) {
        String override = group == null ? null : group.get(name);
        return override != null ? Integer.parseInt(override) : broker.get(INT_CONFIGS.get(name));
    }
}
