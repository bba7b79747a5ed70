package io.minibroker.broker.controller;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.control.LeaderMoves;
import io.minibroker.broker.topic.ConfigurableTopics;
import io.minibroker.broker.topic.DeletableTopics;
import io.minibroker.broker.topic.ElectableTopics;
import io.minibroker.broker.topic.ElectableTopics.ElectionResult;
import io.minibroker.broker.topic.PartitionRules;
import io.minibroker.broker.topic.ReassignableTopics;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.IntPredicate;

/**
 * The controller's topics: each partition's replicas, leader, leader epoch and ISR. A new topic's replicas are
 * placed round-robin over the registered brokers, fenced ones too (only the leader must be live, as with Kafka's
 * StripedReplicaPlacer), each partition starting one live broker further, so that leaders (the first replica)
 * spread evenly; once any registered broker has a rack, they are striped over the racks as Kafka's placer does
 * ({@link StripedReplicaPlacer}). Its ISR is its live replicas and its leader epoch 0. Partitions added later
 * (CreatePartitions) are placed the same way. A topic also carries its config overrides. Each change is saved
 * ({@link AssignmentStore}) before it is in the image, so a topic any broker has seen outlives a restart of the
 * controller, and a deleted one stays deleted. Thread-safe: every method holds
 * this object's lock, so images are taken between changes, never during one.
 */
