package io.minibroker.broker.config;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which broker configs may change at runtime (AlterConfigs and IncrementalAlterConfigs of a BROKER resource,
 * {@code kafka-configs --entity-type brokers}), at which level, and the checks a change must pass, as Kafka 4.3's
 * DynamicBrokerConfig decides them. A change names either this broker ({@code "<node.id>"}, per-broker) or every
 * broker ({@code ""}, the cluster default); a per-broker value wins over the cluster default, which wins over the
 * file.
 *
 * <p>Kafka accepts every name in {@link #ALL_DYNAMIC_CONFIGS}; this broker keeps them all, describes them, and acts
 * on those that it reads where it reads them again (see {@link BrokerConfig#applyDynamic}: the topic defaults such
 * as {@code log.retention.ms}, whose logs are given their new settings at once). A name Kafka does not know passes
 * as it passes Kafka's checks, and is kept without effect.
 */
public final class DynamicBrokerConfig {

    /** Kafka 4.3.1's DynamicBrokerConfig.ALL_DYNAMIC_CONFIGS: the configs it lets change without a restart. */
    public static final Set<String> ALL_DYNAMIC_CONFIGS = Set.of("background.threads", "compression.gzip.level",
            "compression.lz4.level", "compression.type", "compression.zstd.level", "config.providers",
            "cordoned.log.dirs", "follower.fetch.last.tiered.offset.enable", "follower.replication.throttled.rate",
            "group.consumer.assignment.interval.ms", "group.coordinator.cached.buffer.max.bytes",
            "group.share.assignment.interval.ms", "group.streams.assignment.interval.ms",
            "leader.replication.throttled.rate", "listener.security.protocol.map", "listeners",
            "log.cleaner.backoff.ms", "log.cleaner.dedupe.buffer.size", "log.cleaner.delete.retention.ms",
            "log.cleaner.io.buffer.load.factor", "log.cleaner.io.buffer.size", "log.cleaner.io.max.bytes.per.second",
            "log.cleaner.max.compaction.lag.ms", "log.cleaner.min.cleanable.ratio", "log.cleaner.min.compaction.lag.ms",
            "log.cleaner.threads", "log.cleanup.policy", "log.flush.interval.messages", "log.flush.interval.ms",
            "log.index.interval.bytes", "log.index.size.max.bytes", "log.local.retention.bytes",
            "log.local.retention.ms", "log.message.timestamp.after.max.ms", "log.message.timestamp.before.max.ms",
            "log.message.timestamp.type", "log.preallocate", "log.retention.bytes", "log.retention.ms",
            "log.roll.jitter.ms", "log.roll.ms", "log.segment.bytes", "log.segment.delete.delay.ms",
            "max.connection.creation.rate", "max.connections", "max.connections.per.ip",
            "max.connections.per.ip.overrides", "message.max.bytes", "metric.reporters", "min.insync.replicas",
            "num.io.threads", "num.network.threads", "num.recovery.threads.per.data.dir", "num.replica.fetchers",
            "principal.builder.class", "producer.id.expiration.ms", "remote.fetch.max.wait.ms",
            "remote.list.offsets.request.timeout.ms", "remote.log.index.file.cache.total.size.bytes",
            "remote.log.manager.copier.thread.pool.size", "remote.log.manager.copy.max.bytes.per.second",
            "remote.log.manager.expiration.thread.pool.size", "remote.log.manager.fetch.max.bytes.per.second",
            "remote.log.manager.follower.thread.pool.size", "remote.log.reader.threads",
            "replica.alter.log.dirs.io.max.bytes.per.second", "sasl.enabled.mechanisms", "sasl.jaas.config",
            "sasl.kerberos.kinit.cmd", "sasl.kerberos.min.time.before.relogin", "sasl.kerberos.principal.to.local.rules",
            "sasl.kerberos.service.name", "sasl.kerberos.ticket.renew.jitter", "sasl.kerberos.ticket.renew.window.factor",
            "sasl.login.refresh.buffer.seconds", "sasl.login.refresh.min.period.seconds",
            "sasl.login.refresh.window.factor", "sasl.login.refresh.window.jitter",
            "sasl.mechanism.inter.broker.protocol", "share.coordinator.cached.buffer.max.bytes", "ssl.cipher.suites",
            "ssl.client.auth", "ssl.enabled.protocols", "ssl.endpoint.identification.algorithm",
            "ssl.engine.factory.class", "ssl.key.password", "ssl.keymanager.algorithm", "ssl.keystore.certificate.chain",
            "ssl.keystore.key", "ssl.keystore.location", "ssl.keystore.password", "ssl.keystore.type", "ssl.protocol",
            "ssl.provider", "ssl.secure.random.implementation", "ssl.trustmanager.algorithm",
            "ssl.truststore.certificates", "ssl.truststore.location", "ssl.truststore.password", "ssl.truststore.type",
            "transaction.partition.verification.enable", "unclean.leader.election.enable");

    /** Kafka's DYNAMIC_SECURITY_CONFIGS: the key and trust stores, changed only under a listener's prefix. */
    private static final Set<String> SECURITY_CONFIGS = Set.of("ssl.key.password", "ssl.keystore.certificate.chain",
            "ssl.keystore.key", "ssl.keystore.location", "ssl.keystore.password", "ssl.keystore.type",
            "ssl.truststore.certificates", "ssl.truststore.location", "ssl.truststore.password", "ssl.truststore.type");

    /** The listener configs that may be set for every broker at once; the other listener configs are per broker. */
    private static final Set<String> CLUSTER_LEVEL_LISTENER_CONFIGS = Set.of("max.connections",
            "max.connection.creation.rate", "num.network.threads");

    /** Kafka's per-broker configs: its listener and security ones, which name one broker's files and ports. */
    private static final Set<String> PER_BROKER_CONFIGS = Set.of("cordoned.log.dirs", "listener.security.protocol.map",
            "listeners", "principal.builder.class", "sasl.enabled.mechanisms", "sasl.jaas.config",
            "sasl.kerberos.kinit.cmd", "sasl.kerberos.min.time.before.relogin", "sasl.kerberos.principal.to.local.rules",
            "sasl.kerberos.service.name", "sasl.kerberos.ticket.renew.jitter", "sasl.kerberos.ticket.renew.window.factor",
            "sasl.login.refresh.buffer.seconds", "sasl.login.refresh.min.period.seconds",
            "sasl.login.refresh.window.factor", "sasl.login.refresh.window.jitter",
            "sasl.mechanism.inter.broker.protocol", "ssl.cipher.suites", "ssl.client.auth", "ssl.enabled.protocols",
            "ssl.endpoint.identification.algorithm", "ssl.engine.factory.class", "ssl.key.password",
            "ssl.keymanager.algorithm", "ssl.keystore.certificate.chain", "ssl.keystore.key", "ssl.keystore.location",
            "ssl.keystore.password", "ssl.keystore.type", "ssl.protocol", "ssl.provider",
            "ssl.secure.random.implementation", "ssl.trustmanager.algorithm", "ssl.truststore.certificates",
            "ssl.truststore.location", "ssl.truststore.password", "ssl.truststore.type");

    private static final Pattern LISTENER_CONFIG = Pattern.compile("listener\\.name\\.[^.]*\\.(.*)");

    private DynamicBrokerConfig() {
    }

    /** Whether Kafka lets this config change at runtime (DescribeConfigs answers the others read-only). */
    public static boolean isDynamic(String name) {
        return ALL_DYNAMIC_CONFIGS.contains(name);
    }

    /**
     * Why these values cannot be this broker's dynamic configs ({@code perBroker}) or the cluster default, in
     * Kafka's words and order; null if they can. Refused: a config that only a restart changes (one this broker
     * reads, or one Kafka names so), a key or trust store without a listener prefix, a per-broker config at the
     * cluster default, and a value this broker would not start with.
     */
    public static String invalidReason(Map<String, String> props, boolean perBroker) {
        Set<String> nonDynamic = new HashSet<>();
        Set<String> unprefixedSecurity = new HashSet<>();
        Set<String> perBrokerOnly = new HashSet<>();
        for (String name : props.keySet()) {
            Matcher listener = LISTENER_CONFIG.matcher(name);
            if (listener.matches()) {
                if (!CLUSTER_LEVEL_LISTENER_CONFIGS.contains(listener.group(1))) {
                    perBrokerOnly.add(name);
                }
                continue;
            }
            if (!isDynamic(name) && isKnown(name)) {
                nonDynamic.add(name);
            }
            if (SECURITY_CONFIGS.contains(name)) {
                unprefixedSecurity.add(name);
            }
            if (PER_BROKER_CONFIGS.contains(name)) {
                perBrokerOnly.add(name);
            }
        }
        if (!nonDynamic.isEmpty()) {
            return "Cannot update these configs dynamically: " + list(nonDynamic);
        }
        if (!unprefixedSecurity.isEmpty()) {
            return "These security configs can be dynamically updated only per-listener using the listener prefix: "
                    + list(unprefixedSecurity);
        }
        if (!perBroker && !perBrokerOnly.isEmpty()) {
            return "Cannot update these configs at default cluster level, broker id must be specified: "
                    + list(perBrokerOnly);
        }
        for (Map.Entry<String, String> entry : props.entrySet()) {
            Matcher listener = LISTENER_CONFIG.matcher(entry.getKey());
            String problem = invalidValue(listener.matches() ? listener.group(1) : entry.getKey(), entry.getValue());
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    /**
     * A config this broker reads from its file, or one of Kafka's (so only a restart changes it, unless Kafka makes it
     * dynamic); any other name is stored as given, as Kafka stores a name its KafkaConfig does not define.
     */
    private static boolean isKnown(String name) {
        return BrokerConfig.knownKeys().containsKey(name) || SslKeys.isSslKey(name)
                || KafkaBrokerKeys.of(name).isPresent(); // a key of Kafka's this broker does not read (broker.id)
    }

    /**
     * Kafka's check of a value by its config's type and range: this broker's parser for the configs it reads,
     * Kafka's type and range ({@link DynamicKeyTypes}) for the other dynamic ones.
     */
    private static String invalidValue(String name, String value) {
        ConfigKey<?> key = BrokerConfig.knownKeys().get(name);
        if (key == null) {
            return DynamicKeyTypes.invalid(name, value);
        }
        Object parsed;
        try {
            parsed = key.parse(value);
        } catch (ConfigException e) {
            return e.getMessage(); // Kafka's shape: Invalid value <value> for configuration <name>: <why>
        }
        if (key == BrokerConfig.LOG_RETENTION_MS && Long.valueOf(0).equals(parsed)) {
            return BrokerConfig.ZERO_RETENTION; // Kafka's KafkaConfig check of the whole, run on the change
        }
        if (key == BrokerConfig.MAX_CONNECTIONS && Integer.valueOf(0).equals(parsed)) {
            // Kafka's connection quotas refuse it as they reconfigure, wrapped as its other reconfigurations' are
            return "Invalid value org.apache.kafka.common.config.ConfigException: Invalid max.connections 0 for"
                    + " configuration Invalid dynamic configuration";
        }
        return null;
    }

    /** Names as Kafka 4.3's messages print them: {@code [a, b]}, in a hash set's order as there. */
    private static String list(Set<String> names) {
        return List.copyOf(names).toString();
    }
}
