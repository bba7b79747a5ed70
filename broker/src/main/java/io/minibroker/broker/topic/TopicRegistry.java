package io.minibroker.broker.topic;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogConfig;
import io.minibroker.broker.log.LogDirsCheck;
import io.minibroker.broker.log.LogManager;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

/**
 * The topics of this broker and their partition logs. Creating a topic checks it as Kafka does (name, partition
 * count, replication factor, configs), records it in the {@link TopicStore} and creates its logs; deleting does
 * the reverse. Reads are lock-free; changes are serialised.
 */
public final class TopicRegistry implements DeletableTopics, ConfigurableTopics, AutoCloseable {

    /** The result of a create: the topic, or Kafka's error and message. */
    public record Outcome(Errors error, String message, TopicMetadata topic) {
        static Outcome failed(Errors error, String message) {
            return new Outcome(error, message, null);
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(TopicRegistry.class);
    private static final int MAX_NAME_LENGTH = 249;
    private static final Pattern LEGAL_NAME = Pattern.compile("[a-zA-Z0-9._-]+");

    private final BrokerConfig config;
    private final TopicStore store;
    private final LogManager logs;
    private final Map<String, TopicMetadata> byName = new ConcurrentHashMap<>();
    private final Map<UUID, TopicMetadata> byId = new ConcurrentHashMap<>();
    private volatile ClusterTopics clusterTopics = new ClusterTopics(Map.of(), Map.of());
    /** Moves on after each change to what {@link #known} and {@link #allKnown} answer. */
    private final AtomicLong version = new AtomicLong();
    private volatile TopicDeletionListener deletionListener = TopicDeletionListener.NONE;

    private TopicRegistry(BrokerConfig config, TopicStore store, Clock clock) {
        this.config = config;
        this.store = store;
        this.logs = new LogManager(config.logDirs(), this::logConfigFor, clock,
                config.get(BrokerConfig.NUM_RECOVERY_THREADS_PER_DATA_DIR),
                config.get(BrokerConfig.PRODUCER_ID_EXPIRATION_MS),
                () -> config.get(BrokerConfig.LOG_SEGMENT_DELETE_DELAY_MS));
    }

    /** Loads the stored topics, then opens (and if needed recovers) their logs. */
    public static TopicRegistry open(BrokerConfig config, Clock clock) throws IOException {
        return open(config, clock, dirs -> { });
    }

    /** {@link #open(BrokerConfig, Clock)}, with a check of the log directories run once they are locked. */
    public static TopicRegistry open(BrokerConfig config, Clock clock, LogDirsCheck lockedCheck) throws IOException {
        TopicRegistry registry = new TopicRegistry(config, new TopicStore(config.logDirs().get(0)), clock);
        for (TopicMetadata topic : registry.store.loadAll()) {
            registry.byName.put(topic.name(), topic);
            registry.byId.put(topic.id(), topic);
        }
        try {
            registry.logs.startup(lockedCheck);
            if (!config.inCluster()) { // in a cluster the controller's image says which partitions this node keeps
                for (TopicMetadata topic : registry.byName.values()) {
                    registry.createLogs(topic, partition -> true);
                }
            }
        } catch (IOException | RuntimeException e) {
            // The logs opened so far close (unmarked: the next start recovers them) and the directories' locks go,
            // so that a start in this JVM can try again.
            try {
                registry.logs.close();
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        LOG.info("Loaded {} topics", registry.byName.size());
        return registry;
    }

    public Optional<TopicMetadata> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public Optional<TopicMetadata> get(UUID id) {
        return Optional.ofNullable(byId.get(id));
    }

    public Collection<TopicMetadata> all() {
        return byName.values();
    }

    public LogManager logs() {
        return logs;
    }

    /** The log of an existing partition of an existing topic. */
    public Optional<PartitionLog> partitionLog(TopicMetadata topic, int partition) {
        if (!topic.hasPartition(partition)) {
            return Optional.empty();
        }
        return logs.log(new TopicPartition(topic.name(), partition));
    }

    /**
     * The topic a produce or fetch names: by id from the version that carries ids ({@code byId}), else by name.
     * Empty if unknown; the caller answers UNKNOWN_TOPIC_ID or UNKNOWN_TOPIC_OR_PARTITION accordingly.
     */
    public Optional<TopicMetadata> resolve(boolean byId, String name, UUID id) {
        return byId ? get(id) : name == null ? Optional.empty() : get(name);
    }

    /**
     * Creates a topic. {@code partitions} and {@code replicationFactor} of -1 take the broker's defaults
     * ({@code num.partitions}, {@code default.replication.factor}).
     */
    public Outcome create(String name, int partitions, int replicationFactor, Map<String, String> overrides,
                          boolean validateOnly) {
        return create(name, new PartitionRules.NewTopic(partitions, replicationFactor, List.of(),
                config.get(BrokerConfig.NUM_PARTITIONS), config.get(BrokerConfig.DEFAULT_REPLICATION_FACTOR)),
                overrides, validateOnly);
    }

    /**
     * Creates a topic as CreateTopics asks ({@code request}: its counts, or replica lists that may name only this
     * node), checked in the order of Kafka's controller: name, existence, configs, then counts and lists.
     */
    public synchronized Outcome create(String name, PartitionRules.NewTopic request, Map<String, String> overrides,
                                       boolean validateOnly) {
        String invalidName = invalidName(name);
        if (invalidName != null) {
            return Outcome.failed(Errors.INVALID_TOPIC_EXCEPTION, invalidName);
        }
        if (byName.containsKey(name)) {
            return Outcome.failed(Errors.TOPIC_ALREADY_EXISTS, "Topic '" + name + "' already exists.");
        }
        String collision = collidingTopic(name);
        if (collision != null) {
            return Outcome.failed(Errors.INVALID_TOPIC_EXCEPTION,
                    "Topic '" + name + "' collides with existing topic: " + collision);
        }
        String invalidConfig = TopicConfig.invalidReason(overrides);
        if (invalidConfig != null) {
            return Outcome.failed(Errors.INVALID_CONFIG, invalidConfig);
        }
        PartitionRules.Refusal refused = request.refusal(List.of(config.get(BrokerConfig.NODE_ID)));
        if (refused != null) {
            return Outcome.failed(refused.error(), refused.message());
        }
        int replicas = request.replicas();
        if (replicas > 1) {
            return Outcome.failed(Errors.INVALID_REPLICATION_FACTOR, "Unable to replicate the partition " + replicas
                    + " time(s): The target replication factor of " + replicas
                    + " cannot be reached because only 1 broker(s) are registered.");
        }
        int partitionCount = request.partitions();
        TopicMetadata topic = new TopicMetadata(name, TopicIds.random(), partitionCount, overrides);
        if (validateOnly) {
            return new Outcome(Errors.NONE, null, topic);
        }
        try {
            saveAndCreateLogs(topic, partition -> true);
        } catch (IOException | UncheckedIOException e) {
            LOG.error("Could not create topic {}", name, e);
            return Outcome.failed(Errors.KAFKA_STORAGE_ERROR, "Could not create topic " + name + ": " + e.getMessage());
        }
        LOG.info("Created topic {} with {} partitions, id {}, overrides {}", name, partitionCount,
                TopicIds.toText(topic.id()), overrides);
        return new Outcome(Errors.NONE, null, topic);
    }

    /**
     * Creates a topic on a client's account on a single node, with what {@link AutoCreatedTopic} gives it; but
     * {@code __consumer_offsets} and {@code __transaction_state} always have one replica here, whatever
     * {@code offsets.topic.replication.factor} and {@code transaction.state.log.replication.factor} say (3 by
     * default, which one node could never hold: groups and transactions would never find their coordinator).
     */
    public Outcome autoCreate(String name) {
        return autoCreate(AutoCreatedTopic.of(name, config));
    }

    /** Creates a topic as the broker decided it (a streams group's internal topic), as {@link #autoCreate(String)}. */
    public Outcome autoCreate(AutoCreatedTopic topic) {
        int replicationFactor = InternalTopics.isInternal(topic.name()) ? 1 : topic.replicationFactor();
        return create(topic.name(), topic.partitions(), replicationFactor, topic.configs(), false);
    }

    /**
     * Makes a topic here what the cluster's controller says it is, creating the logs of the partitions this node
     * replicates ({@code replicated}, by index; as in Kafka, none for the others): how a broker in a cluster comes
     * to host the partitions the metadata image gives it, to have the partitions CreatePartitions added and the
     * configs AlterConfigs set. A local topic of the same name and another id is the same name deleted and
     * created again while this broker did not see it: it is deleted first, its logs with it.
     */
    public synchronized Errors adopt(String name, UUID id, int partitions, Map<String, String> overrides,
                                    Set<Integer> replicated) {
        TopicMetadata existing = byName.get(name);
        if (existing != null && !existing.id().equals(id)) {
            LOG.info("Topic {} is now {}, no longer {}: deleting the old one here", name, TopicIds.toText(id),
                    TopicIds.toText(existing.id()));
            Errors deleted = delete(name);
            if (deleted != Errors.NONE) {
                return deleted;
            }
            existing = null;
        }
        if (existing != null && existing.partitions() >= partitions
                && existing.configOverrides().equals(overrides) && hasLogs(name, replicated)) {
            return Errors.NONE;
        }
        TopicMetadata topic = new TopicMetadata(name, id, Math.max(partitions,
                existing == null ? 0 : existing.partitions()), overrides);
        try {
            saveAndCreateLogs(topic, replicated::contains);
        } catch (IOException | UncheckedIOException e) {
            LOG.error("Could not create topic {} from the cluster's metadata", name, e);
            return Errors.KAFKA_STORAGE_ERROR;
        }
        if (existing == null) {
            LOG.info("Hosting topic {} ({} partitions, id {}) from the cluster's metadata", name, partitions,
                    TopicIds.toText(id));
        } else if (!existing.configOverrides().equals(overrides)) {
            applyLogConfig(topic);
            LOG.info("Topic {} config overrides are now {}, from the cluster's metadata", name, overrides);
        }
        return Errors.NONE;
    }

    /**
     * Raises a topic's partition count to {@code count}, creating the new partitions' logs; manual
     * {@code assignments} (null if none) may name only this node, {@code nodeId}, as the topic's one replica;
     * {@code permitted} is the controller_mutation_rate's say on the partitions added ({@link PartitionRules#increase}).
     */
    public synchronized Outcome addPartitions(String name, int count, List<List<Integer>> assignments, int nodeId,
                                              boolean validateOnly, IntPredicate permitted) {
        TopicMetadata topic = byName.get(name);
        if (topic == null) {
            // No message, as Kafka 4.3.1's controller (an UnknownTopicOrPartitionException without one).
            return Outcome.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION, null);
        }
        PartitionRules.Refusal refused = PartitionRules.increase(name, topic.partitions(), count, assignments, 1,
                List.of(nodeId), permitted);
        if (refused != null) {
            return Outcome.failed(refused.error(), refused.message());
        }
        TopicMetadata grown = new TopicMetadata(name, topic.id(), count, topic.configOverrides());
        if (validateOnly) {
            return new Outcome(Errors.NONE, null, grown);
        }
        try {
            saveAndCreateLogs(grown, partition -> true);
        } catch (IOException | UncheckedIOException e) {
            LOG.error("Could not add partitions to topic {}", name, e);
            return Outcome.failed(Errors.KAFKA_STORAGE_ERROR, "Could not add partitions to " + name + ": " + e.getMessage());
        }
        LOG.info("Topic {} now has {} partitions", name, count);
        return new Outcome(Errors.NONE, null, grown);
    }

    /** Replaces a topic's config overrides, after checking them, and applies them to its running logs. */
    public synchronized Outcome updateConfigs(String name, Map<String, String> overrides, boolean validateOnly) {
        TopicMetadata topic = byName.get(name);
        if (topic == null) {
            return Outcome.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Topic '" + name + "' does not exist.");
        }
        String invalid = TopicConfig.invalidReason(overrides);
        if (invalid != null) {
            return Outcome.failed(Errors.INVALID_CONFIG, invalid);
        }
        TopicMetadata changed = new TopicMetadata(name, topic.id(), topic.partitions(), overrides);
        if (validateOnly) {
            return new Outcome(Errors.NONE, null, changed);
        }
        try {
            store.save(changed);
        } catch (IOException e) {
            return Outcome.failed(Errors.KAFKA_STORAGE_ERROR, "Could not store the configs of " + name + ": " + e);
        }
        byName.put(name, changed);
        byId.put(changed.id(), changed);
        version.incrementAndGet();
        applyLogConfig(changed);
        LOG.info("Topic {} config overrides are now {}", name, overrides);
        return new Outcome(Errors.NONE, null, changed);
    }

    /** Gives every log its topic's config again: after the broker's defaults changed (dynamic broker configs). */
    public synchronized void reapplyLogConfigs() {
        byName.values().forEach(this::applyLogConfig);
    }

    /** Gives every partition's log the topic's current config (its overrides over the broker's defaults). */
    private void applyLogConfig(TopicMetadata topic) {
        LogConfig logConfig = logConfigFor(topic.name());
        for (int partition = 0; partition < topic.partitions(); partition++) {
            logs.log(new TopicPartition(topic.name(), partition)).ifPresent(log -> log.updateConfig(logConfig));
        }
    }

    @Override
    public int partitionCount(String name) {
        return get(name).map(TopicMetadata::partitions).orElse(-1);
    }

    @Override
    public Optional<UUID> idOf(String name) {
        return get(name).map(TopicMetadata::id);
    }

    @Override
    public Optional<String> nameOf(UUID id) {
        return get(id).map(TopicMetadata::name);
    }

    @Override
    public Optional<Map<String, String>> overrides(String topic) {
        return get(topic).map(TopicMetadata::configOverrides);
    }

    /**
     * The {@code min.insync.replicas} a write to {@code topic} needs: its override, else the broker's (also for a
     * topic not known here), as the coordinators' appends to their internal topics ask it.
     */
    public int minInsyncReplicas(String topic) {
        return TopicConfig.minInsyncReplicas(config, overrides(topic).orElse(Map.of()));
    }

    /** Whether the topic's {@code cleanup.policy} has {@code delete} ({@link TopicConfig#deletes}). */
    public boolean deletesRecords(String topic) {
        return TopicConfig.deletes(config, overrides(topic).orElse(Map.of()));
    }

    @Override
    public Change replaceOverrides(String topic, Map<String, String> overrides, boolean validateOnly) {
        Outcome outcome = updateConfigs(topic, overrides, validateOnly);
        return new Change(outcome.error(), outcome.message());
    }

    /**
     * Deletes the log of one partition whose replica this broker no longer hosts (a reassignment moved it away),
     * as Kafka's brokers delete a replica the metadata takes from them; the topic stays. False if it had none.
     */
    public boolean deleteReplicaLog(TopicPartition partition) throws IOException {
        return logs.deleteLog(partition);
    }

    /**
     * Who is told of each topic {@link #delete} deletes: a single node's group coordinator, which deletes the groups'
     * commits of it. A cluster broker sets none: it deletes topics here for reasons of its own too (every replica
     * moved away), and learns of the cluster's deletions from its images, of topics it hosts or not.
     */
    public void tellDeletionsTo(TopicDeletionListener listener) {
        this.deletionListener = listener;
    }

    /**
     * Deletes a topic and its logs (whether deletion is enabled is the caller's to check), and tells the
     * {@link #tellDeletionsTo deletion listener} once no request finds it any more, whether or not every file went.
     */
    @Override
    public synchronized Errors delete(String name) {
        TopicMetadata topic = byName.remove(name);
        if (topic == null) {
            return Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        byId.remove(topic.id());
        version.incrementAndGet();
        deletionListener.onTopicsDeleted(List.of(topic));
        try {
            store.delete(name);
            for (int partition = 0; partition < topic.partitions(); partition++) {
                logs.deleteLog(new TopicPartition(name, partition)); // the whole directory, partition.metadata too
            }
        } catch (IOException e) {
            LOG.error("Could not delete every file of topic {}", name, e);
            return Errors.KAFKA_STORAGE_ERROR;
        }
        LOG.info("Deleted topic {}", name);
        return Errors.NONE;
    }

    /** The log settings of a topic: its overrides on the broker's defaults. */
    public LogConfig logConfigFor(String topic) {
        TopicMetadata metadata = byName.get(topic);
        return TopicConfig.logConfig(config, metadata == null ? Map.of() : metadata.configOverrides());
    }

    @Override
    public void close() throws IOException {
        logs.close();
    }

    /**
     * Makes the topic (new, or grown) what {@link #get} answers: only once its logs exist, so that nothing finds a
     * partition without its log. A single node's FindCoordinator answers itself as soon as {@code __consumer_offsets}
     * is found; a group whose partition's log was still being created then got COORDINATOR_NOT_AVAILABLE for its
     * first write (a SyncGroup's), where Kafka's coordinator of a loaded partition never answers that.
     */
    private void publish(TopicMetadata topic) {
        byName.put(topic.name(), topic);
        byId.put(topic.id(), topic);
        version.incrementAndGet();
    }

    /**
     * Saves the topic, creates the logs of its partitions {@code kept}, then {@link #publish}es it: once saved even if
     * a log could not be created (the store holds it from then on), never if the save failed.
     */
    private void saveAndCreateLogs(TopicMetadata topic, IntPredicate kept) throws IOException {
        store.save(topic);
        try {
            createLogs(topic, kept);
        } finally {
            publish(topic);
        }
    }

    /** The topic's logs, with its own config: it is not yet what {@link #logConfigFor} looks up ({@link #publish}). */
    private void createLogs(TopicMetadata topic, IntPredicate kept) throws IOException {
        LogConfig logConfig = TopicConfig.logConfig(config, topic.configOverrides());
        String topicId = TopicIds.toText(topic.id());
        for (int partition = 0; partition < topic.partitions(); partition++) {
            if (kept.test(partition)) {
                PartitionLog log = logs.getOrCreateLog(new TopicPartition(topic.name(), partition), logConfig);
                log.partitionMetadata().writeTopicId(topicId);
            }
        }
    }

    private boolean hasLogs(String topic, Set<Integer> partitions) {
        return partitions.stream().allMatch(partition -> logs.log(new TopicPartition(topic, partition)).isPresent());
    }

    /**
     * Tells the registry which topics the cluster has, from each metadata image, including those with no replica
     * here, so that requests naming them are checked and answered as Kafka checks them against its metadata cache.
     */
    public void knowClusterTopics(Collection<TopicMetadata> topics) {
        Map<String, TopicMetadata> names = new HashMap<>();
        Map<UUID, TopicMetadata> ids = new HashMap<>();
        for (TopicMetadata topic : topics) {
            names.put(topic.name(), topic);
            ids.put(topic.id(), topic);
        }
        if (!names.equals(clusterTopics.byName())) {
            clusterTopics = new ClusterTopics(Map.copyOf(names), Map.copyOf(ids));
            version.incrementAndGet();
        }
    }

    /**
     * A number that moves on (after the change) whenever a topic is created, deleted, grown or reconfigured here or
     * in the cluster's image: what is computed from the known topics holds while it stays the same.
     */
    public long version() {
        return version.get();
    }

    /** A topic this broker has, or else one the cluster's latest image has (a single node has only its own). */
    public Optional<TopicMetadata> known(String name) {
        return get(name).or(() -> Optional.ofNullable(clusterTopics.byName().get(name)));
    }

    /** Every topic this broker has or the cluster's latest image has (a single node: its own). */
    public Collection<TopicMetadata> allKnown() {
        Map<String, TopicMetadata> names = new HashMap<>(clusterTopics.byName());
        names.putAll(byName);
        return names.values();
    }

    /** As {@link #known(String)}, by id. */
    public Optional<TopicMetadata> known(UUID id) {
        return get(id).or(() -> Optional.ofNullable(clusterTopics.byId().get(id)));
    }

    /**
     * Kafka's error for a partition that has no log here, or that this node does not lead: NOT_LEADER_OR_FOLLOWER
     * when the topic has that partition, here or in the cluster's image (its leader is elsewhere and the client's
     * metadata is stale), else UNKNOWN_TOPIC_ID for an unknown id and UNKNOWN_TOPIC_OR_PARTITION otherwise.
     */
    public Errors partitionNotHere(boolean byId, String name, UUID id, int partition) {
        Optional<TopicMetadata> topic = byId ? known(id) : name == null ? Optional.empty() : known(name);
        if (topic.isEmpty()) {
            return byId ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        return topic.get().hasPartition(partition) ? Errors.NOT_LEADER_OR_FOLLOWER
                : Errors.UNKNOWN_TOPIC_OR_PARTITION;
    }

    /** The cluster's topics as the latest image lists them; none on a single node. */
    private record ClusterTopics(Map<String, TopicMetadata> byName, Map<UUID, TopicMetadata> byId) {
    }

    /**
     * Kafka's rules for topic names (its Topic.validate, the first rule broken, in its order), in the words Kafka
     * 4.3.1 answers every API with (topic creation, the configs requests, DescribeProducers): null if legal.
     */
    public static String invalidName(String name) {
        String invalid = "Topic name is invalid: ";
        if (name == null || name.isEmpty()) {
            return invalid + "the empty string is not allowed";
        }
        if (name.equals(".") || name.equals("..")) {
            return invalid + "'" + name + "' is not allowed";
        }
        if (name.length() > MAX_NAME_LENGTH) {
            return invalid + "the length of '" + name + "' is longer than the max allowed length " + MAX_NAME_LENGTH;
        }
        return LEGAL_NAME.matcher(name).matches() ? null : invalid + "'" + name
                + "' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'";
    }

    /** Kafka refuses names that differ from an existing one only by '.' versus '_' (they share metric names). */
    private String collidingTopic(String name) {
        String unified = name.replace('.', '_');
        List<String> existing = new ArrayList<>(byName.keySet());
        for (String other : existing) {
            if (!other.equals(name) && other.replace('.', '_').equals(unified)) {
                return other;
            }
        }
        return null;
    }
}
