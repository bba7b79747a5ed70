package io.minibroker.broker.clientmetrics;

import io.minibroker.broker.config.ResourceConfigsFile;
import io.minibroker.protocol.error.Errors;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * KIP-714 client metrics subscriptions (ConfigResource type CLIENT_METRICS, {@code kafka-client-metrics.sh}): each a
 * name with up to three configs, {@code metrics} (metric name prefixes), {@code interval.ms} (push interval) and
 * {@code match} (client selectors), checked as Kafka 4.3.1's ClientMetricsConfigs checks them. Kept, described and
 * listed only: this broker, like a Kafka broker without a ClientTelemetryReceiver, serves no telemetry, so no client
 * is ever sent a subscription.
 *
 * <p>A single node keeps them in one file ({@code <first log.dir>/.minibroker-client-metrics}, a
 * {@link ResourceConfigsFile} by subscription name), replaced whole by the disk thread that the config changes run
 * on; a cluster's controller keeps the same file in its directory and hands them to the brokers as ConfigRecords of
 * its image, where each broker holds a mirror. Reads take the in-memory copy, a map replaced whole on each change.
 */
public final class ClientMetricsSubscriptions {

    public static final String METRICS = "metrics";
    public static final String INTERVAL_MS = "interval.ms";
    public static final String MATCH = "match";
    /** Kafka's defaults: no metrics, five minutes, every client. */
    public static final Map<String, String> DEFAULTS = Map.of(METRICS, "", INTERVAL_MS, "300000", MATCH, "");
    /** The LIST configs, which IncrementalAlterConfigs' APPEND and SUBTRACT take, with their defaults. */
    public static final Map<String, String> LIST_DEFAULTS = Map.of(METRICS, "", MATCH, "");
    private static final int MIN_INTERVAL_MS = 100;
    private static final int MAX_INTERVAL_MS = 3_600_000;
    /** The client properties a {@code match} selector may name. */
    private static final Set<String> MATCH_PARAMS = Set.of("client_instance_id", "client_id", "client_software_name",
            "client_software_version", "client_source_address", "client_source_port");
    private static final String FILE = ".minibroker-client-metrics";

    /** The outcome of a change: {@code Errors.NONE}, or Kafka's error and message. */
    public record Change(Errors error, String message) {
        private static final Change OK = new Change(Errors.NONE, null);
    }

    /** Where changes are kept; null for a cluster broker's mirror of the controller's. */
    private final Path file;
    /** Told of each change made here (the controller's image version moves on); nothing elsewhere. */
    private final Runnable onChange;
    private volatile Map<String, Map<String, String>> subscriptions;

    private ClientMetricsSubscriptions(Path file, Runnable onChange, Map<String, Map<String, String>> subscriptions) {
        this.file = file;
        this.onChange = onChange;
        this.subscriptions = subscriptions;
    }

    /** Reads the subscriptions this node keeps in {@code logDir}, if any. */
    public static ClientMetricsSubscriptions open(Path logDir) {
        return open(logDir, () -> { });
    }

    /** As {@link #open(Path)}, telling {@code onChange} of each change made (a controller's image moves on). */
    public static ClientMetricsSubscriptions open(Path logDir, Runnable onChange) {
        Path file = logDir.resolve(FILE);
        return new ClientMetricsSubscriptions(file, onChange, ResourceConfigsFile.read(file));
    }

    /**
     * A cluster broker's copy of the controller's subscriptions: none until the first image, changed only by
     * {@link #install} (brokers forward changes to the controller).
     */
    public static ClientMetricsSubscriptions mirror() {
        return new ClientMetricsSubscriptions(null, () -> { }, Map.of());
    }

    /**
     * Replaces every subscription with the image's: a mirror's only change, made when the image changed them.
     *
     * @param all unmodifiable, inner maps too, as {@code cluster/SecurityRecords.decode} reads it: kept, not copied
     */
    public void install(Map<String, Map<String, String>> all) {
        subscriptions = all;
    }

    /** Every subscription's configs, by name. */
    public Map<String, Map<String, String>> all() {
        return subscriptions;
    }

    /** A subscription's configs that are set (none for an unknown name). */
    public Map<String, String> configs(String name) {
        return subscriptions.getOrDefault(name, Map.of());
    }

