package io.minibroker.broker.config;

import io.minibroker.broker.log.BrokerCompressionType;
import io.minibroker.broker.log.LogManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import static io.minibroker.broker.config.ConfigKey.booleanKey;
import static io.minibroker.broker.config.ConfigKey.intKey;
import static io.minibroker.broker.config.ConfigKey.longKey;
import static io.minibroker.broker.config.ConfigKey.oneOf;
import static io.minibroker.broker.config.ConfigKey.stringKey;

/**
 * The broker's configuration, read from a Kafka-style properties file with Kafka's key names and defaults.
 * Every value is parsed and checked at start: an invalid one stops the broker with a message naming the key.
 * Keys the broker does not know are logged as warnings (a Kafka config may carry many we do not need). The security
 * keys are declared, and checked together, in {@link SecurityKeys}; the {@code ssl.*} family in {@link SslKeys}.
 */
public final class BrokerConfig {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerConfig.class);

    /** Kafka's per-listener {@code listener.name.<listener, lower case>.max.connections}. */
    private static final java.util.regex.Pattern LISTENER_MAX_CONNECTIONS_KEY = java.util.regex.Pattern.compile(
            "listener\\.name\\.([^.]+)\\.max\\.connections");
    /** {@code connections.max.reauth.ms} for a listener, or for one SASL mechanism on it, as Kafka looks it up. */
    private static final java.util.regex.Pattern LISTENER_MAX_REAUTH_KEY = java.util.regex.Pattern.compile(
            "listener\\.name\\.([^.]+)\\.(?:([^.]+)\\.)?connections\\.max\\.reauth\\.ms");
    /** The characters Kafka allows in a host of {@code max.connections.per.ip.overrides} (Utils.validHostPattern). */
    private static final java.util.regex.Pattern HOST = java.util.regex.Pattern.compile("[0-9a-zA-Z\\-%._:]*");

    // Identity and network
    public static final ConfigKey<Integer> NODE_ID = intKey("node.id", 1, 0); // Kafka requires it in KRaft; 1 here
    /** Kafka's synonym of {@code node.id}, read only to fill it in. */
    private static final String BROKER_ID = "broker.id";
    /**
     * Not a Kafka broker key: Kafka reads its cluster id from meta.properties, written by kafka-storage format.
     * A single node without that step takes it from the configuration instead.
     */
    public static final ConfigKey<String> CLUSTER_ID = stringKey("cluster.id", "minibroker-cluster-0000");
    public static final ConfigKey<List<Endpoint>> LISTENERS = new ConfigKey<>("listeners", Endpoint::parseList,
            Endpoint.parseList("PLAINTEXT://:9092"), v -> true, "a list of NAME://host:port");
    /** Defaults to {@link #LISTENERS}, as in Kafka. */
    public static final ConfigKey<List<Endpoint>> ADVERTISED_LISTENERS = new ConfigKey<>("advertised.listeners",
            Endpoint::parseList, null, v -> true, "a list of NAME://host:port");
    /**
     * The listener other brokers reach this one on (replica fetchers connect to a leader's endpoint of it). Unset,
     * it is the listener named like Kafka's default {@code security.inter.broker.protocol}: PLAINTEXT.
     */
    public static final ConfigKey<String> INTER_BROKER_LISTENER_NAME = new ConfigKey<>("inter.broker.listener.name",
            text -> text.trim().toUpperCase(java.util.Locale.ROOT), null, v -> !v.isEmpty(), "a listener name");
    public static final ConfigKey<Integer> SOCKET_REQUEST_MAX_BYTES = intKey("socket.request.max.bytes", 104_857_600, 1);
    /**
     * Bytes of requests being read that all connections may hold together (see network/MemoryBudget). Kafka's
     * default -1 leaves it unbounded, which lets many connections each holding a partial large frame exhaust
     * memory; -1 here means the larger of socket.request.max.bytes (so the largest frame can always be read) and a
     * quarter of the JVM's maximum heap.
     */
    public static final ConfigKey<Long> QUEUED_MAX_REQUEST_BYTES = new ConfigKey<>("queued.max.request.bytes",
            Long::valueOf, -1L, v -> v == -1 || v > 0, "-1 or a positive long");
    /** Not a Kafka key: the bytes of partial frames all unauthenticated SASL connections may hold together. */
    public static final ConfigKey<Long> UNAUTHENTICATED_MAX_REQUEST_BYTES =
            longKey("unauthenticated.max.request.bytes", 8L * 1024 * 1024, 1);
    /** Not a Kafka key: how many SASL connections may be open and not yet authenticated at once. */
    public static final ConfigKey<Integer> UNAUTHENTICATED_MAX_CONNECTIONS =
            intKey("unauthenticated.max.connections", 1000, 1);
    public static final ConfigKey<Integer> MAX_CONNECTIONS = intKey("max.connections", Integer.MAX_VALUE, 0);
    public static final ConfigKey<Integer> MAX_CONNECTIONS_PER_IP =
            intKey("max.connections.per.ip", Integer.MAX_VALUE, 0);
    /** {@code host:count,...}: a per-ip limit for the hosts named. */
    public static final ConfigKey<Map<String, Integer>> MAX_CONNECTIONS_PER_IP_OVERRIDES = new ConfigKey<>(
            "max.connections.per.ip.overrides", BrokerConfig::parseIpOverrides, Map.of(), v -> true,
            "a list of host:count");
    /** New connections a second, over all listeners; Kafka throttles past it, here they are closed. */
    public static final ConfigKey<Integer> MAX_CONNECTION_CREATION_RATE =
            intKey("max.connection.creation.rate", Integer.MAX_VALUE, 0);
    public static final ConfigKey<Long> CONNECTIONS_MAX_IDLE_MS = longKey("connections.max.idle.ms", 600_000L, 1);
    /** Not a Kafka key: the port of the Prometheus scrape endpoint; -1 disables it. */
    public static final ConfigKey<Integer> METRICS_PORT = intKey("metrics.port", -1, -1);
    /**
     * Not a Kafka key: the address the scrape endpoint binds, loopback unless set, since it serves topic names and
     * sizes to anyone who asks; empty binds every interface (a container whose port is mapped needs that).
     */
    public static final ConfigKey<String> METRICS_HOST = stringKey("metrics.host", "127.0.0.1");
    /**
     * Not a Kafka key: the port of the test controls' HTTP endpoint (inject errors, delays, hangs; see
     * docs/test-controls.md); -1, the default, serves none. Prefixed, unlike {@code metrics.port}, because it lets
     * anyone who reaches it break the broker on purpose: no production configuration should ever carry it by
     * mistake for a Kafka key.
     */
    public static final ConfigKey<Integer> CONTROLS_PORT = intKey("minibroker.controls.port", -1, -1);
    /** Not a Kafka key: the address the controls' endpoint binds; loopback unless set, empty for every interface. */
    public static final ConfigKey<String> CONTROLS_HOST = stringKey("minibroker.controls.host", "127.0.0.1");
    /**
     * The rack this broker is in, none by default: registered with the controller, told to clients in Metadata and
     * DescribeCluster, and what replica placement and the rack-aware replica selector go by. Any string, as Kafka's.
     */
    public static final ConfigKey<String> BROKER_RACK = stringKey("broker.rack", null);

    // Cluster membership (KRaft's keys). Without controller.quorum.voters the node is a cluster of its own.
    /** {@code broker}, {@code controller} or both; Kafka has no default. */
    public static final ConfigKey<List<String>> PROCESS_ROLES = new ConfigKey<>("process.roles",
            ConfigKey::parseNames, List.of(), roles -> List.of("broker", "controller").containsAll(roles),
            "a list of broker, controller");
    /** {@code id@host:port}; one voter only (Kafka's combined mode with a single controller). */
    public static final ConfigKey<List<QuorumVoter>> CONTROLLER_QUORUM_VOTERS = new ConfigKey<>(
            "controller.quorum.voters", QuorumVoter::parseList, List.of(), voters -> voters.size() <= 1,
            "at most one id@host:port (a single controller)");
    public static final ConfigKey<List<String>> CONTROLLER_LISTENER_NAMES = new ConfigKey<>(
            "controller.listener.names", BrokerConfig::parseListenerNames, List.of(), v -> true,
            "a list of listener names");
    public static final ConfigKey<Integer> BROKER_HEARTBEAT_INTERVAL_MS = intKey("broker.heartbeat.interval.ms", 2000, 1);
    public static final ConfigKey<Integer> BROKER_SESSION_TIMEOUT_MS = intKey("broker.session.timeout.ms", 9000, 1);
    /** How long a request forwarded to the controller waits for its answer, Kafka's key and default. */
    public static final ConfigKey<Integer> CONTROLLER_SOCKET_TIMEOUT_MS = intKey("controller.socket.timeout.ms", 30_000, 1);
    /**
     * How long the quorum's leader waits for a voter it is asked to add (AddRaftVoter) to answer its ApiVersions,
     * Kafka's key, default and range (0: not at all).
     */
    public static final ConfigKey<Integer> CONTROLLER_QUORUM_REQUEST_TIMEOUT_MS =
            intKey("controller.quorum.request.timeout.ms", 2000, 0);
    /** Only false, Kafka's default: a leader is only ever elected from the ISR, so nothing acknowledged is lost. */
    public static final ConfigKey<Boolean> UNCLEAN_LEADER_ELECTION_ENABLE = new ConfigKey<>(
            "unclean.leader.election.enable", ConfigKey::parseBoolean, false, enabled -> !enabled,
            "false (unclean leader election is not offered)");
    /** The controller moves each partition's leadership back to its first replica when that one can take it. */
    public static final ConfigKey<Boolean> AUTO_LEADER_REBALANCE_ENABLE = booleanKey("auto.leader.rebalance.enable", true);
    public static final ConfigKey<Integer> LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS =
            intKey("leader.imbalance.check.interval.seconds", 300, 1);
    public static final ConfigKey<Long> REPLICA_LAG_TIME_MAX_MS = longKey("replica.lag.time.max.ms", 30_000L, 1);
    /** Kafka's rack-aware ReplicaSelector: the one {@link #REPLICA_SELECTOR_CLASS} this broker knows. */
    public static final String RACK_AWARE_REPLICA_SELECTOR = "org.apache.kafka.common.replica.RackAwareReplicaSelector";
    /**
     * Which replica a consumer's fetch is pointed to; none by default (the leader), as Kafka. Only Kafka's
     * {@link #RACK_AWARE_REPLICA_SELECTOR} is known, by name (no class is loaded); any other name stops the start, as
     * Kafka's broker stops when it cannot load the class (Kafka 4.3.1 ships no other ReplicaSelector).
     */
    public static final ConfigKey<String> REPLICA_SELECTOR_CLASS = new ConfigKey<>("replica.selector.class",
            java.util.function.Function.identity(), null, RACK_AWARE_REPLICA_SELECTOR::equals,
            RACK_AWARE_REPLICA_SELECTOR + " (the only ReplicaSelector this broker has; Kafka would fail to load a"
                    + " class it cannot find)");
    public static final ConfigKey<Integer> REPLICA_FETCH_WAIT_MAX_MS = intKey("replica.fetch.wait.max.ms", 500, 0);
    public static final ConfigKey<Integer> REPLICA_FETCH_MIN_BYTES = intKey("replica.fetch.min.bytes", 1, 1);
    public static final ConfigKey<Integer> REPLICA_FETCH_MAX_BYTES = intKey("replica.fetch.max.bytes", 1_048_576, 0);
    public static final ConfigKey<Integer> REPLICA_FETCH_RESPONSE_MAX_BYTES =
            intKey("replica.fetch.response.max.bytes", 10_485_760, 0);
    public static final ConfigKey<Integer> REPLICA_FETCH_BACKOFF_MS = intKey("replica.fetch.backoff.ms", 1_000, 0);
    /** Kafka's bound on the bytes of one Fetch answer (55 MiB, at least 1024), whatever the request's MaxBytes. */
    public static final ConfigKey<Integer> FETCH_MAX_BYTES = intKey("fetch.max.bytes", 57_671_680, 1024);
    /**
     * Kafka's bound on the incremental fetch sessions (KIP-227) a broker keeps, divided among the cache's 8 shards;
     * 0 gives none, every fetch then answered in full.
     */
    public static final ConfigKey<Integer> MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS =
            intKey("max.incremental.fetch.session.cache.slots", 1000, 0);
    public static final ConfigKey<Long> REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS =
            longKey("replica.high.watermark.checkpoint.interval.ms", 5_000L, 1);

    // Logs
    public static final ConfigKey<String> LOG_DIR = stringKey("log.dir", "/tmp/kafka-logs");
    /** Overrides {@link #LOG_DIR} when set, as in Kafka. */
    public static final ConfigKey<String> LOG_DIRS = stringKey("log.dirs", null);
    public static final ConfigKey<Integer> LOG_SEGMENT_BYTES = intKey("log.segment.bytes", 1_073_741_824, 1_048_576); // Kafka 4's minimum, 1 MiB
    public static final ConfigKey<Long> LOG_ROLL_MS = longKey("log.roll.ms", null, 1);
    public static final ConfigKey<Integer> LOG_ROLL_HOURS = intKey("log.roll.hours", 168, 1);
    /**
     * The topics' default {@code segment.jitter.ms}: a segment rolls up to this much before {@code log.roll.*}. At
     * least 0, as a topic's {@code segment.jitter.ms}, where Kafka's ConfigDef takes any long for this key.
     */
    public static final ConfigKey<Long> LOG_ROLL_JITTER_MS = longKey("log.roll.jitter.ms", null, 0);
    public static final ConfigKey<Integer> LOG_ROLL_JITTER_HOURS = intKey("log.roll.jitter.hours", 0, 0);
    /**
     * Retention: Kafka's ConfigDef bounds none of the three; any negative value means forever, and zero is refused
     * ({@link #logRetentionMs}, checked with the others at start and as a dynamic change).
     */
    public static final ConfigKey<Long> LOG_RETENTION_MS = ConfigKey.anyLongKey("log.retention.ms", null);
    public static final ConfigKey<Integer> LOG_RETENTION_MINUTES = ConfigKey.anyIntKey("log.retention.minutes", null);
    public static final ConfigKey<Integer> LOG_RETENTION_HOURS = ConfigKey.anyIntKey("log.retention.hours", 168);
    /** Kafka's KafkaConfig refusal of a retention of zero, however given (its words, a Scala require's). */
    public static final String ZERO_RETENTION = "requirement failed: log.retention.ms must be unlimited (-1) or,"
            + " greater than or equal to 1";
    public static final ConfigKey<Long> LOG_RETENTION_BYTES = longKey("log.retention.bytes", -1L, -1);
    public static final ConfigKey<Long> LOG_RETENTION_CHECK_INTERVAL_MS =
            longKey("log.retention.check.interval.ms", 300_000L, 1);
    public static final ConfigKey<Integer> LOG_INDEX_INTERVAL_BYTES = intKey("log.index.interval.bytes", 4096, 0);
    public static final ConfigKey<Integer> LOG_INDEX_SIZE_MAX_BYTES = intKey("log.index.size.max.bytes", 10_485_760, 4);
    public static final ConfigKey<Long> LOG_FLUSH_INTERVAL_MESSAGES =
            longKey("log.flush.interval.messages", Long.MAX_VALUE, 1);
    public static final ConfigKey<Long> LOG_FLUSH_INTERVAL_MS = longKey("log.flush.interval.ms", null, 0);
    public static final ConfigKey<Long> LOG_FLUSH_SCHEDULER_INTERVAL_MS =
            longKey("log.flush.scheduler.interval.ms", Long.MAX_VALUE, 0);
    public static final ConfigKey<Long> LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS =
            longKey("log.flush.offset.checkpoint.interval.ms", 60_000L, 0);
    public static final ConfigKey<String> LOG_MESSAGE_TIMESTAMP_TYPE =
            oneOf("log.message.timestamp.type", "CreateTime", "CreateTime", "LogAppendTime");
    public static final ConfigKey<Long> LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS =
            longKey("log.message.timestamp.before.max.ms", Long.MAX_VALUE, 0);
    public static final ConfigKey<Long> LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS =
            longKey("log.message.timestamp.after.max.ms", 3_600_000L, 0);
    public static final ConfigKey<Integer> MESSAGE_MAX_BYTES = intKey("message.max.bytes", 1_048_588, 0);
    /** How long a deleted segment's files, and a deleted topic's partition directories, wait before they go. */
    public static final ConfigKey<Long> LOG_SEGMENT_DELETE_DELAY_MS = longKey("log.segment.delete.delay.ms", 60_000L, 0);
    public static final ConfigKey<Integer> NUM_RECOVERY_THREADS_PER_DATA_DIR = intKey(
            "num.recovery.threads.per.data.dir", LogManager.DEFAULT_RECOVERY_THREADS_PER_DATA_DIR, 1);

    // The log cleaner (compaction)
    public static final ConfigKey<Boolean> LOG_CLEANER_ENABLE = booleanKey("log.cleaner.enable", true);
    public static final ConfigKey<Long> LOG_CLEANER_BACKOFF_MS = longKey("log.cleaner.backoff.ms", 15_000L, 0);
    /** Bounds the cleaner's key map, as it bounds Kafka's (whose entries are 24 bytes; here a key's bytes and more). */
    public static final ConfigKey<Long> LOG_CLEANER_DEDUPE_BUFFER_SIZE =
            longKey("log.cleaner.dedupe.buffer.size", 134_217_728L, 1);
    public static final ConfigKey<Long> LOG_CLEANER_DELETE_RETENTION_MS =
            longKey("log.cleaner.delete.retention.ms", 86_400_000L, 0);
    public static final ConfigKey<Long> LOG_CLEANER_MIN_COMPACTION_LAG_MS =
            longKey("log.cleaner.min.compaction.lag.ms", 0L, 0);
    public static final ConfigKey<Long> LOG_CLEANER_MAX_COMPACTION_LAG_MS =
            longKey("log.cleaner.max.compaction.lag.ms", Long.MAX_VALUE, 1);
    /** How long a producer idle with no transaction open keeps its state, and the cleaner its last batch. */
    public static final ConfigKey<Long> PRODUCER_ID_EXPIRATION_MS = longKey("producer.id.expiration.ms", 86_400_000L, 1);
    public static final ConfigKey<Integer> PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS =
            intKey("producer.id.expiration.check.interval.ms", 600_000, 1);
    public static final ConfigKey<Double> LOG_CLEANER_MIN_CLEANABLE_RATIO = new ConfigKey<>(
            "log.cleaner.min.cleanable.ratio", Double::valueOf, 0.5, v -> v >= 0 && v <= 1,
            "Not a number of type DOUBLE", v -> v < 0 ? "Value must be at least 0" : "Value must be no more than 1");
    /**
     * A list of compact and delete. Empty (or blank) is taken, as by Kafka 4.3: every topic without its own policy
     * then neither deletes nor compacts (Kafka's "infinite retention"); a policy named twice counts once, as Kafka 4.3
     * parses this key. A refusal shows the whole value where Kafka's names the item it refused.
     */
    public static final ConfigKey<List<String>> LOG_CLEANUP_POLICY = new ConfigKey<>("log.cleanup.policy",
            text -> ConfigKey.parseNames(text).stream().distinct().toList(), List.of("delete"),
            policies -> List.of("compact", "delete").containsAll(policies), "",
            policies -> "String must be one of: compact, delete"); // Kafka's ValidList, which names the item refused
    public static final ConfigKey<String> COMPRESSION_TYPE = oneOf("compression.type",
            BrokerCompressionType.PRODUCER.configName(), BrokerCompressionType.configNames());

    // Topics
    public static final ConfigKey<Integer> NUM_PARTITIONS = intKey("num.partitions", 1, 1);
    public static final ConfigKey<Integer> DEFAULT_REPLICATION_FACTOR = intKey("default.replication.factor", 1, 1);
    public static final ConfigKey<Boolean> AUTO_CREATE_TOPICS_ENABLE = booleanKey("auto.create.topics.enable", true);
    public static final ConfigKey<Boolean> DELETE_TOPIC_ENABLE = booleanKey("delete.topic.enable", true);
    public static final ConfigKey<Integer> MIN_INSYNC_REPLICAS = intKey("min.insync.replicas", 1, 1);

    // Groups and internal topics
    public static final ConfigKey<Integer> GROUP_INITIAL_REBALANCE_DELAY_MS =
            intKey("group.initial.rebalance.delay.ms", 3000, 0);
    public static final ConfigKey<Integer> GROUP_MIN_SESSION_TIMEOUT_MS = intKey("group.min.session.timeout.ms", 6000, 0);
    public static final ConfigKey<Integer> GROUP_MAX_SESSION_TIMEOUT_MS =
            intKey("group.max.session.timeout.ms", 1_800_000, 0);
    /** KIP-848 consumer groups: how often members heartbeat, when a silent one is fenced, who assigns. */
    public static final ConfigKey<Integer> GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS =
            intKey("group.consumer.heartbeat.interval.ms", 5000, 1);
    public static final ConfigKey<Integer> GROUP_CONSUMER_SESSION_TIMEOUT_MS =
            intKey("group.consumer.session.timeout.ms", 45_000, 1);
    public static final ConfigKey<Integer> GROUP_CONSUMER_MAX_SIZE = intKey("group.consumer.max.size", Integer.MAX_VALUE, 1);
    /** Classic groups' member limit (Kafka's group.max.size; its GROUP_MAX_SIZE_REACHED). */
    public static final ConfigKey<Integer> GROUP_MAX_SIZE = intKey("group.max.size", Integer.MAX_VALUE, 1);
    /** Kafka's short names or class names of its UniformAssignor and RangeAssignor; the first is the default. */
    public static final ConfigKey<List<String>> GROUP_CONSUMER_ASSIGNORS = new ConfigKey<>("group.consumer.assignors",
            ConfigKey::parseNames, List.of("uniform", "range"),
            names -> !names.isEmpty() && names.stream().allMatch(name -> consumerGroupAssignor(name) != null),
            "a list of uniform, range (or their Kafka class names)");
    /**
     * Which group protocols the coordinator serves, Kafka's {@code group.coordinator.rebalance.protocols}: classic
     * (always), consumer (KIP-848: ConsumerGroupHeartbeat, ConsumerGroupDescribe) and streams (KIP-1071:
     * StreamsGroupHeartbeat, StreamsGroupDescribe, and the {@code streams.version} feature finalized at 1); all three
     * by default, as Kafka 4.3's. {@code share} is accepted and changes nothing, as in Kafka 4.3, where the
     * {@code share.version} feature governs share groups (the key was how Kafka 4.0 enabled them early).
     */
    public static final ConfigKey<List<String>> GROUP_COORDINATOR_REBALANCE_PROTOCOLS = new ConfigKey<>(
            "group.coordinator.rebalance.protocols", ConfigKey::parseNames,
            List.of("classic", "consumer", "streams"),
            names -> names.contains("classic")
                    && List.of("classic", "consumer", "share", "streams").containsAll(names),
            "a list of consumer, classic, share, streams, with classic (disabling the 'classic' protocol is not"
                    + " supported)");
    /** KIP-1071 streams groups: how often members heartbeat, when a silent one is fenced, how many, standbys. */
    public static final ConfigKey<Integer> GROUP_STREAMS_HEARTBEAT_INTERVAL_MS =
            intKey("group.streams.heartbeat.interval.ms", 5000, 1);
    public static final ConfigKey<Integer> GROUP_STREAMS_SESSION_TIMEOUT_MS =
            intKey("group.streams.session.timeout.ms", 45_000, 1);
    public static final ConfigKey<Integer> GROUP_STREAMS_MAX_SIZE = intKey("group.streams.max.size", Integer.MAX_VALUE, 1);
    public static final ConfigKey<Integer> GROUP_STREAMS_NUM_STANDBY_REPLICAS =
            intKey("group.streams.num.standby.replicas", 0, 0);
    /**
     * KIP-848's online migration between classic and consumer groups: a classic group upgraded when a
     * consumer-protocol member joins it, a consumer group downgraded when its last consumer-protocol member leaves.
     */
    public static final ConfigKey<String> GROUP_CONSUMER_MIGRATION_POLICY = new ConfigKey<>(
            "group.consumer.migration.policy", value -> value.toLowerCase(java.util.Locale.ROOT), "bidirectional",
            List.of("bidirectional", "upgrade", "downgrade", "disabled")::contains,
            "one of bidirectional, upgrade, downgrade, disabled (any case, as Kafka)");
    public static final ConfigKey<Integer> OFFSETS_TOPIC_NUM_PARTITIONS = intKey("offsets.topic.num.partitions", 50, 1);
    public static final ConfigKey<Integer> OFFSETS_TOPIC_REPLICATION_FACTOR =
            intKey("offsets.topic.replication.factor", 3, 1);
    /** Kafka takes any positive value but then cannot create the topic below segment.bytes' 1 MiB: refused here. */
    public static final ConfigKey<Integer> OFFSETS_TOPIC_SEGMENT_BYTES =
            intKey("offsets.topic.segment.bytes", 104_857_600, 1_048_576);
    public static final ConfigKey<Integer> OFFSET_METADATA_MAX_BYTES = intKey("offset.metadata.max.bytes", 4096, 0);
    public static final ConfigKey<Integer> OFFSETS_COMMIT_TIMEOUT_MS = intKey("offsets.commit.timeout.ms", 5000, 1);
    public static final ConfigKey<Integer> OFFSETS_RETENTION_MINUTES = intKey("offsets.retention.minutes", 10_080, 1);
    public static final ConfigKey<Long> OFFSETS_RETENTION_CHECK_INTERVAL_MS =
            longKey("offsets.retention.check.interval.ms", 600_000L, 1);

    // Transactions (Kafka's TransactionLogConfig and TransactionStateManagerConfig keys and defaults)
    public static final ConfigKey<Integer> TRANSACTION_STATE_LOG_NUM_PARTITIONS =
            intKey("transaction.state.log.num.partitions", 50, 1);
    public static final ConfigKey<Integer> TRANSACTION_STATE_LOG_REPLICATION_FACTOR =
            intKey("transaction.state.log.replication.factor", 3, 1);
    public static final ConfigKey<Integer> TRANSACTION_STATE_LOG_MIN_ISR = intKey("transaction.state.log.min.isr", 2, 1);
    /** As the offsets topic's: below segment.bytes' 1 MiB the topic could not be created, so refused here. */
    public static final ConfigKey<Integer> TRANSACTION_STATE_LOG_SEGMENT_BYTES =
            intKey("transaction.state.log.segment.bytes", 104_857_600, 1_048_576);
    public static final ConfigKey<Integer> TRANSACTION_MAX_TIMEOUT_MS = intKey("transaction.max.timeout.ms", 900_000, 1);
    public static final ConfigKey<Integer> TRANSACTIONAL_ID_EXPIRATION_MS =
            intKey("transactional.id.expiration.ms", 604_800_000, 1);
    public static final ConfigKey<Integer> TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS =
            intKey("transaction.abort.timed.out.transaction.cleanup.interval.ms", 10_000, 1);
    public static final ConfigKey<Integer> TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS =
            intKey("transaction.remove.expired.transaction.cleanup.interval.ms", 3_600_000, 1);
    /**
     * The finalized level of the {@code transaction.version} feature this broker advertises (Kafka sets it when the
     * storage is formatted, {@code --feature transaction.version=N}, 2 by default since 4.0): 2 has Kafka 4 clients
     * use KIP-890's protocol, 1 or 0 the one before, so tests can take either path. Only until an UpdateFeatures
     * changes the levels: from then on the levels kept on disk are the finalized ones ({@code feature/FinalizedFeatures};
     * in a cluster, the controller's).
     */
    public static final ConfigKey<Integer> TRANSACTION_VERSION = intKey("minibroker.transaction.version", 2, 0, 2);
    // The windows client quotas' rates are measured over (Kafka's QuotaConfig keys, defaults and lower bounds)
    public static final ConfigKey<Integer> QUOTA_WINDOW_NUM = intKey("quota.window.num", 11, 1);
    public static final ConfigKey<Integer> QUOTA_WINDOW_SIZE_SECONDS = intKey("quota.window.size.seconds", 1, 1);
    // KIP-73's replication throttles: the bytes a leader sends, and a follower fetches, for the throttled replicas
    // (the topics' leader./follower.replication.throttled.replicas), per second; Kafka's default is no bound
    public static final ConfigKey<Long> LEADER_REPLICATION_THROTTLED_RATE =
            longKey("leader.replication.throttled.rate", Long.MAX_VALUE, 0);
    public static final ConfigKey<Long> FOLLOWER_REPLICATION_THROTTLED_RATE =
            longKey("follower.replication.throttled.rate", Long.MAX_VALUE, 0);
    // ... measured over these windows (Kafka's ReplicationQuotaManagerConfig keys, defaults and lower bounds)
    public static final ConfigKey<Integer> REPLICATION_QUOTA_WINDOW_NUM = intKey("replication.quota.window.num", 11, 1);
    public static final ConfigKey<Integer> REPLICATION_QUOTA_WINDOW_SIZE_SECONDS =
            intKey("replication.quota.window.size.seconds", 1, 1);
    // The bytes per second a replica moving to another of log.dirs (AlterReplicaLogDirs) is copied at, measured over
    // their own windows: Kafka's alter-log-dirs replication quota (a dynamic broker config; default no bound)
    public static final ConfigKey<Long> REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND =
            longKey("replica.alter.log.dirs.io.max.bytes.per.second", Long.MAX_VALUE, 0);
    public static final ConfigKey<Integer> ALTER_LOG_DIRS_REPLICATION_QUOTA_WINDOW_NUM =
            intKey("alter.log.dirs.replication.quota.window.num", 11, 1);
    public static final ConfigKey<Integer> ALTER_LOG_DIRS_REPLICATION_QUOTA_WINDOW_SIZE_SECONDS =
            intKey("alter.log.dirs.replication.quota.window.size.seconds", 1, 1);
    // ... and the windows of controller_mutation_rate's token bucket (its burst: rate x windows x size)
    public static final ConfigKey<Integer> CONTROLLER_QUOTA_WINDOW_NUM = intKey("controller.quota.window.num", 11, 1);
    public static final ConfigKey<Integer> CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS =
            intKey("controller.quota.window.size.seconds", 1, 1);
    // A leader's asking again when a transaction version 2 produce's implicit add meets CONCURRENT_TRANSACTIONS
    // (Kafka's AddPartitionsToTxnConfig keys, defaults and lower bounds)
    public static final ConfigKey<Integer> ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MS =
            intKey("add.partitions.to.txn.retry.backoff.ms", 20, 1);
    public static final ConfigKey<Integer> ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MAX_MS =
            intKey("add.partitions.to.txn.retry.backoff.max.ms", 100, 0);
    /**
     * Kafka's switch for KIP-890 part 1: off, a leader appends a transaction version 1 client's transactional
     * batches (Produce below v12, TxnOffsetCommit below v5) without asking the coordinator whether the partition is in
     * the transaction; version 2's implicit add still asks.
     */
    public static final ConfigKey<Boolean> TRANSACTION_PARTITION_VERIFICATION_ENABLE =
            booleanKey("transaction.partition.verification.enable", true);

    // Purgatories
    public static final ConfigKey<Integer> FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS =
            intKey("fetch.purgatory.purge.interval.requests", 1000, 1);
    public static final ConfigKey<Integer> PRODUCER_PURGATORY_PURGE_INTERVAL_REQUESTS =
            intKey("producer.purgatory.purge.interval.requests", 1000, 1);
    public static final ConfigKey<Integer> DELETE_RECORDS_PURGATORY_PURGE_INTERVAL_REQUESTS =
            intKey("delete.records.purgatory.purge.interval.requests", 1, 1);
    public static final ConfigKey<Integer> SHARE_FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS =
            intKey("share.fetch.purgatory.purge.interval.requests", 1000, 1);

    // Share groups' delivery (KIP-932): the defaults of the share.* group configs, and the share sessions' limit
    public static final ConfigKey<Integer> GROUP_SHARE_RECORD_LOCK_DURATION_MS =
            intKey("group.share.record.lock.duration.ms", 30_000, 1000, 3_600_000);
    public static final ConfigKey<Integer> GROUP_SHARE_DELIVERY_COUNT_LIMIT =
            intKey("group.share.delivery.count.limit", 5, 2, 10);
    public static final ConfigKey<Integer> GROUP_SHARE_PARTITION_MAX_RECORD_LOCKS =
            intKey("group.share.partition.max.record.locks", 2000, 100, 10_000);
    public static final ConfigKey<Integer> GROUP_SHARE_MAX_SHARE_SESSIONS =
            intKey("group.share.max.share.sessions", 2000, 1);
    // Share groups' membership (KIP-932): the defaults of the share.heartbeat/session group configs, and the group size
    public static final ConfigKey<Integer> GROUP_SHARE_HEARTBEAT_INTERVAL_MS =
            intKey("group.share.heartbeat.interval.ms", 5000, 1);
    public static final ConfigKey<Integer> GROUP_SHARE_SESSION_TIMEOUT_MS =
            intKey("group.share.session.timeout.ms", 45_000, 1);
    public static final ConfigKey<Integer> GROUP_SHARE_MAX_SIZE = intKey("group.share.max.size", 200, 1, 1000);
    /** Kafka's internal key: how long a share partition's initialization may run before a heartbeat asks again. */
    public static final ConfigKey<Integer> GROUP_SHARE_INITIALIZE_RETRY_INTERVAL_MS =
            intKey("group.share.initialize.retry.interval.ms", 30_000, 1);
    // The share coordinator's __share_group_state (Kafka's ShareCoordinatorConfig keys and defaults)
    public static final ConfigKey<Integer> SHARE_COORDINATOR_STATE_TOPIC_NUM_PARTITIONS =
            intKey("share.coordinator.state.topic.num.partitions", 50, 1);
    public static final ConfigKey<Integer> SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR =
            intKey("share.coordinator.state.topic.replication.factor", 3, 1);
    public static final ConfigKey<Integer> SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR =
            intKey("share.coordinator.state.topic.min.isr", 2, 1);
    public static final ConfigKey<Integer> SHARE_COORDINATOR_STATE_TOPIC_SEGMENT_BYTES =
            intKey("share.coordinator.state.topic.segment.bytes", 104_857_600, 1_048_576);
    public static final ConfigKey<Integer> SHARE_COORDINATOR_WRITE_TIMEOUT_MS =
            intKey("share.coordinator.write.timeout.ms", 5000, 1);
    public static final ConfigKey<Integer> SHARE_COORDINATOR_STATE_TOPIC_PRUNE_INTERVAL_MS =
            intKey("share.coordinator.state.topic.prune.interval.ms", 300_000, 1);

    private static final Map<String, ConfigKey<?>> KEYS = keysByName(concat(SecurityKeys.KEYS, GroupKeyRanges.KEYS), NODE_ID, CLUSTER_ID,
            LISTENERS, ADVERTISED_LISTENERS, INTER_BROKER_LISTENER_NAME, SOCKET_REQUEST_MAX_BYTES,
            CONNECTIONS_MAX_IDLE_MS, QUEUED_MAX_REQUEST_BYTES,
            UNAUTHENTICATED_MAX_REQUEST_BYTES, UNAUTHENTICATED_MAX_CONNECTIONS, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_IP,
            MAX_CONNECTIONS_PER_IP_OVERRIDES, MAX_CONNECTION_CREATION_RATE, METRICS_PORT, METRICS_HOST, CONTROLS_PORT,
            CONTROLS_HOST, BROKER_RACK, PROCESS_ROLES,
            CONTROLLER_QUORUM_VOTERS, CONTROLLER_LISTENER_NAMES, BROKER_HEARTBEAT_INTERVAL_MS,
            BROKER_SESSION_TIMEOUT_MS, CONTROLLER_SOCKET_TIMEOUT_MS, CONTROLLER_QUORUM_REQUEST_TIMEOUT_MS,
            UNCLEAN_LEADER_ELECTION_ENABLE, AUTO_LEADER_REBALANCE_ENABLE,
            LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS, REPLICA_LAG_TIME_MAX_MS, REPLICA_SELECTOR_CLASS,
            REPLICA_FETCH_WAIT_MAX_MS, REPLICA_FETCH_MIN_BYTES,
            REPLICA_FETCH_MAX_BYTES, REPLICA_FETCH_RESPONSE_MAX_BYTES, REPLICA_FETCH_BACKOFF_MS,
            FETCH_MAX_BYTES, MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS,
            REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS, LOG_DIR, LOG_DIRS,
            LOG_SEGMENT_BYTES, LOG_ROLL_MS, LOG_ROLL_HOURS, LOG_ROLL_JITTER_MS, LOG_ROLL_JITTER_HOURS,
            LOG_RETENTION_MS, LOG_RETENTION_MINUTES,
            LOG_RETENTION_HOURS, LOG_RETENTION_BYTES, LOG_RETENTION_CHECK_INTERVAL_MS, LOG_INDEX_INTERVAL_BYTES,
            LOG_INDEX_SIZE_MAX_BYTES, LOG_FLUSH_INTERVAL_MESSAGES, LOG_FLUSH_INTERVAL_MS,
            LOG_FLUSH_SCHEDULER_INTERVAL_MS, LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS, LOG_SEGMENT_DELETE_DELAY_MS,
            NUM_RECOVERY_THREADS_PER_DATA_DIR,
            LOG_MESSAGE_TIMESTAMP_TYPE,
            LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS, LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS, MESSAGE_MAX_BYTES, LOG_CLEANUP_POLICY, COMPRESSION_TYPE,
            LOG_CLEANER_ENABLE, LOG_CLEANER_BACKOFF_MS, LOG_CLEANER_DEDUPE_BUFFER_SIZE, LOG_CLEANER_DELETE_RETENTION_MS,
            LOG_CLEANER_MIN_COMPACTION_LAG_MS, LOG_CLEANER_MAX_COMPACTION_LAG_MS, LOG_CLEANER_MIN_CLEANABLE_RATIO,
            PRODUCER_ID_EXPIRATION_MS, PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
            NUM_PARTITIONS,
            DEFAULT_REPLICATION_FACTOR, AUTO_CREATE_TOPICS_ENABLE, DELETE_TOPIC_ENABLE, MIN_INSYNC_REPLICAS,
            GROUP_INITIAL_REBALANCE_DELAY_MS, GROUP_MIN_SESSION_TIMEOUT_MS, GROUP_MAX_SESSION_TIMEOUT_MS, GROUP_MAX_SIZE,
            GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS, GROUP_CONSUMER_SESSION_TIMEOUT_MS, GROUP_CONSUMER_MAX_SIZE,
            GROUP_CONSUMER_ASSIGNORS, GROUP_CONSUMER_MIGRATION_POLICY, GROUP_COORDINATOR_REBALANCE_PROTOCOLS,
            GROUP_STREAMS_HEARTBEAT_INTERVAL_MS, GROUP_STREAMS_SESSION_TIMEOUT_MS, GROUP_STREAMS_MAX_SIZE,
            GROUP_STREAMS_NUM_STANDBY_REPLICAS, OFFSETS_TOPIC_NUM_PARTITIONS, OFFSETS_TOPIC_REPLICATION_FACTOR, OFFSETS_TOPIC_SEGMENT_BYTES,
            OFFSET_METADATA_MAX_BYTES,
            OFFSETS_COMMIT_TIMEOUT_MS, OFFSETS_RETENTION_MINUTES, OFFSETS_RETENTION_CHECK_INTERVAL_MS,
            TRANSACTION_STATE_LOG_NUM_PARTITIONS, TRANSACTION_STATE_LOG_REPLICATION_FACTOR, TRANSACTION_STATE_LOG_MIN_ISR,
            TRANSACTION_STATE_LOG_SEGMENT_BYTES, TRANSACTION_MAX_TIMEOUT_MS, TRANSACTIONAL_ID_EXPIRATION_MS,
            TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS,
            TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS, TRANSACTION_VERSION,
            QUOTA_WINDOW_NUM, QUOTA_WINDOW_SIZE_SECONDS, LEADER_REPLICATION_THROTTLED_RATE,
            FOLLOWER_REPLICATION_THROTTLED_RATE, REPLICATION_QUOTA_WINDOW_NUM, REPLICATION_QUOTA_WINDOW_SIZE_SECONDS,
            REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND, ALTER_LOG_DIRS_REPLICATION_QUOTA_WINDOW_NUM,
            ALTER_LOG_DIRS_REPLICATION_QUOTA_WINDOW_SIZE_SECONDS,
            CONTROLLER_QUOTA_WINDOW_NUM,
            CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS, ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MS,
            ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MAX_MS,
            TRANSACTION_PARTITION_VERIFICATION_ENABLE, FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS,
            PRODUCER_PURGATORY_PURGE_INTERVAL_REQUESTS, DELETE_RECORDS_PURGATORY_PURGE_INTERVAL_REQUESTS,
            SHARE_FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS, GROUP_SHARE_RECORD_LOCK_DURATION_MS,
            GROUP_SHARE_DELIVERY_COUNT_LIMIT, GROUP_SHARE_PARTITION_MAX_RECORD_LOCKS, GROUP_SHARE_MAX_SHARE_SESSIONS,
            GROUP_SHARE_HEARTBEAT_INTERVAL_MS, GROUP_SHARE_SESSION_TIMEOUT_MS, GROUP_SHARE_MAX_SIZE,
            GROUP_SHARE_INITIALIZE_RETRY_INTERVAL_MS, SHARE_COORDINATOR_STATE_TOPIC_NUM_PARTITIONS, SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR,
            SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR, SHARE_COORDINATOR_STATE_TOPIC_SEGMENT_BYTES,
            SHARE_COORDINATOR_WRITE_TIMEOUT_MS, SHARE_COORDINATOR_STATE_TOPIC_PRUNE_INTERVAL_MS);

    /** The class name of Kafka 4's StandardAuthorizer, which turns ACLs on. */
    public static final String STANDARD_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

    private final Map<ConfigKey<?>, Object> values;
    private final Set<String> unknownKeys;
    /**
     * The entries set that are not one of {@link #KEYS} (Kafka's keys this broker does not read, the {@code ssl.*} and
     * {@code listener.name.*} families, any other), as given, and {@code broker.id}: what Kafka's DescribeConfigs of a
     * broker lists among its config's originals.
     */
    private final Map<String, String> unparsedEntries;
    /** The values of PLAIN's {@code listener.name.<listener>.plain.sasl.jaas.config}, by listener name in upper case. */
    private final Map<String, String> plainJaasConfigs;
    /** The {@link SslKeys} entries set, by the name they were set under. */
    private final Map<String, String> sslEntries;
    /** The {@link #LISTENER_MAX_CONNECTIONS_KEY} values, by listener name in upper case. */
    private final Map<String, Integer> listenerMaxConnections;
    /**
     * The {@link #LISTENER_MAX_REAUTH_KEY} values, by listener name in upper case, then "/" and the mechanism in upper
     * case for a mechanism's.
     */
    private final Map<String, Long> listenerMaxReauthMs;
    /**
     * The dynamic values ({@link DynamicBrokerConfig}) of the keys this broker parses, which win over
     * {@link #values}: immutable, replaced whole by {@link #applyDynamic}.
     */
    private volatile Map<ConfigKey<?>, Object> dynamicValues = Map.of();

    private BrokerConfig(Map<ConfigKey<?>, Object> values, Set<String> unknownKeys,
                         Map<String, String> plainJaasConfigs, Map<String, String> sslEntries,
                         Map<String, Integer> listenerMaxConnections, Map<String, Long> listenerMaxReauthMs,
                         Map<String, String> unparsedEntries) {
        this.values = values;
        this.unknownKeys = unknownKeys;
        this.plainJaasConfigs = plainJaasConfigs;
        this.sslEntries = sslEntries;
        this.listenerMaxConnections = listenerMaxConnections;
        this.listenerMaxReauthMs = listenerMaxReauthMs;
        this.unparsedEntries = unparsedEntries;
    }

    /** Parses and checks every entry; throws {@link ConfigException} on the first invalid value. */
    public static BrokerConfig of(Map<String, String> properties) {
        properties = withNodeIdFromBrokerId(properties);
        Map<ConfigKey<?>, Object> values = new HashMap<>();
        Set<String> unknown = new TreeSet<>();
        Map<String, String> unparsed = new HashMap<>();
        Map<String, String> plainJaasConfigs = new HashMap<>();
        Map<String, String> sslEntries = new HashMap<>();
        Map<String, Integer> listenerMaxConnections = new HashMap<>();
        Map<String, Long> listenerMaxReauthMs = new HashMap<>();
        for (Map.Entry<String, String> entry : properties.entrySet()) {
            String name = entry.getKey().trim();
            ConfigKey<?> key = KEYS.get(name);
            java.util.regex.Matcher maxConnections = LISTENER_MAX_CONNECTIONS_KEY.matcher(name);
            java.util.regex.Matcher maxReauth = LISTENER_MAX_REAUTH_KEY.matcher(name);
            if (key != null) {
                values.put(key, key.parse(entry.getValue()));
                continue;
            }
            unparsed.put(name, entry.getValue());
            if (maxConnections.matches()) {
                listenerMaxConnections.put(maxConnections.group(1).toUpperCase(java.util.Locale.ROOT),
                        intKey(name, null, 0).parse(entry.getValue()));
            } else if (maxReauth.matches()) {
                String listener = maxReauth.group(1).toUpperCase(java.util.Locale.ROOT);
                listenerMaxReauthMs.put(maxReauth.group(2) == null ? listener
                                : listener + "/" + maxReauth.group(2).toUpperCase(java.util.Locale.ROOT),
                        longKey(name, null, Long.MIN_VALUE).parse(entry.getValue()));
            } else if (SecurityKeys.isJaasKey(name)) {
                SecurityKeys.plainJaasListener(name)
                        .ifPresent(listener -> plainJaasConfigs.put(listener, entry.getValue()));
            } else if (SslKeys.isSslKey(name)) {
                SslKeys.check(name, entry.getValue());
                sslEntries.put(name, entry.getValue());
            } else {
                UnofferedSecurityKeys.check(name, entry.getValue());
                unknown.add(entry.getKey());
            }
        }
        if (!unknown.isEmpty()) {
            LOG.warn("Ignoring configuration keys this broker does not know: {}", unknown);
        }
        // Kafka puts node.id's value among the originals as broker.id (AbstractKafkaConfig.populateSynonyms); here
        // node.id always has one.
        unparsed.put(BROKER_ID, values.getOrDefault(NODE_ID, NODE_ID.defaultValue()).toString());
        BrokerConfig config = new BrokerConfig(values, Collections.unmodifiableSet(unknown), Map.copyOf(plainJaasConfigs),
                Map.copyOf(sslEntries), Map.copyOf(listenerMaxConnections), Map.copyOf(listenerMaxReauthMs),
                Map.copyOf(unparsed));
        config.checkConsistency();
        return config;
    }

    /**
     * {@code broker.id} is Kafka's older name of {@code node.id} (AbstractKafkaConfig.populateSynonyms): alone it
     * names the node (a docker-compose {@code KAFKA_BROKER_ID}), beside a different {@code node.id} it is refused.
     */
    private static Map<String, String> withNodeIdFromBrokerId(Map<String, String> properties) {
        String brokerId = properties.get(BROKER_ID);
        if (brokerId == null) {
            return properties;
        }
        Map<String, String> withNodeId = new HashMap<>(properties);
        withNodeId.remove(BROKER_ID);
        String nodeId = withNodeId.putIfAbsent(NODE_ID.name(), brokerId);
        if (nodeId != null && !NODE_ID.parse(nodeId).equals(NODE_ID.parse(brokerId))) {
            throw new ConfigException("You must set `" + NODE_ID.name() + "` to the same value as `" + BROKER_ID + "`.");
        }
        return withNodeId;
    }

    /** Reads a properties file, then applies {@code overrides} (from {@code --override key=value}). */
    public static BrokerConfig load(Path file, Map<String, String> overrides) throws IOException {
        Map<String, String> merged = readProperties(file);
        merged.putAll(overrides);
        return of(merged);
    }

    /** A properties file's entries, in no particular order. */
    public static Map<String, String> readProperties(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        Map<String, String> entries = new LinkedHashMap<>();
        properties.stringPropertyNames().forEach(name -> entries.put(name, properties.getProperty(name)));
        return entries;
    }

    @SuppressWarnings("unchecked")
    public <T> T get(ConfigKey<T> key) {
        Object dynamic = dynamicValues.get(key); // one look-up: a dynamic value is never null (Map.copyOf)
        if (dynamic != null) {
            return (T) dynamic;
        }
        return staticValue(key);
    }

    /**
     * The value in the file (or an override given at start), else the default: what Kafka describes as the
     * STATIC_BROKER_CONFIG or DEFAULT_CONFIG synonym, whatever dynamic value {@link #get} answers instead.
     */
    @SuppressWarnings("unchecked")
    public <T> T staticValue(ConfigKey<T> key) {
        return values.containsKey(key) ? (T) values.get(key) : key.defaultValue();
    }

    /**
     * The dynamic configs this broker puts in force at once: the topic defaults, read only where a topic's config is
     * worked out (the caller gives every log its settings again), and {@code log.segment.delete.delay.ms}, read at
     * each deletion of a log, and the replication throttled rates, read at each throttle decision. Kafka makes more
     * keys dynamic; this broker reads those once at its start (listeners, connection limits, the cleaner's pace), so
     * they are kept and described but left out here: a value {@link #get} answered would be one nothing acts on (a
     * new {@code listeners} would be advertised unbound).
     */
    private static final Set<ConfigKey<?>> IN_FORCE_WHEN_DYNAMIC = Set.of(LOG_SEGMENT_BYTES, LOG_ROLL_MS,
            LOG_ROLL_JITTER_MS,
            LOG_RETENTION_MS, LOG_RETENTION_BYTES, LOG_INDEX_INTERVAL_BYTES, LOG_INDEX_SIZE_MAX_BYTES,
            LOG_FLUSH_INTERVAL_MESSAGES, LOG_FLUSH_INTERVAL_MS, LOG_MESSAGE_TIMESTAMP_TYPE,
            LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS, LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS, MESSAGE_MAX_BYTES, COMPRESSION_TYPE,
            LOG_CLEANUP_POLICY, MIN_INSYNC_REPLICAS, LOG_CLEANER_DELETE_RETENTION_MS, LOG_CLEANER_MIN_COMPACTION_LAG_MS,
            LOG_CLEANER_MAX_COMPACTION_LAG_MS, LOG_CLEANER_MIN_CLEANABLE_RATIO, UNCLEAN_LEADER_ELECTION_ENABLE,
            LOG_SEGMENT_DELETE_DELAY_MS, LEADER_REPLICATION_THROTTLED_RATE, FOLLOWER_REPLICATION_THROTTLED_RATE,
            REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND);

    /** Whether a dynamic value of this config (a name this broker may not read) is the one in force here. */
    public static boolean inForceWhenDynamic(String name) {
        ConfigKey<?> key = KEYS.get(name);
        return key != null && IN_FORCE_WHEN_DYNAMIC.contains(key);
    }

    /**
     * Makes these dynamic configs the ones {@link #get} answers first, this broker's own over the cluster default,
     * for the keys {@link #IN_FORCE_WHEN_DYNAMIC}; the others are kept by whoever stores them, and change nothing
     * here. A value that does not parse (stored before a check it now fails) is skipped with a warning, so that the
     * file's value stays in force.
     *
     * @return whether a value in force changed (else what depends on them, the logs' configs, need not be redone)
     */
    public boolean applyDynamic(Map<String, String> clusterDefault, Map<String, String> perBroker) {
        Map<ConfigKey<?>, Object> parsed = new HashMap<>();
        for (Map<String, String> level : List.of(clusterDefault, perBroker)) {
            level.forEach((name, text) -> {
                ConfigKey<?> key = KEYS.get(name);
                if (key != null && IN_FORCE_WHEN_DYNAMIC.contains(key)) {
                    try {
                        parsed.put(key, key.parse(text));
                    } catch (ConfigException e) {
                        LOG.warn("Ignoring the dynamic config {}: {}", name, e.getMessage());
                    }
                }
            });
        }
        Map<ConfigKey<?>, Object> previous = dynamicValues;
        dynamicValues = Map.copyOf(parsed);
        return !dynamicValues.equals(previous);
    }

    /** Every key this broker knows, by name. */
    public static Map<String, ConfigKey<?>> knownKeys() {
        return KEYS;
    }

    /** Whether the key was set (in the file or an override) rather than left at its default. */
    public boolean isSet(ConfigKey<?> key) {
        return values.containsKey(key);
    }

    public Set<String> unknownKeys() {
        return unknownKeys;
    }

    /** The entries set that this broker does not parse as a key of its own, as given (and {@code broker.id}). */
    public Map<String, String> unparsedEntries() {
        return unparsedEntries;
    }

    /**
     * {@code advertised.listeners}, else {@code listeners}; in a cluster without the controller listeners: as in
     * Kafka, clients and other brokers are never told to use a controller's listener.
     */
    public List<Endpoint> advertisedListeners() {
        List<Endpoint> advertised = get(ADVERTISED_LISTENERS);
        List<Endpoint> listeners = advertised != null ? advertised : get(LISTENERS);
        if (!inCluster()) {
            return listeners;
        }
        List<String> controllerListeners = get(CONTROLLER_LISTENER_NAMES);
        return listeners.stream().filter(endpoint -> !controllerListeners.contains(endpoint.listenerName())).toList();
    }

    /** {@code inter.broker.listener.name}, else PLAINTEXT, as Kafka derives it from its inter-broker protocol. */
    public String interBrokerListenerName() {
        String name = get(INTER_BROKER_LISTENER_NAME);
        return name != null ? name : "PLAINTEXT";
    }

    /** The security protocol a listener speaks: its entry in listener.security.protocol.map, else PLAINTEXT. */
    public String securityProtocol(String listenerName) {
        return get(SecurityKeys.LISTENER_SECURITY_PROTOCOL_MAP).getOrDefault(listenerName, "PLAINTEXT");
    }

    /** {@code listener.name.<listener>.max.connections}, else {@code max.connections} as Kafka reads it. */
    public int maxConnections(String listenerName) {
        return listenerMaxConnections.getOrDefault(listenerName, get(MAX_CONNECTIONS));
    }

    /**
     * {@code connections.max.reauth.ms} for a SASL mechanism on a listener, as Kafka's SaslChannelBuilder reads it:
     * {@code listener.name.<listener>.<mechanism>.connections.max.reauth.ms}, else the listener's, else the broker's.
     */
    public long connectionsMaxReauthMs(String listenerName, String mechanism) {
        String listener = listenerName.toUpperCase(java.util.Locale.ROOT);
        Long forMechanism = listenerMaxReauthMs.get(listener + "/" + mechanism.toUpperCase(java.util.Locale.ROOT));
        if (forMechanism != null) {
            return forMechanism;
        }
        return listenerMaxReauthMs.getOrDefault(listener, get(SecurityKeys.CONNECTIONS_MAX_REAUTH_MS));
    }

    /** The value of {@code listener.name.<listener>.plain.sasl.jaas.config}, if set. */
    public Optional<String> plainJaasConfig(String listenerName) {
        return Optional.ofNullable(plainJaasConfigs.get(listenerName));
    }

    /** A listener's TLS settings ({@code listener.name.<listener>.ssl.*}, else {@code ssl.*}, else Kafka's defaults). */
    public SslSettings sslSettings(String listenerName) {
        return SslKeys.forListener(sslEntries, listenerName);
    }

    /** Whether this listener speaks TLS: SSL or SASL_SSL. */
    public boolean usesTls(String listenerName) {
        return securityProtocol(listenerName).endsWith("SSL");
    }

    /** Whether this listener authenticates with SASL: SASL_PLAINTEXT or SASL_SSL. */
    public boolean usesSasl(String listenerName) {
        return securityProtocol(listenerName).startsWith("SASL_");
    }

    /** Whether this node is part of a cluster run by a controller ({@code controller.quorum.voters} is set). */
    public boolean inCluster() {
        return !get(CONTROLLER_QUORUM_VOTERS).isEmpty();
    }

    /** The cluster's one controller; only when {@link #inCluster()}. */
    public QuorumVoter controllerVoter() {
        return get(CONTROLLER_QUORUM_VOTERS).get(0);
    }

    /** Whether this node also plays the cluster's controller. */
    public boolean isController() {
        return inCluster() && get(PROCESS_ROLES).contains("controller");
    }

    /** {@code log.dirs} if set, else {@code log.dir}, as in Kafka. */
    public List<Path> logDirs() {
        String dirs = get(LOG_DIRS);
        String chosen = dirs != null ? dirs : get(LOG_DIR);
        return java.util.Arrays.stream(chosen.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .map(Path::of).toList();
    }

    /** {@code log.retention.ms}, else minutes, else hours, as in Kafka; -1 (any negative value) means forever. */
    public long logRetentionMs() {
        Long ms = get(LOG_RETENTION_MS);
        Integer minutes = get(LOG_RETENTION_MINUTES);
        long retention = ms != null ? ms
                : minutes != null ? minutes * 60_000L : get(LOG_RETENTION_HOURS) * 3_600_000L;
        return retention < 0 ? -1 : retention;
    }

    /** {@code log.roll.ms}, else {@code log.roll.hours}. */
    public long logRollMs() {
        Long ms = get(LOG_ROLL_MS);
        return ms != null ? ms : get(LOG_ROLL_HOURS) * 3_600_000L;
    }

    /** {@code log.roll.jitter.ms}, else {@code log.roll.jitter.hours}, as in Kafka. */
    public long logRollJitterMs() {
        Long ms = get(LOG_ROLL_JITTER_MS);
        return ms != null ? ms : get(LOG_ROLL_JITTER_HOURS) * 3_600_000L;
    }

    /** {@code log.flush.interval.ms}, else {@code log.flush.scheduler.interval.ms}, as in Kafka. */
    public long logFlushIntervalMs() {
        Long ms = get(LOG_FLUSH_INTERVAL_MS);
        return ms != null ? ms : get(LOG_FLUSH_SCHEDULER_INTERVAL_MS);
    }

    private void checkConsistency() {
        if (logRetentionMs() == 0) {
            throw new ConfigException(ZERO_RETENTION);
        }
        if (logDirs().isEmpty()) {
            throw new ConfigException(LOG_DIRS.name(), get(LOG_DIRS), "must name at least one directory");
        }
        List<Endpoint> listeners = get(LISTENERS);
        long distinctNames = listeners.stream().map(Endpoint::listenerName).distinct().count();
        if (distinctNames != listeners.size()) {
            throw new ConfigException(LISTENERS.name(), listeners, "each listener name may appear only once");
        }
        for (Endpoint advertised : advertisedListeners()) {
            if (listeners.stream().noneMatch(l -> l.listenerName().equals(advertised.listenerName()))) {
                throw new ConfigException(ADVERTISED_LISTENERS.name(), advertised,
                        "names a listener that is not in listeners");
            }
            if (advertised.host().equals("0.0.0.0")) {
                // Kafka's check too (of advertised.listeners, or listeners when it is unset): clients told to
                // connect to the meta-address would each reach their own host, not this broker.
                throw new ConfigException(ADVERTISED_LISTENERS.name(), advertised,
                        "cannot use the nonroutable meta-address 0.0.0.0. Use a routable IP address.");
            }
        }
        SecurityKeys.check(this, listeners);
        checkClusterRoles(listeners);
        if (get(SecurityKeys.CONNECTION_FAILED_AUTHENTICATION_DELAY_MS) >= get(CONNECTIONS_MAX_IDLE_MS)) {
            throw new ConfigException(SecurityKeys.CONNECTION_FAILED_AUTHENTICATION_DELAY_MS.name(),
                    get(SecurityKeys.CONNECTION_FAILED_AUTHENTICATION_DELAY_MS),
                    "must be lower than connections.max.idle.ms");
        }
        checkIpOverrides();
        GroupKeyRanges.check(this);
        if (get(GROUP_MIN_SESSION_TIMEOUT_MS) > get(GROUP_MAX_SESSION_TIMEOUT_MS)) {
            throw new ConfigException(GROUP_MIN_SESSION_TIMEOUT_MS.name(), get(GROUP_MIN_SESSION_TIMEOUT_MS),
                    "must not exceed group.max.session.timeout.ms");
        }
    }

    /** Kafka's checks of the per-address limits; the overrides' hosts are resolved when the broker starts. */
    private void checkIpOverrides() {
        Map<String, Integer> overrides = get(MAX_CONNECTIONS_PER_IP_OVERRIDES);
        if (get(MAX_CONNECTIONS_PER_IP) == 0 && overrides.isEmpty()) {
            throw new ConfigException(MAX_CONNECTIONS_PER_IP.name(), 0,
                    "can be set to zero only if max.connections.per.ip.overrides is set");
        }
        List<String> invalid = overrides.keySet().stream().filter(host -> !HOST.matcher(host).matches()).toList();
        if (!invalid.isEmpty()) {
            throw new ConfigException(MAX_CONNECTIONS_PER_IP_OVERRIDES.name(), overrides,
                    "contains invalid addresses: " + String.join(",", invalid));
        }
    }

    /** Whether {@code group.coordinator.rebalance.protocols} names the protocol ({@code consumer}, {@code streams}). */
    public boolean groupProtocolEnabled(String protocol) {
        return get(GROUP_COORDINATOR_REBALANCE_PROTOCOLS).contains(protocol);
    }

    /** Whether {@code authorizer.class.name} turns ACLs on. */
    public boolean authorizerEnabled() {
        return !get(SecurityKeys.AUTHORIZER_CLASS_NAME).isBlank();
    }

    /** The checks Kafka's KafkaConfig makes of a KRaft node's roles, voters and controller listeners. */
    private void checkClusterRoles(List<Endpoint> listeners) {
        List<String> roles = get(PROCESS_ROLES);
        if (!inCluster()) {
            return; // a single node, whatever roles and controller listeners a copied Kafka file names
        }
        if (!roles.contains("broker")) {
            throw new ConfigException(PROCESS_ROLES.name(), roles, "must include broker (no controller-only nodes)");
        }
        boolean voter = controllerVoter().nodeId() == get(NODE_ID);
        if (voter != roles.contains("controller")) {
            throw new ConfigException(PROCESS_ROLES.name(), roles, voter
                    ? "must include controller: node.id is the controller.quorum.voters entry"
                    : "includes controller but node.id is not in controller.quorum.voters");
        }
        List<String> controllerListeners = get(CONTROLLER_LISTENER_NAMES);
        if (controllerListeners.isEmpty()) {
            throw new ConfigException(CONTROLLER_LISTENER_NAMES.name(), "", "must be set with controller.quorum.voters");
        }
        boolean listensAsController = listeners.stream()
                .anyMatch(l -> controllerListeners.contains(l.listenerName()));
        if (listensAsController != isController()) {
            throw new ConfigException(LISTENERS.name(), listeners, isController()
                    ? "must include a listener named in controller.listener.names"
                    : "must not include a controller listener on a node that is not the controller");
        }
        if (advertisedListeners().stream().noneMatch(l -> l.listenerName().equals(interBrokerListenerName()))) {
            // Kafka's rule too: other brokers must be able to reach this one on the inter-broker listener.
            throw new ConfigException(INTER_BROKER_LISTENER_NAME.name(), interBrokerListenerName(),
                    "must name one of the advertised listeners");
        }
    }

    /**
     * The built-in assignor ("uniform" or "range") a name in {@code group.consumer.assignors} means: Kafka's short
     * name or its class name; null for any other. The one table of those names, so that the broker starts with no
     * name its groups could not then build.
     */
    public static String consumerGroupAssignor(String name) {
        return switch (name) {
            case "uniform", "org.apache.kafka.coordinator.group.assignor.UniformAssignor",
                 "org.apache.kafka.coordinator.group.api.assignor.UniformAssignor" -> "uniform";
            case "range", "org.apache.kafka.coordinator.group.assignor.RangeAssignor",
                 "org.apache.kafka.coordinator.group.api.assignor.RangeAssignor" -> "range";
            default -> null;
        };
    }

    /** {@code host:count,...}. */
    private static Map<String, Integer> parseIpOverrides(String text) {
        Map<String, Integer> overrides = new LinkedHashMap<>(); // in the order given: DescribeConfigs shows them so
        for (String entry : text.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int colon = entry.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("not host:count: " + entry);
            }
            overrides.put(entry.substring(0, colon).trim(), Integer.valueOf(entry.substring(colon + 1).trim()));
        }
        return Collections.unmodifiableMap(overrides);
    }

    private static List<String> parseListenerNames(String text) {
        return ConfigKey.parseNames(text).stream().map(name -> name.toUpperCase(java.util.Locale.ROOT)).toList();
    }

    private static List<ConfigKey<?>> concat(List<ConfigKey<?>> first, List<ConfigKey<?>> second) {
        List<ConfigKey<?>> both = new java.util.ArrayList<>(first);
        both.addAll(second);
        return both;
    }

    private static Map<String, ConfigKey<?>> keysByName(List<ConfigKey<?>> family, ConfigKey<?>... keys) {
        Map<String, ConfigKey<?>> byName = new HashMap<>();
        family.forEach(key -> byName.put(key.name(), key));
        for (ConfigKey<?> key : keys) {
            byName.put(key.name(), key);
        }
        return Map.copyOf(byName);
    }
}