public final class TopicAssignments implements DeletableTopics, ConfigurableTopics, ElectableTopics, LeaderMoves,
        ReassignableTopics {

    /** What creating a topic answers: an error and its message, or the new topic. */
    public record Outcome(Errors error, String message, TopicImage topic) {
        static Outcome failed(Errors error, String message) {
            return new Outcome(error, message, null);
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(TopicAssignments.class);

    private final BrokerMembership membership;
    private final AssignmentStore store;
    /** Told of each change once it is in the image ({@link ImageVersion#changed}), so that brokers fetch it. */
    private final Runnable onChange;
    private final Map<String, TopicImage> topics = new LinkedHashMap<>();
    /** Each topic's partitions' epochs: the version of the ISR, bumped by every change to it. */
    private final Map<String, int[]> partitionEpochs = new HashMap<>();
    /** Where the next topic's first partition starts, so that successive topics' leaders spread too. */
    private int nextStart;
    /** Placement once brokers have racks; without any, {@link #place} keeps its deterministic round-robin. */
    private final StripedReplicaPlacer rackPlacer = new StripedReplicaPlacer(new Random());

    private TopicAssignments(BrokerMembership membership, AssignmentStore store,
                             Runnable onChange) {
        this.membership = membership;
        this.store = store;
        this.onChange = onChange;
    }

    /**
     * The controller's topics as saved in {@code firstLogDir} (none, the first time); {@code onChange} runs after
     * each change, under this object's lock, so it must not wait.
     */
    public static TopicAssignments open(BrokerMembership membership, Path firstLogDir,
                                        Runnable onChange) throws IOException {
        AssignmentStore store = new AssignmentStore(firstLogDir);
        TopicAssignments assignments = new TopicAssignments(membership, store, onChange);
        for (AssignmentStore.StoredTopic stored : store.loadAll()) {
            assignments.topics.put(stored.topic().name(), stored.topic());
            assignments.partitionEpochs.put(stored.topic().name(), stored.partitionEpochs());
        }
        assignments.nextStart = assignments.topics.size();
        return assignments;
    }

    /** A new partition at epoch 0: its live replicas in sync, led by the first of them. */
    private PartitionImage newPartition(int index, List<Integer> replicas) {
        List<Integer> replicaList = List.copyOf(replicas);
        List<Integer> isr = replicaList.stream().filter(membership::isLive).toList();
        return new PartitionImage(index, isr.get(0), 0, replicaList, isr, List.of());
    }

    /**
     * Creates a topic as CreateTopics asks ({@code request}: its counts or replica lists) with these config
     * overrides, checked in the order of Kafka's controller: name, existence, configs, then counts and lists; checks
     * only, if {@code validateOnly}.
     */
    public synchronized Outcome create(String name, PartitionRules.NewTopic request, Map<String, String> configs,
                                       boolean validateOnly) {
        String invalidName = TopicRegistry.invalidName(name);
        if (invalidName != null) {
            return Outcome.failed(Errors.INVALID_TOPIC_EXCEPTION, invalidName);
        }
        if (topics.containsKey(name)) {
            return Outcome.failed(Errors.TOPIC_ALREADY_EXISTS, "Topic '" + name + "' already exists.");
        }
        String invalidConfig = TopicConfig.invalidReason(configs);
        if (invalidConfig != null) {
            return Outcome.failed(Errors.INVALID_CONFIG, invalidConfig);
        }
        BrokerMembership.BrokerIds brokers = membership.ids();
        PartitionRules.Refusal refused = request.refusal(brokers.registered());
        if (refused != null) {
            return Outcome.failed(refused.error(), refused.message());
        }
        List<List<Integer>> replicas;
        if (request.assignments().isEmpty()) {
            String unplaceable = unplaceable(brokers, request.replicas());
            if (unplaceable != null) {
                return Outcome.failed(Errors.INVALID_REPLICATION_FACTOR, unplaceable);
            }
            replicas = place(brokers, nextStart, request.partitions(), request.replicas());
        } else {
            replicas = request.replicaLists();
            String fenced = allFenced(brokers, replicas);
            if (fenced != null) {
                return Outcome.failed(Errors.INVALID_REPLICA_ASSIGNMENT, fenced);
            }
        }
        List<PartitionImage> partitionImages = new ArrayList<>();
        for (int partition = 0; partition < replicas.size(); partition++) {
            partitionImages.add(newPartition(partition, replicas.get(partition)));
        }
        TopicImage topic = new TopicImage(name, TopicIds.random(), partitionImages, configs);
        return validateOnly ? new Outcome(Errors.NONE, null, topic)
                : saveAndInstall(topic, new int[partitionImages.size()]);
    }

    /**
     * Why manual replica lists are refused once {@link PartitionRules} passed them, or null: a list of fenced brokers
     * only, as Kafka's ReplicationControlManager refuses it (a fenced broker may be a replica, out of the ISR until it
     * catches up, but one of them must be live to lead).
     */
    private static String allFenced(BrokerMembership.BrokerIds brokers, List<List<Integer>> assignments) {
        for (List<Integer> assignment : assignments) {
            if (assignment.stream().noneMatch(brokers.live()::contains)) {
                return "All brokers specified in the manual partition assignment " + assignment
                        + " are fenced or in controlled shutdown.";
            }
        }
        return null;
    }

    /**
     * Why {@code replicationFactor} replicas cannot be placed, or null: as Kafka's StripedReplicaPlacer, they are
     * placed over every registered broker, fenced ones too, and only the leader must be live.
     */
    private static String unplaceable(BrokerMembership.BrokerIds brokers, int replicationFactor) {
        int registered = brokers.registered().size();
        if (brokers.live().isEmpty()) {
            return "All brokers are currently fenced.";
        }
        if (replicationFactor > registered) {
            return "Unable to replicate the partition " + replicationFactor + " time(s): The target replication "
                    + "factor of " + replicationFactor + " cannot be reached because only " + registered
                    + " broker(s) are registered.";
        }
        return null;
    }

    /**
     * Replica lists for {@code count} partitions, round-robin from the {@code firstLeader}-th live broker (modulo
     * their number): each led by the next live broker, followed by the registered brokers after it, fenced ones
     * included (with every broker live, plain round-robin over them). When any broker has a rack, striped over the
     * racks instead, as Kafka's placer (which starts where it likes: {@code firstLeader} is not used then).
     */
    private List<List<Integer>> place(BrokerMembership.BrokerIds brokers, int firstLeader, int count,
                                      int replicationFactor) {
        if (!brokers.racks().isEmpty()) {
            return rackPlacer.place(brokers.registered(), Set.copyOf(brokers.live()), brokers.racks(), count,
                    replicationFactor);
        }
        List<Integer> registered = brokers.registered();
        List<Integer> live = brokers.live();
        List<List<Integer>> replicas = new ArrayList<>();
        for (int partition = 0; partition < count; partition++) {
            int leader = live.get((firstLeader + partition) % live.size());
            int at = registered.indexOf(leader);
            List<Integer> replicaList = new ArrayList<>();
            for (int replica = 0; replica < replicationFactor; replica++) {
                replicaList.add(registered.get((at + replica) % registered.size()));
            }
            replicas.add(replicaList);
        }
        return replicas;
    }

    /**
     * Where added partitions' leaders start among the live brokers: after the first replica of the topic's last
     * partition, so that they go on with its stripe, as Kafka's StripedReplicaPlacer goes on from the topic's last
     * leader.
     */
    private static int afterLastLeader(BrokerMembership.BrokerIds brokers, TopicImage topic) {
        int last = topic.partitions().get(topic.partitions().size() - 1).replicas().get(0);
        List<Integer> live = brokers.live();
        for (int i = 0; i < live.size(); i++) {
            if (live.get(i) > last) {
                return i;
            }
        }
        return 0;
    }

    /**
     * Adds partitions to a topic, up to {@code count} in all, each with as many replicas as the topic's first
     * partition: placed as a new topic's, going on from the last partition's first replica, or on these replica lists (one per new partition) when
     * {@code assignments} is not null. Kafka's errors: UNKNOWN_TOPIC_OR_PARTITION, INVALID_PARTITIONS for a count
     * that is no increase, INVALID_REPLICA_ASSIGNMENT, THROTTLING_QUOTA_EXCEEDED when {@code permitted} (the
     * controller_mutation_rate, given the partitions added) refuses them, INVALID_REPLICATION_FACTOR when too few
     * brokers are registered or none is live; in Kafka's order ({@link PartitionRules#increase}).
     */
    public synchronized Outcome addPartitions(String name, int count, List<List<Integer>> assignments,
                                              boolean validateOnly, IntPredicate permitted) {
        TopicImage topic = topics.get(name);
        if (topic == null) {
            // No message, as Kafka 4.3.1's controller (an UnknownTopicOrPartitionException without one).
            return Outcome.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION, null);
        }
        int current = topic.partitions().size();
        int replicationFactor = topic.partitions().get(0).replicas().size();
        BrokerMembership.BrokerIds brokers = membership.ids();
        PartitionRules.Refusal refused = PartitionRules.increase(name, current, count, assignments,
                replicationFactor, brokers.registered(), permitted);
        if (refused != null) {
            return Outcome.failed(refused.error(), refused.message());
        }
        List<List<Integer>> replicas;
        if (assignments == null) {
            String unplaceable = unplaceable(brokers, replicationFactor);
            if (unplaceable != null) {
                return Outcome.failed(Errors.INVALID_REPLICATION_FACTOR, unplaceable);
            }
            replicas = place(brokers, afterLastLeader(brokers, topic), count - current, replicationFactor);
        } else {
            String fenced = allFenced(brokers, assignments);
            if (fenced != null) {
                return Outcome.failed(Errors.INVALID_REPLICA_ASSIGNMENT, fenced);
            }
            replicas = assignments;
        }
        List<PartitionImage> partitions = new ArrayList<>(topic.partitions());
        for (List<Integer> replicaList : replicas) {
            partitions.add(newPartition(partitions.size(), replicaList));
        }
        TopicImage grown = topic.withPartitions(partitions);
        if (validateOnly) {
            return new Outcome(Errors.NONE, null, grown);
        }
        Outcome saved = saveAndInstall(grown, Arrays.copyOf(partitionEpochs.get(name), count));
        if (saved.error() == Errors.NONE) {
            LOG.info("Topic {} now has {} partitions", name, count);
        }
        return saved;
    }

    /**
     * Saves a new or grown topic, then puts it in the image with these partition epochs; the next placement
     * starts one broker further on.
     */
    private Outcome saveAndInstall(TopicImage topic, int[] epochs) {
        try {
            install(topic, epochs);
        } catch (IOException e) {
            return Outcome.failed(Errors.KAFKA_STORAGE_ERROR, "Could not save topic '" + topic.name() + "': " + e);
        }
        nextStart++;
        return new Outcome(Errors.NONE, null, topic);
    }

    /** Saves a topic and its partition epochs, then puts them in the image; on failure, the image is as it was. */
    private void install(TopicImage topic, int[] epochs) throws IOException {
        store.save(topic, epochs);
        topics.put(topic.name(), topic);
        partitionEpochs.put(topic.name(), epochs);
        onChange.run();
    }

    /** A topic's partition count, or -1 if there is no such topic. */
    @Override
    public synchronized int partitionCount(String name) {
        TopicImage topic = topics.get(name);
        return topic == null ? -1 : topic.partitions().size();
    }

    @Override
    public synchronized Optional<UUID> idOf(String name) {
        return Optional.ofNullable(topics.get(name)).map(TopicImage::id);
    }

    @Override
    public synchronized Optional<String> nameOf(UUID id) {
        return byId(id).map(TopicImage::name);
    }

    /** The topic with this id; a scan, as ids are rare in requests and topics few. */
    private Optional<TopicImage> byId(UUID id) {
        return topics.values().stream().filter(topic -> topic.id().equals(id)).findFirst();
    }

    /** Removes a topic from the image; every broker deletes its logs when it sees the image without it. */
    @Override
    public synchronized Errors delete(String name) {
        if (!topics.containsKey(name)) {
            return Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        try {
            store.delete(name);
        } catch (IOException e) {
            LOG.error("Could not delete the file of topic {}", name, e);
            return Errors.KAFKA_STORAGE_ERROR;
        }
        topics.remove(name);
        partitionEpochs.remove(name);
        onChange.run();
        LOG.info("Deleted topic {}", name);
        return Errors.NONE;
    }

    @Override
    public synchronized Optional<Map<String, String>> overrides(String topic) {
        return Optional.ofNullable(topics.get(topic)).map(TopicImage::configs);
    }

    @Override
    public synchronized Change replaceOverrides(String name, Map<String, String> overrides, boolean validateOnly) {
        TopicImage topic = topics.get(name);
        if (topic == null) {
            return new Change(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Topic '" + name + "' does not exist.");
        }
        String invalid = TopicConfig.invalidReason(overrides);
        if (invalid != null) {
            return new Change(Errors.INVALID_CONFIG, invalid);
        }
        if (!validateOnly) {
            TopicImage changed = topic.withConfigs(overrides);
            try {
                install(changed, partitionEpochs.get(name));
            } catch (IOException e) {
                return new Change(Errors.KAFKA_STORAGE_ERROR, "Could not save topic '" + name + "': " + e);
            }
            LOG.info("Topic {} config overrides are now {}", name, overrides);
        }
        return new Change(Errors.NONE, null);
    }

    /** A broker named in a new ISR, with the epoch the leader knows it by (-1: not checked). */
    public record IsrMember(int brokerId, long brokerEpoch) {
    }

    /** What an ISR change answers: an error, or the partition as it now is and its new partition epoch. */
    public record IsrChange(Errors error, PartitionImage partition, int partitionEpoch) {
        static IsrChange failed(Errors error) {
            return new IsrChange(error, null, -1);
        }
    }

    /**
     * A leader's request to change a partition's ISR (AlterPartition), checked as Kafka's ReplicationControlManager
     * checks it: a leader epoch above the partition's is NOT_CONTROLLER (the sender knows a newer controller), one
     * below FENCED_LEADER_EPOCH; a sender that is not the leader INVALID_REQUEST; a partition epoch other than the
     * current one INVALID_UPDATE_VERSION (NOT_CONTROLLER if above; -1, a leader that has not changed the ISR since
     * it took the partition, is not checked: the image brokers get carries no partition epoch); an ISR with a
     * broker that is not a replica, a broker twice, or without the leader INVALID_REQUEST; an ISR member, the
     * leader included, that is not live or not at its current registration when the leader names its broker
     * epoch INELIGIBLE_REPLICA (KIP-903: a follower that caught up and then restarted is not the broker that comes
     * back, which has to catch up again). An ISR equal to the current one changes nothing (no new partition epoch,
     * as Kafka's PartitionChangeBuilder writes no record); another is saved, then the partition epoch bumped.
     */
    public synchronized IsrChange alterIsr(int brokerId, UUID topicId, int index, int leaderEpoch,
                                           int partitionEpoch, List<IsrMember> newMembers) {
        List<Integer> newIsr = newMembers.stream().map(IsrMember::brokerId).toList();
        TopicImage topic = byId(topicId).orElse(null);
        if (topic == null) {
            return IsrChange.failed(Errors.UNKNOWN_TOPIC_ID);
        }
        if (index < 0 || index >= topic.partitions().size()) {
            return IsrChange.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        }
        PartitionImage current = topic.partitions().get(index);
        int[] epochs = partitionEpochs.get(topic.name());
        if (leaderEpoch > current.leaderEpoch() || partitionEpoch > epochs[index]) {
            return IsrChange.failed(Errors.NOT_CONTROLLER);
        }
        if (leaderEpoch < current.leaderEpoch()) {
            return IsrChange.failed(Errors.FENCED_LEADER_EPOCH);
        }
        if (current.leader() != brokerId) {
            return IsrChange.failed(Errors.INVALID_REQUEST);
        }
        if (partitionEpoch >= 0 && partitionEpoch != epochs[index]) {
            return IsrChange.failed(Errors.INVALID_UPDATE_VERSION);
        }
        if (!current.replicas().containsAll(newIsr) || new HashSet<>(newIsr).size() != newIsr.size()
                || !newIsr.contains(brokerId)) {
            return IsrChange.failed(Errors.INVALID_REQUEST);
        }
        for (IsrMember member : newMembers) {
            int replica = member.brokerId();
            if (!membership.isLive(replica)
                    || (member.brokerEpoch() != -1 && member.brokerEpoch() != membership.epoch(replica))) {
                return IsrChange.failed(Errors.INELIGIBLE_REPLICA);
            }
        }
        if (new HashSet<>(newIsr).equals(new HashSet<>(current.isr()))) {
            return new IsrChange(Errors.NONE, current, epochs[index]);
        }
        // A new ISR may complete a reassignment, as Kafka's PartitionChangeBuilder completes one.
        PartitionImage changed = changeReplicas(current, current.replicas(), newIsr, current.addingReplicas(),
                current.removingReplicas());
        try {
            saveChange(topic, changed);
        } catch (IOException e) {
            return IsrChange.failed(Errors.KAFKA_STORAGE_ERROR);
        }
        if (current.reassigning() && !changed.reassigning()) {
            LOG.info("{}-{}: reassignment completed on replicas {}, ISR {}, leader {} at epoch {}", topic.name(),
                    index, changed.replicas(), changed.isr(), changed.leader(), changed.leaderEpoch());
        }
        if (changed.leader() != brokerId) {
            // The leader left with the replicas removed: Kafka answers so, and the sender waits for the image.
            return IsrChange.failed(Errors.NEW_LEADER_ELECTED);
        }
        return new IsrChange(Errors.NONE, changed, partitionEpochs.get(topic.name())[index]);
    }

    /** Saves one partition's change with its partition epoch bumped, then puts it in the image. */
    private void saveChange(TopicImage topic, PartitionImage changed) throws IOException {
        List<PartitionImage> partitions = new ArrayList<>(topic.partitions());
        partitions.set(changed.index(), changed);
        int[] newEpochs = partitionEpochs.get(topic.name()).clone();
        newEpochs[changed.index()]++;
        install(topic.withPartitions(partitions), newEpochs);
    }

    /**
     * A partition with these replicas, ISR and replicas being added and removed, as Kafka's PartitionChangeBuilder
     * makes it: a reassignment completes once the ISR less the replicas leaving is not empty and holds every replica
     * being added, and, when fewer are added than removed, every target replica (the replicas leaving go from the replicas and the ISR, nothing is being added or removed any
     * more); a leader that is no longer a live member of the ISR and the replicas gives way to the first replica, in
     * order, that is (none: no leader, as this controller makes no unclean election); a new leader, or a replica
     * gone from the replicas, bumps the leader epoch.
     */
    private PartitionImage changeReplicas(PartitionImage current, List<Integer> replicas, List<Integer> isr,
                                          List<Integer> adding, List<Integer> removing) {
        if (!adding.isEmpty() || !removing.isEmpty()) {
            List<Integer> leaving = removing;
            List<Integer> keptIsr = isr.stream().filter(id -> !leaving.contains(id)).toList();
            List<Integer> target = replicas.stream().filter(id -> !leaving.contains(id)).toList();
            // A move to fewer replicas also waits for every target replica to be in sync, so that an in-sync copy
            // is never dropped while a lagging one stays (Kafka's maybeCompleteReassignment).
            boolean shrinkInSync = adding.size() >= removing.size() || keptIsr.containsAll(target);
            if (!keptIsr.isEmpty() && keptIsr.containsAll(adding) && shrinkInSync) {
                replicas = target;
                isr = keptIsr;
                adding = List.of();
                removing = List.of();
            }
        }
        int leader = current.leader();
        if (leader == NO_LEADER || !replicas.contains(leader) || !mayLead(isr, leader)) {
            leader = firstThatMayLead(replicas, isr);
        }
        boolean bump = leader != current.leader() || !replicas.containsAll(current.replicas());
        return new PartitionImage(current.index(), leader, bump ? current.leaderEpoch() + 1 : current.leaderEpoch(),
                List.copyOf(replicas), List.copyOf(isr), List.of(), List.copyOf(adding), List.copyOf(removing));
    }

    /**
     * AlterPartitionReassignments of one partition, as Kafka's ReplicationControlManager does it. A target: checked
     * ({@link ReassignableTopics#refusal}, against the registered brokers and the replication factor the partition
     * is going to), then the replicas become the target followed by the current ones it leaves out (being removed),
     * and the target's newcomers are being added; if the ISR already allows it the move completes at once (a new
     * order of the same replicas, or fewer replicas), otherwise once the newcomers join the ISR ({@link #alterIsr}).
     * A null target cancels a move in progress: the replicas being added go, from the ISR too, which refuses the
     * cancel (INVALID_REPLICA_ASSIGNMENT, as Kafka without unclean elections) if nothing would be left in it. What
     * changes nothing is not saved.
     */
    @Override
    public synchronized ReassignableTopics.Outcome reassign(String topic, int partition, List<Integer> target,
                                         boolean allowReplicationFactorChange) {
        TopicImage image = topics.get(topic);
        if (image == null) {
            return ReassignableTopics.Outcome.noSuchTopic(topic);
        }
        if (partition < 0 || partition >= image.partitions().size()) {
            return ReassignableTopics.Outcome.noSuchPartition(topic, partition);
        }
        PartitionImage current = image.partitions().get(partition);
        PartitionImage changed;
        if (target == null) {
            if (!current.reassigning()) {
                return ReassignableTopics.Outcome.NOTHING_TO_CANCEL;
            }
            List<Integer> adding = current.addingReplicas();
            List<Integer> isr = current.isr().stream().filter(id -> !adding.contains(id)).toList();
            if (isr.isEmpty()) {
                return new ReassignableTopics.Outcome(Errors.INVALID_REPLICA_ASSIGNMENT, "Unable to revert partition assignment for "
                        + topic + ":" + partition + " because it would require an unclean leader election.");
            }
            changed = changeReplicas(current, current.replicas().stream().filter(id -> !adding.contains(id)).toList(),
                    isr, List.of(), List.of());
        } else {
            int replicationFactor = current.replicas().size() - current.removingReplicas().size();
            ReassignableTopics.Outcome refused = ReassignableTopics.refusal(target, Set.copyOf(membership.ids().registered()),
                    replicationFactor, allowReplicationFactorChange);
            if (refused != null) {
                return refused;
            }
            List<Integer> removing = current.replicas().stream().filter(id -> !target.contains(id)).toList();
            // A newcomer of a move in progress that the new target keeps is still being added: Kafka keeps the
            // whole of the old adding set when the new target adds nothing, even replicas the target drops, which
            // would then never let the move complete; here only those the target keeps stay.
            List<Integer> adding = target.stream()
                    .filter(id -> !current.replicas().contains(id) || current.addingReplicas().contains(id)).toList();
            List<Integer> replicas = new ArrayList<>(target);
            replicas.addAll(removing);
            changed = changeReplicas(current, replicas, current.isr(), adding, removing);
        }
        if (changed.equals(current)) {
            return ReassignableTopics.Outcome.DONE;
        }
        try {
            saveChange(image, changed);
        } catch (IOException e) {
            LOG.warn("Could not save the reassignment of {}-{}: {}", topic, partition, e.toString());
            return new ReassignableTopics.Outcome(Errors.KAFKA_STORAGE_ERROR, "the controller could not save the reassignment");
        }
        LOG.info("{}-{}: {} replicas {}, adding {}, removing {}, ISR {}, leader {} at epoch {}", topic, partition,
                target == null ? "reassignment cancelled:" : "reassigning to " + target + ":", changed.replicas(),
                changed.addingReplicas(), changed.removingReplicas(), changed.isr(), changed.leader(),
                changed.leaderEpoch());
        return ReassignableTopics.Outcome.DONE;
    }

    @Override
    public synchronized Map<Integer, Ongoing> ongoing(String topic, List<Integer> partitions) {
        TopicImage image = topics.get(topic);
        Map<Integer, Ongoing> moving = new LinkedHashMap<>();
        if (image == null) {
            return moving;
        }
        for (int index : partitions) {
            if (index >= 0 && index < image.partitions().size() && image.partitions().get(index).reassigning()) {
                moving.put(index, ongoingOf(image.partitions().get(index)));
            }
        }
        return moving;
    }

    @Override
    public synchronized Map<String, Map<Integer, Ongoing>> ongoingAll() {
        Map<String, Map<Integer, Ongoing>> moving = new LinkedHashMap<>();
        for (TopicImage topic : topics.values()) {
            Map<Integer, Ongoing> partitions = new LinkedHashMap<>();
            topic.partitions().stream().filter(PartitionImage::reassigning)
                    .forEach(p -> partitions.put(p.index(), ongoingOf(p)));
            if (!partitions.isEmpty()) {
                moving.put(topic.name(), partitions);
            }
        }
        return moving;
    }

    private static Ongoing ongoingOf(PartitionImage partition) {
        return new Ongoing(partition.replicas(), partition.addingReplicas(), partition.removingReplicas());
    }

    /** Kafka's leader id for a partition without one: no replica of its ISR is live. */
    public static final int NO_LEADER = -1;

    /** Partitions without a leader now: Kafka's controller's OfflinePartitionsCount. */
    public synchronized int offlinePartitionCount() {
        int offline = 0;
        for (TopicImage topic : topics.values()) {
            for (PartitionImage partition : topic.partitions()) {
                if (partition.leader() == NO_LEADER) {
                    offline++;
                }
            }
        }
        return offline;
    }

    /**
     * Acts on fenced brokers (a controlled shutdown, or a session that expired), as Kafka's controller does on
     * fencing one, rather than waiting for each leader's {@code replica.lag.time.max.ms}: a fenced broker leaves
     * the ISR of every partition, and a partition whose leader is not live gets a new one, the first replica, in
     * assignment order, of the ISR that is live, with the ISR cut to its live members. Every change bumps the
     * partition epoch, and a new leader the leader epoch too. The ISR never becomes empty: with no live member
     * left (unclean.leader.election.enable is false) the partition has no leader and keeps the last replica that
     * led it in its ISR (or its ISR, when it had no leader already), so that it leads again when it returns. A
     * broker that has not registered since the controller started is not taken for fenced: after a controller
     * restart the brokers register again before their absence means anything.
     */
    public synchronized void electLeaders() {
        for (TopicImage topic : List.copyOf(topics.values())) {
            // A failed save leaves the topic as it was; the next check tries again.
            electIn(topic, topic.partitions().stream().map(PartitionImage::index).toList(), this::withoutFenced);
        }
    }

    /**
     * {@link #electLeaders} of only the partitions {@code brokerId} leads or is in the ISR of, as Kafka's controller
     * acts on a broker entering controlled shutdown (partitionsWithBrokerInIsr): the others' leaders and ISRs are not
     * the stopping broker's to change, and a topic without any of them is left alone (not copied to be looked at).
     */
    public synchronized void electLeadersAwayFrom(int brokerId) {
        for (TopicImage topic : List.copyOf(topics.values())) {
            List<Integer> indices = new ArrayList<>();
            for (PartitionImage partition : topic.partitions()) {
                if (partition.leader() == brokerId || partition.isr().contains(brokerId)) {
                    indices.add(partition.index());
                }
            }
            if (!indices.isEmpty()) {
                electIn(topic, indices, this::withoutFenced);
            }
        }
    }

    private Election withoutFenced(PartitionImage partition) {
        PartitionImage changed = withoutFencedBrokers(partition);
        return changed == null ? Election.unchanged(ElectionResult.NOT_NEEDED)
                : new Election(ElectionResult.ELECTED, changed);
    }

    /** The partition with its fenced brokers out of the ISR and a live leader if one can be had; null if unchanged. */
    private PartitionImage withoutFencedBrokers(PartitionImage partition) {
        int leader = partition.leader();
        List<Integer> isr;
        if (leader != NO_LEADER && membership.isLive(leader)) {
            isr = partition.isr().stream().filter(id -> !membership.isFenced(id)).toList();
        } else {
            leader = firstThatMayLead(partition);
            if (leader != NO_LEADER) {
                isr = partition.isr().stream().filter(membership::isLive).toList();
            } else {
                isr = partition.isr().stream().filter(id -> !membership.isFenced(id)).toList();
                if (isr.isEmpty()) {
                    isr = partition.isr().contains(partition.leader()) ? List.of(partition.leader()) : partition.isr();
                }
            }
        }
        if (leader == partition.leader() && isr.equals(partition.isr())) {
            return null;
        }
        int leaderEpoch = leader == partition.leader() ? partition.leaderEpoch() : partition.leaderEpoch() + 1;
        return new PartitionImage(partition.index(), leader, leaderEpoch, partition.replicas(), isr, List.of(),
                partition.addingReplicas(), partition.removingReplicas());
    }

    /** At most this many leaders one automatic rebalance moves, as Kafka's controller (MAX_ELECTIONS_PER_IMBALANCE). */
    static final int MAX_ELECTIONS_PER_BALANCE = 1_000;

    /** What electing one partition's leader decided: its outcome, and the partition as it now is if it changed. */
    private record Election(ElectionResult result, PartitionImage elected) {
        static Election unchanged(ElectionResult result) {
            return new Election(result, null);
        }
    }

    /**
     * ElectLeaders on named partitions, checked and decided as Kafka's controller does: PREFERRED makes the first
     * replica the leader when it is live and in the ISR (ELECTION_NOT_NEEDED if it leads already,
     * PREFERRED_LEADER_NOT_AVAILABLE if it cannot); UNCLEAN gives a partition without a leader the first live
     * replica of its ISR (ELECTION_NOT_NEEDED if it has a leader). A new leader bumps the leader and partition
     * epochs and leaves the ISR as it was. Unlike Kafka, an unclean election never reaches outside the ISR: this
     * controller offers no unclean elections ({@code unclean.leader.election.enable} is false only), so such a
     * partition is answered ELIGIBLE_LEADERS_NOT_AVAILABLE, saying so. The changes to a topic are saved in one
     * write before they are in the image.
     */
    @Override
    public synchronized List<ElectionResult> elect(ElectableTopics.Type type, String topic,
                                                   List<Integer> partitions) {
        TopicImage image = topics.get(topic);
        if (image == null) {
            return partitions.stream().map(p -> ElectionResult.noSuchTopic(topic)).toList();
        }
        return electIn(image, partitions, electionOf(type));
    }

    /** ElectLeaders of every partition: see {@link ElectableTopics#electAll}. */
    @Override
    public synchronized Map<String, Map<Integer, ElectionResult>> electAll(ElectableTopics.Type type) {
        Map<String, Map<Integer, ElectionResult>> results = new LinkedHashMap<>();
        for (TopicImage topic : List.copyOf(topics.values())) {
            List<Integer> indices = topic.partitions().stream().map(PartitionImage::index).toList();
            List<ElectionResult> outcomes = electIn(topic, indices, electionOf(type));
            Map<Integer, ElectionResult> needed = new LinkedHashMap<>();
            for (int i = 0; i < indices.size(); i++) {
                if (outcomes.get(i).error() != Errors.ELECTION_NOT_NEEDED) {
                    needed.put(indices.get(i), outcomes.get(i));
                }
            }
            results.put(topic.name(), needed);
        }
        return results;
    }

    /**
     * The automatic leader rebalance ({@code auto.leader.rebalance.enable}): a preferred election of every
     * partition not led by its first replica, as Kafka's controller runs it every
     * {@code leader.imbalance.check.interval.seconds}, moving at most {@link #MAX_ELECTIONS_PER_BALANCE} leaders a
     * run. Kafka's KRaft controller reads no {@code leader.imbalance.per.broker.percentage}, and neither does this
     * one. Returns how many leaders moved: elections decided but not saved (a full disk, say) do not count, so a
     * caller that reruns while a run moves the maximum stops when saving fails.
     */
    public synchronized int balanceLeaders() {
        int[] budget = {MAX_ELECTIONS_PER_BALANCE};
        int moved = 0;
        // Only a partition that has a leader is rebalanced, as in Kafka; one without waits for a live ISR member.
        Function<PartitionImage, Election> withinBudget = partition -> {
            if (budget[0] == 0) {
                return Election.unchanged(ElectionResult.NOT_NEEDED); // the next run takes it
            }
            Election decided = preferredElection(partition);
            if (decided.elected() != null) {
                budget[0]--;
            }
            return decided;
        };
        for (TopicImage topic : List.copyOf(topics.values())) {
            List<Integer> imbalanced = topic.partitions().stream()
                    .filter(p -> p.leader() != NO_LEADER && p.leader() != p.replicas().get(0))
                    .map(PartitionImage::index)
                    .toList();
            if (!imbalanced.isEmpty()) {
                moved += (int) electIn(topic, imbalanced, withinBudget).stream()
                        .filter(outcome -> outcome.error() == Errors.NONE).count();
            }
            if (budget[0] == 0) {
                break;
            }
        }
        return moved;
    }

    /**
     * A test's leader move (a MiniCluster's controls): {@code leader} leads the partition from now on, as an
     * election would make it (the next leader epoch, the ISR as it was), if it may: a live member of the ISR.
     * Otherwise nothing changes and the answer says why. With {@code auto.leader.rebalance.enable} the next
     * imbalance check moves the leader back to the preferred replica, as it would in Kafka.
     */
    @Override
    public synchronized ElectionResult moveLeader(String topic, int partition, int leader) {
        TopicImage image = topics.get(topic);
        if (image == null) {
            return ElectionResult.noSuchTopic(topic);
        }
        return electIn(image, List.of(partition), current -> {
            if (current.leader() == leader) {
                return Election.unchanged(ElectionResult.NOT_NEEDED);
            }
            if (!mayLead(current, leader)) {
                return Election.unchanged(new ElectionResult(Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE,
                        "node " + leader + " is not a live member of the ISR " + current.isr()));
            }
            return new Election(ElectionResult.ELECTED, ledBy(current, leader));
        }).get(0);
    }

    private Function<PartitionImage, Election> electionOf(ElectableTopics.Type type) {
        return type == ElectableTopics.Type.PREFERRED ? this::preferredElection : this::uncleanElection;
    }

    /**
     * Runs {@code election} on these partitions of {@code topic} and saves what changed in one write; answers an
     * outcome per index, in order. If the save fails, nothing changes and the elected ones answer
     * KAFKA_STORAGE_ERROR.
     */
    private List<ElectionResult> electIn(TopicImage topic, List<Integer> indices,
                                         Function<PartitionImage, Election> election) {
        List<PartitionImage> partitions = new ArrayList<>(topic.partitions());
        int[] epochs = partitionEpochs.get(topic.name()).clone();
        List<ElectionResult> outcomes = new ArrayList<>(indices.size());
        boolean changed = false;
        for (int index : indices) {
            if (index < 0 || index >= partitions.size()) {
                outcomes.add(ElectionResult.noSuchPartition(topic.name(), index));
                continue;
            }
            Election decided = election.apply(partitions.get(index));
            if (decided.elected() != null) {
                partitions.set(index, decided.elected());
                epochs[index]++;
                changed = true;
            }
            outcomes.add(decided.result());
        }
        if (!changed) {
            return outcomes;
        }
        try {
            install(topic.withPartitions(partitions), epochs);
        } catch (IOException e) {
            LOG.warn("Could not save the leader elections of {}: {}", topic.name(), e.toString());
            ElectionResult failed = new ElectionResult(Errors.KAFKA_STORAGE_ERROR,
                    "the controller could not save the election");
            return outcomes.stream().map(o -> o.error() == Errors.NONE ? failed : o).toList();
        }
        for (int i = 0; i < indices.size(); i++) {
            if (outcomes.get(i).error() == Errors.NONE) {
                PartitionImage p = partitions.get(indices.get(i));
                LOG.info("{}-{}: leader {} at epoch {}, ISR {}", topic.name(), p.index(), p.leader(),
                        p.leaderEpoch(), p.isr());
            }
        }
        return outcomes;
    }

    /**
     * The first replica, if it may lead; failing that, a partition whose leader is gone gets the first replica
     * that may (Kafka's preferred election falls back the same way); a partition whose leader may go on leading
     * keeps it.
     */
    private Election preferredElection(PartitionImage partition) {
        int preferred = partition.replicas().get(0);
        if (partition.leader() == preferred) {
            return Election.unchanged(ElectionResult.NOT_NEEDED);
        }
        int leader;
        if (mayLead(partition, preferred)) {
            leader = preferred;
        } else if (partition.leader() != NO_LEADER && mayLead(partition, partition.leader())) {
            leader = partition.leader();
        } else {
            leader = firstThatMayLead(partition);
        }
        if (leader == NO_LEADER || leader == partition.leader()) {
            return Election.unchanged(new ElectionResult(Errors.PREFERRED_LEADER_NOT_AVAILABLE,
                    "The preferred leader was not available."));
        }
        return new Election(ElectionResult.ELECTED, ledBy(partition, leader));
    }

    private Election uncleanElection(PartitionImage partition) {
        if (partition.leader() != NO_LEADER) {
            return Election.unchanged(ElectionResult.NOT_NEEDED);
        }
        int leader = firstThatMayLead(partition);
        if (leader != NO_LEADER) {
            return new Election(ElectionResult.ELECTED, ledBy(partition, leader));
        }
        boolean outOfSyncReplicaLive = partition.replicas().stream().anyMatch(membership::isLive);
        return Election.unchanged(new ElectionResult(Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE, outOfSyncReplicaLive
                ? "Eligible topic partition leaders are not available: only in-sync replicas may lead here, as"
                        + " minibroker offers no unclean leader election"
                : "Eligible topic partition leaders are not available."));
    }

    /** A replica may lead if it is in the ISR and its broker is live (registered, not fenced). */
    private boolean mayLead(PartitionImage partition, int replica) {
        return mayLead(partition.isr(), replica);
    }

    /** Kafka's clean election rule: a replica in the ISR whose broker is live. */
    private boolean mayLead(List<Integer> isr, int replica) {
        return isr.contains(replica) && membership.isLive(replica);
    }

    private int firstThatMayLead(PartitionImage partition) {
        return firstThatMayLead(partition.replicas(), partition.isr());
    }

    private int firstThatMayLead(List<Integer> replicas, List<Integer> isr) {
        return replicas.stream().filter(r -> mayLead(isr, r)).findFirst().orElse(NO_LEADER);
    }

    /** The partition under a new leader: the next leader epoch, the same replicas and ISR. */
    private static PartitionImage ledBy(PartitionImage partition, int leader) {
        return new PartitionImage(partition.index(), leader, partition.leaderEpoch() + 1, partition.replicas(),
                partition.isr(), List.of(), partition.addingReplicas(), partition.removingReplicas());
    }

    /**
     * The image brokers fetch: the live brokers at every endpoint they registered (and apart, the fenced ones), and
     * every topic with the replicas that are not live as offline.
     */
    public synchronized ClusterMetadata image() {
        List<BrokerNode> brokers = new ArrayList<>();
        Set<Integer> live = new java.util.HashSet<>();
        BrokerMembership.Registered registered = membership.registered();
        for (BrokerMembership.RegisteredBroker broker : registered.live()) {
            live.add(broker.id());
            for (Endpoint endpoint : broker.listeners()) {
                brokers.add(new BrokerNode(broker.id(), endpoint.listenerName(), endpoint.host(), endpoint.port(),
                        broker.rack()));
            }
        }
        List<BrokerNode> fenced = new ArrayList<>();
        for (BrokerMembership.RegisteredBroker broker : registered.fenced()) {
            for (Endpoint endpoint : broker.listeners()) {
                fenced.add(new BrokerNode(broker.id(), endpoint.listenerName(), endpoint.host(), endpoint.port(),
                        broker.rack()));
            }
        }
        Map<String, TopicImage> image = new LinkedHashMap<>();
        for (TopicImage topic : topics.values()) {
            List<PartitionImage> partitions = topic.partitions().stream()
                    .map(p -> new PartitionImage(p.index(), p.leader(), p.leaderEpoch(), p.replicas(), p.isr(),
                            p.replicas().stream().filter(id -> !live.contains(id)).toList(), p.addingReplicas(),
                            p.removingReplicas()))
                    .toList();
            image.put(topic.name(), topic.withPartitions(partitions));
        }
        return new ClusterMetadata(brokers, image, fenced);
    }
}