    /**
     * Makes {@code wanted} the subscription's configs if Kafka would take them (none: the subscription is gone),
     * written to disk before it is answered. Called on the disk thread.
     */
    public synchronized Change replace(String name, Map<String, String> wanted, boolean validateOnly) {
        Change invalid = invalid(name, wanted);
        if (invalid != null || validateOnly) {
            return invalid == null ? Change.OK : invalid;
        }
        Map<String, Map<String, String>> next = new TreeMap<>(subscriptions);
        if (wanted.isEmpty()) {
            next.remove(name);
        } else {
            next.put(name, Map.copyOf(wanted));
        }
        try {
            ResourceConfigsFile.write(file, next);
        } catch (IOException e) {
            return new Change(Errors.UNKNOWN_SERVER_ERROR, "cannot write " + file + ": " + e.getMessage());
        }
        subscriptions = Collections.unmodifiableMap(next);
        onChange.run();
        return Change.OK;
    }

    /**
     * Kafka's ClientMetricsConfigs.validate: INVALID_REQUEST for a name, key or interval, INVALID_CONFIG else, in
     * Kafka's order (the keys, then ConfigDef's parse of metrics, interval.ms and match, then the checks after it).
     * A duplicate list value is no error: Kafka's ConfigDef drops duplicates (with a warning) before its
     * ValidList's duplicate check runs, and the value is kept as given.
     */
    private static Change invalid(String name, Map<String, String> configs) {
        if (name.isEmpty()) {
            return new Change(Errors.INVALID_REQUEST, "Subscription name can't be empty");
        }
        for (String key : configs.keySet()) {
            if (!DEFAULTS.containsKey(key)) {
                return new Change(Errors.INVALID_REQUEST, "Unknown client metrics configuration: " + key);
            }
        }
        Change emptyMetric = emptyItem(configs, METRICS);
        if (emptyMetric != null) {
            return emptyMetric;
        }
        String interval = configs.get(INTERVAL_MS);
        Integer parsed = null;
        if (interval != null) {
            try {
                parsed = Integer.parseInt(interval.trim());
            } catch (NumberFormatException e) {
                return new Change(Errors.INVALID_CONFIG, "Invalid value " + interval + " for configuration "
                        + INTERVAL_MS + ": Not a number of type INT");
            }
        }
        Change emptySelector = emptyItem(configs, MATCH);
        if (emptySelector != null) {
            return emptySelector;
        }
        if (parsed != null && (parsed < MIN_INTERVAL_MS || parsed > MAX_INTERVAL_MS)) {
            return new Change(Errors.INVALID_REQUEST, "Invalid value " + parsed + " for " + INTERVAL_MS
                    + ", interval must be between 100 and 3600000 (1 hour)");
        }
        for (String selector : items(configs.getOrDefault(MATCH, ""))) {
            if (!validSelector(selector)) {
                return new Change(Errors.INVALID_CONFIG, "Illegal client matching pattern: " + selector);
            }
        }
        return null;
    }

    /** Kafka's ValidList refuses an empty item in a non-empty list ("a,,b", "a,"), as INVALID_CONFIG. */
    private static Change emptyItem(Map<String, String> configs, String key) {
        String list = configs.get(key);
        if (list != null && items(list).contains("")) {
            return new Change(Errors.INVALID_CONFIG, "Configuration '" + key + "' values must not be empty.");
        }
        return null;
    }

    /** {@code param=regex}, split at the first '=', the param one Kafka knows and the regex one Java compiles. */
    private static boolean validSelector(String selector) {
        int equals = selector.indexOf('=');
        if (equals < 0 || !MATCH_PARAMS.contains(selector.substring(0, equals).trim())) {
            return false;
        }
        try {
            Pattern.compile(selector.substring(equals + 1).trim());
            return true;
        } catch (PatternSyntaxException e) {
            return false;
        }
    }

    /**
     * A LIST config's items, as Kafka's ConfigDef parses one: none for a blank value, else split at every comma and
     * trimmed, empty items kept (for {@link #emptyItem} to refuse).
     */
    private static List<String> items(String list) {
        if (list.isBlank()) {
            return List.of();
        }
        List<String> items = new ArrayList<>();
        for (String item : list.split(",", -1)) {
            items.add(item.trim());
        }
        return items;
    }
}
