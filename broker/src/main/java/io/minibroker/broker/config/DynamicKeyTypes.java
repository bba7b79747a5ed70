package io.minibroker.broker.config;

import java.util.Map;

/**
 * Kafka 4.3.1's type and range of each dynamic broker config this broker does not parse (KafkaConfig's ConfigDef),
 * so that AlterConfigs and IncrementalAlterConfigs of a BROKER resource refuse a value Kafka would refuse, with its
 * message, though this broker keeps the value without acting on it. List, class, password and string configs take
 * any value here, as Kafka's ConfigDef takes any string for them (their checks are their plugins').
 */
final class DynamicKeyTypes {

    private enum Type { INT, LONG, SHORT, DOUBLE, BOOLEAN }

    /**
     * A type and its range (null: unbounded on that side); {@code orMinusOne}: -1 is taken besides the range, as
     * Kafka's gzip level validator takes it.
     */
    private record KafkaType(Type type, Long min, Long max, boolean orMinusOne) {
        static KafkaType of(Type type) {
            return new KafkaType(type, null, null, false);
        }

        static KafkaType atLeast(Type type, long min) {
            return new KafkaType(type, min, null, false);
        }

        static KafkaType between(long min, long max) {
            return new KafkaType(Type.INT, min, max, false);
        }
    }

    private static final Map<String, KafkaType> TYPES = Map.ofEntries(
            Map.entry("background.threads", KafkaType.atLeast(Type.INT, 1)),
            Map.entry("compression.gzip.level", new KafkaType(Type.INT, 1L, 9L, true)),
            Map.entry("compression.lz4.level", KafkaType.between(1, 17)),
            Map.entry("compression.zstd.level", KafkaType.between(-131_072, 22)),
            Map.entry("follower.fetch.last.tiered.offset.enable", KafkaType.of(Type.BOOLEAN)),
            Map.entry("group.consumer.assignment.interval.ms", KafkaType.atLeast(Type.INT, 0)),
            Map.entry("group.coordinator.cached.buffer.max.bytes", KafkaType.atLeast(Type.INT, 524_288)),
            Map.entry("group.share.assignment.interval.ms", KafkaType.atLeast(Type.INT, 0)),
            Map.entry("group.streams.assignment.interval.ms", KafkaType.atLeast(Type.INT, 0)),
            Map.entry("log.cleaner.io.buffer.load.factor", KafkaType.of(Type.DOUBLE)),
            Map.entry("log.cleaner.io.buffer.size", KafkaType.atLeast(Type.INT, 0)),
            Map.entry("log.cleaner.io.max.bytes.per.second", KafkaType.of(Type.DOUBLE)),
            Map.entry("log.cleaner.threads", KafkaType.atLeast(Type.INT, 0)),
            Map.entry("log.local.retention.bytes", KafkaType.atLeast(Type.LONG, -2)),
            Map.entry("log.local.retention.ms", KafkaType.atLeast(Type.LONG, -2)),
            Map.entry("log.preallocate", KafkaType.of(Type.BOOLEAN)),
            Map.entry("log.roll.jitter.ms", KafkaType.of(Type.LONG)),
            Map.entry("num.io.threads", KafkaType.atLeast(Type.INT, 1)),
            Map.entry("num.network.threads", KafkaType.atLeast(Type.INT, 1)),
            Map.entry("num.replica.fetchers", KafkaType.atLeast(Type.INT, 1)),
            Map.entry("remote.fetch.max.wait.ms", KafkaType.atLeast(Type.INT, 1)),
            Map.entry("remote.list.offsets.request.timeout.ms", KafkaType.atLeast(Type.LONG, 1)),
            Map.entry("remote.log.index.file.cache.total.size.bytes", KafkaType.atLeast(Type.LONG, 1)),
            Map.entry("remote.log.manager.copier.thread.pool.size", KafkaType.atLeast(Type.INT, 1)),
            Map.entry("remote.log.manager.copy.max.bytes.per.second", KafkaType.atLeast(Type.LONG, 1)),
            Map.entry("remote.log.manager.expiration.thread.pool.size", KafkaType.atLeast(Type.INT, 1)),
            Map.entry("remote.log.manager.fetch.max.bytes.per.second", KafkaType.atLeast(Type.LONG, 1)),
            Map.entry("remote.log.manager.follower.thread.pool.size", KafkaType.atLeast(Type.INT, 1)),
            Map.entry("remote.log.reader.threads", KafkaType.atLeast(Type.INT, 1)),
            Map.entry("sasl.kerberos.min.time.before.relogin", KafkaType.of(Type.LONG)),
            Map.entry("sasl.kerberos.ticket.renew.jitter", KafkaType.of(Type.DOUBLE)),
            Map.entry("sasl.kerberos.ticket.renew.window.factor", KafkaType.of(Type.DOUBLE)),
            Map.entry("sasl.login.refresh.buffer.seconds", KafkaType.of(Type.SHORT)),
            Map.entry("sasl.login.refresh.min.period.seconds", KafkaType.of(Type.SHORT)),
            Map.entry("sasl.login.refresh.window.factor", KafkaType.of(Type.DOUBLE)),
            Map.entry("sasl.login.refresh.window.jitter", KafkaType.of(Type.DOUBLE)),
            Map.entry("share.coordinator.cached.buffer.max.bytes", KafkaType.atLeast(Type.INT, 524_288)));

    private DynamicKeyTypes() {
    }

    /** Kafka's message refusing the value, or null if Kafka takes it (or this table does not know the name). */
    static String invalid(String name, String value) {
        KafkaType type = TYPES.get(name);
        if (type == null) {
            return null;
        }
        String trimmed = value.trim();
        String prefix = "Invalid value " + value + " for configuration " + name + ": ";
        if (type.type() == Type.BOOLEAN) {
            return trimmed.equalsIgnoreCase("true") || trimmed.equalsIgnoreCase("false") ? null
                    : prefix + "Expected value to be either true or false";
        }
        double number;
        try {
            number = switch (type.type()) {
                case INT -> Integer.parseInt(trimmed);
                case LONG -> Long.parseLong(trimmed);
                case SHORT -> Short.parseShort(trimmed);
                default -> Double.parseDouble(trimmed);
            };
        } catch (NumberFormatException e) {
            return prefix + "Not a number of type " + type.type();
        }
        if (type.orMinusOne()) {
            return number == -1 || (number >= type.min() && number <= type.max()) ? null
                    : prefix + "Value must be between " + type.min() + " and " + type.max() + " or equal to -1";
        }
        if (type.min() != null && number < type.min()) {
            return prefix + "Value must be at least " + type.min();
        }
        return type.max() != null && number > type.max() ? prefix + "Value must be no more than " + type.max() : null;
    }
}
