package io.minibroker.broker.feature;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * The finalized level of every feature, and their epoch: what ApiVersions answers as FinalizedFeatures and
 * FinalizedFeaturesEpoch. Kafka's epoch is the metadata offset the levels were read at; here it moves on by one at
 * each change. It must grow with every change, since kafka-clients take a node's finalized features only when their
 * epoch is above the highest they have seen (a producer would otherwise keep an old {@code transaction.version}).
 */
public record FeatureLevels(Map<Feature, Short> levels, long epoch) {

    private static final String EPOCH = "epoch";

    public FeatureLevels {
        EnumMap<Feature, Short> copy = new EnumMap<>(Feature.class);
        copy.putAll(levels);
        levels = Collections.unmodifiableMap(copy);
    }

    /** The levels a storage formatted with Kafka's defaults holds, with {@code transactionVersion} as asked. */
    public static FeatureLevels atDefaults(short transactionVersion) {
        EnumMap<Feature, Short> levels = new EnumMap<>(Feature.class);
        for (Feature feature : Feature.values()) {
            levels.put(feature, feature.defaultLevel());
        }
        levels.put(Feature.TRANSACTION_VERSION, transactionVersion);
        return new FeatureLevels(levels, 0);
    }

    /** The feature's finalized level; 0 when it is not finalized. */
    public short level(Feature feature) {
        return levels.getOrDefault(feature, (short) 0);
    }

    /** These levels with {@code changes} applied, at the next epoch. */
    FeatureLevels with(Map<Feature, Short> changes) {
        EnumMap<Feature, Short> next = new EnumMap<>(Feature.class);
        next.putAll(levels);
        next.putAll(changes);
        return new FeatureLevels(next, epoch + 1);
    }

    /** As kept on disk: a line per feature, {@code name=level}, and {@code epoch=N}. */
    String toText() {
        StringBuilder text = new StringBuilder();
        levels.forEach((feature, level) -> text.append(feature.featureName()).append('=').append(level).append('\n'));
        return text.append(EPOCH).append('=').append(epoch).append('\n').toString();
    }

    /**
     * Reads {@link #toText()}'s form; a feature the file does not name keeps its level in {@code base}.
     *
     * @throws IllegalArgumentException for a line that is not a known feature or the epoch with a number
     */
    static FeatureLevels parse(String text, FeatureLevels base) {
        EnumMap<Feature, Short> levels = new EnumMap<>(base.levels());
        long epoch = base.epoch();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int equals = line.indexOf('=');
            String name = equals < 0 ? line : line.substring(0, equals).trim();
            try {
                if (name.equals(EPOCH)) {
                    epoch = Long.parseLong(line.substring(equals + 1).trim());
                    continue;
                }
                Feature feature = Feature.named(name);
                if (feature == null || equals < 0) {
                    throw new IllegalArgumentException("not a feature level: " + line);
                }
                levels.put(feature, Short.parseShort(line.substring(equals + 1).trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a feature level: " + line, e);
            }
        }
        return new FeatureLevels(levels, epoch);
    }
}
