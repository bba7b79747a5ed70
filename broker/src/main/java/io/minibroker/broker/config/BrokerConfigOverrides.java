package io.minibroker.broker.config;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The dynamic broker configs ({@link DynamicBrokerConfig}) as stored: by resource name, a broker's id for its own
 * and "" for the cluster default. Kafka keeps them in the cluster metadata log as ConfigRecords of resource type
 * BROKER. Here a single node keeps them in {@code <first log.dir>/.minibroker-broker-configs} (a
 * {@link ResourceConfigsFile}), written by the disk thread that AlterConfigs runs on; so does a cluster's controller,
 * under its {@code .minibroker-controller}, where brokers forward the changes; and each broker holds a
 * {@linkplain #mirror mirror} that every image it fetches replaces ({@link #install}). Reads take the in-memory copy,
 * a map replaced whole on each change, after which {@code onChange} is told.
 */
public final class BrokerConfigOverrides {

    private static final String FILE = ".minibroker-broker-configs";

    /** Where changes are kept; null for a broker's mirror of the controller's. */
    private final Path file;
    private final Runnable onChange;
    /** Every resource's configs, by resource name: unmodifiable, inner maps too, replaced whole on each change. */
    private volatile Map<String, Map<String, String>> all;

    private BrokerConfigOverrides(Path file, Runnable onChange, Map<String, Map<String, String>> all) {
        this.file = file;
        this.onChange = onChange;
        this.all = all;
    }

    /** The configs kept in {@code dir}, if any; {@code onChange} is told of each change made after. */
    public static BrokerConfigOverrides open(Path dir, Runnable onChange) {
        Path file = dir.resolve(FILE);
        return new BrokerConfigOverrides(file, onChange, ResourceConfigsFile.read(file));
    }

    /** A cluster broker's copy of the controller's: nothing until the first image, changed by {@link #install}. */
    public static BrokerConfigOverrides mirror(Runnable onChange) {
        return new BrokerConfigOverrides(null, onChange, Map.of());
    }

    /** Every resource's configs: the same map until the next change (what the controller hands out). */
    public Map<String, Map<String, String>> all() {
        return all;
    }

    /** A resource's configs ("" for the cluster default), none if it has none. */
    public Map<String, String> of(String resourceName) {
        return all.getOrDefault(resourceName, Map.of());
    }

    /**
     * Replaces every resource's configs with the image's, a mirror's only change.
     *
     * @param configs unmodifiable, inner maps too, held by no one who changes it: kept as it is
     */
    public void install(Map<String, Map<String, String>> configs) {
        all = configs;
        onChange.run();
    }

    /** Makes {@code configs} the resource's (none removes it), written to disk first. Called on the disk thread. */
    public synchronized void replace(String resourceName, Map<String, String> configs) throws IOException {
        if (file == null) {
            throw new IllegalStateException("a broker's dynamic configs change only at the controller");
        }
        Map<String, Map<String, String>> next = new TreeMap<>(all);
        if (configs.isEmpty()) {
            next.remove(resourceName);
        } else {
            next.put(resourceName, Map.copyOf(configs));
        }
        ResourceConfigsFile.write(file, next);
        all = Collections.unmodifiableMap(next);
        onChange.run();
    }
}
