package io.minibroker.broker.quota;

import io.minibroker.broker.config.ResourceConfigsFile;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The cluster's client quotas (AlterClientQuotas, {@code kafka-configs --entity-type users|clients|ips}): by entity,
 * quota key to value. Kafka keeps them in the metadata log as ClientQuotaRecords. Kept here as the dynamic broker
 * configs are ({@link io.minibroker.broker.config.BrokerConfigOverrides}): a single node in
 * {@code <first log.dir>/.minibroker-client-quotas}, written by the disk thread that AlterClientQuotas runs on; a
 * cluster's controller in the same file under its {@code .minibroker-controller}, where brokers forward the changes;
 * each broker of a cluster holds a {@linkplain #mirror mirror} that every image it fetches replaces
 * ({@link #install}). Reads take the in-memory copy, a map replaced whole on each change, after which the listeners
 * are told (the ips' connection rates, resolved there; the controller's image version).
 */
public final class ClientQuotas {

    private static final String FILE = ".minibroker-client-quotas";

    /** Where changes are kept; null for a broker's mirror of the controller's. */
    private final Path file;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** Every entity's quotas: unmodifiable, inner maps too, replaced whole on each change. */
    private volatile Map<QuotaEntity, Map<String, Double>> all;

    private ClientQuotas(Path file, Map<QuotaEntity, Map<String, Double>> all) {
        this.file = file;
        this.all = all;
    }

    /** The quotas kept in {@code dir}, if any. */
    public static ClientQuotas open(Path dir) {
        Path file = dir.resolve(FILE);
        Map<QuotaEntity, Map<String, Double>> read = new HashMap<>();
        ResourceConfigsFile.read(file).forEach((entity, values) -> {
            Map<String, Double> quotas = new HashMap<>();
            values.forEach((key, value) -> quotas.put(key, Double.valueOf(value)));
            read.put(decode(entity), Collections.unmodifiableMap(quotas));
        });
        return new ClientQuotas(file, Collections.unmodifiableMap(read));
    }

    /** A cluster broker's copy of the controller's: nothing until the first image, changed by {@link #install}. */
    public static ClientQuotas mirror() {
        return new ClientQuotas(null, Map.of());
    }

    /** {@code listener} is told after each change. */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    /** Every entity's quotas: the same map until the next change. */
    public Map<QuotaEntity, Map<String, Double>> all() {
        return all;
    }

    /**
     * Replaces every entity's quotas with the image's, a mirror's only change.
     *
     * @param quotas unmodifiable, inner maps too, held by no one who changes it: kept as it is
     */
    public void install(Map<QuotaEntity, Map<String, Double>> quotas) {
        all = quotas;
        listeners.forEach(Runnable::run);
    }

    /**
     * Applies {@code changes} (a null value removes the key; an entity left without quotas is gone), written to
     * disk first. Called on the disk thread.
     */
    public synchronized void alter(Map<QuotaEntity, Map<String, Double>> changes) throws IOException {
        if (file == null) {
            throw new IllegalStateException("client quotas change only at the controller");
        }
        Map<QuotaEntity, Map<String, Double>> next = new HashMap<>(all);
        changes.forEach((entity, ops) -> {
            Map<String, Double> quotas = new HashMap<>(next.getOrDefault(entity, Map.of()));
            ops.forEach((key, value) -> {
                if (value == null) {
                    quotas.remove(key);
                } else {
                    quotas.put(key, value);
                }
            });
            if (quotas.isEmpty()) {
                next.remove(entity);
            } else {
                next.put(entity, Collections.unmodifiableMap(quotas));
            }
        });
        Map<String, Map<String, String>> stored = new TreeMap<>();
        next.forEach((entity, quotas) -> {
            Map<String, String> values = new TreeMap<>();
            quotas.forEach((key, value) -> values.put(key, Double.toString(value)));
            stored.put(encode(entity), values);
        });
        ResourceConfigsFile.write(file, stored);
        all = Collections.unmodifiableMap(next);
        listeners.forEach(Runnable::run);
    }

    /** An entity as a resource name of the file: {@code type[=name]} joined by '&', names URL-encoded. */
    private static String encode(QuotaEntity entity) {
        List<String> parts = new ArrayList<>();
        entity.entries().forEach((type, name) -> parts.add(name == null ? type
                : type + "=" + URLEncoder.encode(name, StandardCharsets.UTF_8)));
        return String.join("&", parts);
    }

    private static QuotaEntity decode(String resource) {
        Map<String, String> entries = new HashMap<>();
        for (String part : resource.split("&")) {
            String[] typeAndName = part.split("=", 2);
            entries.put(typeAndName[0], typeAndName.length == 1 ? null
                    : URLDecoder.decode(typeAndName[1], StandardCharsets.UTF_8));
        }
        return new QuotaEntity(entries);
    }
}
