package io.minibroker.broker.config;

import java.util.Map;

/**
 * Kafka 4.3.1's range of each dynamic broker config this broker does not parse (KafkaConfig's ConfigDef), and its type
 * from {@link KafkaConfigTypes}, so that AlterConfigs and IncrementalAlterConfigs of a BROKER resource refuse a value
 * Kafka would refuse, with its message, though this broker keeps the value without acting on it. List, class, password
 * and string configs take any value here, as Kafka's ConfigDef takes any string for them (their checks are their
 * plugins').
 */
final class DynamicKeyTypes {

    /**
     * A range (null: unbounded on that side); {@code orMinusOne}: -1 is taken besides the range, as Kafka's gzip level
     * validator takes it.
     */
    private record Range(Long min, Long max, boolean orMinusOne) {
        static final Range ANY = new Range(null, null, false);

        static Range atLeast(long min) {
            return new Range(min, null, false);
        }

        static Range between(long min, long max) {
            return new Range(min, max, false);
        }
    }

    private static final Map<String, Range> RANGES = Map.ofEntries(
            Map.entry("background.threads", Range.atLeast(1)),
            Map.entry("compression.gzip.level", new Range(1L, 9L, true)),
            Map.entry("compression.lz4.level", Range.between(1, 17)),
            Map.entry("compression.zstd.level", Range.between(-131_072, 22)),
            Map.entry("follower.fetch.last.tiered.offset.enable", Range.ANY),
            Map.entry("group.consumer.assignment.interval.ms", Range.atLeast(0)),
            Map.entry("group.coordinator.cached.buffer.max.bytes", Range.atLeast(524_288)),
            Map.entry("group.share.assignment.interval.ms", Range.atLeast(0)),
            Map.entry("group.streams.assignment.interval.ms", Range.atLeast(0)),
            Map.entry("log.cleaner.io.buffer.load.factor", Range.ANY),
            Map.entry("log.cleaner.io.buffer.size", Range.atLeast(0)),
            Map.entry("log.cleaner.io.max.bytes.per.second", Range.ANY),
            Map.entry("log.cleaner.threads", Range.atLeast(0)),
            Map.entry("log.local.retention.bytes", Range.atLeast(-2)),
            Map.entry("log.local.retention.ms", Range.atLeast(-2)),
            Map.entry("log.preallocate", Range.ANY),
            Map.entry("num.io.threads", Range.atLeast(1)),
            Map.entry("num.network.threads", Range.atLeast(1)),
            Map.entry("num.replica.fetchers", Range.atLeast(1)),
            Map.entry("remote.fetch.max.wait.ms", Range.atLeast(1)),
            Map.entry("remote.list.offsets.request.timeout.ms", Range.atLeast(1)),
            Map.entry("remote.log.index.file.cache.total.size.bytes", Range.atLeast(1)),
            Map.entry("remote.log.manager.copier.thread.pool.size", Range.atLeast(1)),
            Map.entry("remote.log.manager.copy.max.bytes.per.second", Range.atLeast(1)),
            Map.entry("remote.log.manager.expiration.thread.pool.size", Range.atLeast(1)),
            Map.entry("remote.log.manager.fetch.max.bytes.per.second", Range.atLeast(1)),
            Map.entry("remote.log.manager.follower.thread.pool.size", Range.atLeast(1)),
            Map.entry("remote.log.reader.threads", Range.atLeast(1)),
            Map.entry("sasl.kerberos.min.time.before.relogin", Range.ANY),
            Map.entry("sasl.kerberos.ticket.renew.jitter", Range.ANY),
            Map.entry("sasl.kerberos.ticket.renew.window.factor", Range.ANY),
            Map.entry("sasl.login.refresh.buffer.seconds", Range.ANY),
            Map.entry("sasl.login.refresh.min.period.seconds", Range.ANY),
            Map.entry("sasl.login.refresh.window.factor", Range.ANY),
            Map.entry("sasl.login.refresh.window.jitter", Range.ANY),
            Map.entry("share.coordinator.cached.buffer.max.bytes", Range.atLeast(524_288)));

    private DynamicKeyTypes() {
    }

    /** Kafka's message refusing the value, or null if Kafka takes it (or this table does not know the name). */
    static String invalid(String name, String value) {
        Range range = RANGES.get(name);
        if (range == null) {
            return null;
        }
        ConfigType type = KafkaConfigTypes.broker(name);
        String trimmed = value.trim();
        String prefix = "Invalid value " + value + " for configuration " + name + ": ";
        if (type == ConfigType.BOOLEAN) {
            return trimmed.equalsIgnoreCase("true") || trimmed.equalsIgnoreCase("false") ? null
                    : prefix + "Expected value to be either true or false";
        }
        if (type != ConfigType.INT && type != ConfigType.LONG && type != ConfigType.SHORT && type != ConfigType.DOUBLE) {
            return null; // a list, class, password or string: any text, as Kafka's ConfigDef takes it
        }
        double number;
        try {
            number = switch (type) {
                case INT -> Integer.parseInt(trimmed);
                case LONG -> Long.parseLong(trimmed);
                case SHORT -> Short.parseShort(trimmed);
                default -> Double.parseDouble(trimmed);
            };
        } catch (NumberFormatException e) {
            return prefix + "Not a number of type " + type;
        }
        if (range.orMinusOne()) {
            return number == -1 || (number >= range.min() && number <= range.max()) ? null
                    : prefix + "Value must be between " + range.min() + " and " + range.max() + " or equal to -1";
        }
        if (range.min() != null && number < range.min()) {
            return prefix + "Value must be at least " + range.min();
        }
        return range.max() != null && number > range.max()
                ? prefix + "Value must be no more than " + range.max() : null;
    }
}
