package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.AutoCreatedTopic;
import io.minibroker.broker.topic.InternalTopicCreation;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.RequestingClient;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

import static java.util.concurrent.CompletableFuture.completedFuture;

/**
 * The streams-protocol side of the coordinator (KIP-1071), Kafka's GroupMetadataManager.streamsGroupHeartbeat: Kafka
 * Streams members join with their topology, heartbeat and leave through StreamsGroupHeartbeat. The first member's
 * topology becomes the group's; it is checked against the topics there are ({@link StreamsTopologyConfigurer}), and
 * the internal topics it still lacks are created by the broker ({@link InternalTopicCreation}) while the members are
 * told MISSING_INTERNAL_TOPICS. A member coming or going or changing what the assignment depends on, a change of the
 * topology's topics, or the topology becoming ready, bumps the group epoch; the target assignment is computed again
 * at that epoch ({@link StreamsTaskAssignor}, {@code streams.num.standby.replicas} standbys), and each member
 * reconciles towards its target on its own heartbeats ({@link StreamsReconciliation}). Members silent for
 * {@code streams.session.timeout.ms}, or too slow to revoke within their rebalance timeout, are fenced
 * ({@link MemberTimeouts}).
 *
 * <p>Every change is written to {@code __consumer_offsets} ({@link StreamsGroupRecords}) and the heartbeat answered
 * once it counts, so that a restart or a move of the coordinator keeps the group and its members carry on. Unlike
 * consumer and share groups ({@link ConsumerGroupCoordinator}, {@link ShareGroupCoordinator}) and Kafka, a write
 * refused at its append is not rolled back: it is answered with its error, and the change stays in memory, written
 * with the group's next one.
 *
 * <p>A group's heartbeat interval, session timeout and standbys are its group configs ({@code streams.*}), else the
 * broker's keys ({@link StreamsGroupSettings}). Static members are refused, as Kafka 4.3 refuses them.
 *
 * <p>A group id names one group. As Kafka 4.3.1's, a first heartbeat takes the id of an empty classic group (an app
 * moved from {@code group.protocol=classic}; the classic group's metadata is tombstoned with the streams group's first
 * write, its commits stay), and a classic JoinGroup takes the id of an empty streams group ({@link #yieldToClassic});
 * a group of another type with members, or a consumer or share group, refuses the member.
 */
final class StreamsGroupCoordinator implements MemberTimeouts.Expiry<StreamsGroup, StreamsGroupMember> {

    private static final Logger LOG = LoggerFactory.getLogger(StreamsGroupCoordinator.class);

    private final StreamsGroups groups;
    private final ClassicGroups classicGroups;
    private final ClassicGroupCoordinator classicMembership;
    private final GroupTypes types;
    /** How many refused internal topics a status names, as KafkaApis's: the others are counted ("and N more"). */
    private static final int CREATION_FAILURES_NAMED = 3;
    /** Until the broker says how internal topics are created: none is, none was refused. */
    private static final InternalTopicCreation NO_CREATION = new InternalTopicCreation() {
        @Override
        public void createAsDecided(Collection<AutoCreatedTopic> topics, long errorRetentionMs,
                                    RequestingClient client) {
        }

        @Override
        public Map<String, String> creationErrors(Collection<String> names) {
            return Map.of();
        }
    };

    private final CoordinatorThread thread;
    private final TopicRegistry topics;
    /** The required topics' {@link MetadataHash}es, which the group's covers. */
    private final TopicHashCache hashes;
    private final MemberTimeouts<StreamsGroup, StreamsGroupMember> timeouts;
    private final EmptyGroupRemoval<StreamsGroup> removal;
    private final int maxSize;
    /** A group's heartbeat interval, session timeout and standbys: its group configs, else the broker's keys. */
    private volatile StreamsGroupSettings settings;
    private volatile InternalTopicCreation internalTopics = NO_CREATION;

    StreamsGroupCoordinator(BrokerConfig config, StreamsGroups groups, ClassicGroups classicGroups,
                            ClassicGroupCoordinator classicMembership, GroupTypes types, CoordinatorThread thread,
                            TopicRegistry topics, TopicHashCache hashes, BrokerClock clock) {
        this.groups = groups;
        this.classicGroups = classicGroups;
        this.classicMembership = classicMembership;
        this.types = types;
        this.thread = thread;
        this.topics = topics;
        this.hashes = hashes;
        this.timeouts = new MemberTimeouts<>("StreamsGroupHeartbeat", clock, this);
        this.maxSize = config.get(BrokerConfig.GROUP_STREAMS_MAX_SIZE);
        this.settings = StreamsGroupSettings.of(config);
        this.removal = new EmptyGroupRemoval<>(thread, classicGroups, groups::get, StreamsGroup::isDead,
                group -> !group.members.isEmpty(), groups::forget);
    }

    /** Where a group's own configs come from: the broker's group configs, where it keeps them. */
    void readSettingsFrom(StreamsGroupSettings settings) {
        this.settings = settings;
    }

    /** How the internal topics a topology lacks are created: locally on one node, by the controller in a cluster. */
    void createInternalTopicsWith(InternalTopicCreation creation) {
        this.internalTopics = creation;
    }

    // ----------------------------------------------------------------------------------------------- Heartbeat

    /** A heartbeat, validated, then run on the coordinator's thread. */
    CompletableFuture<StreamsGroupHeartbeat.Response> heartbeat(StreamsGroupHeartbeat.Request request) {
        StreamsGroupHeartbeat.Response invalid = validate(request);
        if (invalid != null) {
            return completedFuture(invalid);
        }
        Errors notHere = classicGroups.coordinatorError(request.groupId());
        if (notHere != Errors.NONE) {
            return completedFuture(StreamsGroupHeartbeat.Response.error(notHere, null));
        }
        return thread.compose(() -> heartbeatOnCoordinatorThread(request));
    }

    /**
     * Kafka's throwIfStreamsGroupHeartbeatRequestIsUsingUnsupportedFeatures, then
     * throwIfStreamsGroupHeartbeatRequestIsInvalid, with their messages; and KafkaApis' refusal of Kafka's internal
     * topics in a topology. Null if valid.
     */
    private static StreamsGroupHeartbeat.Response validate(StreamsGroupHeartbeat.Request request) {
        String problem = null;
        Errors error = Errors.INVALID_REQUEST;
        StreamsTopology topology = request.topology();
        if (request.usesSourceTopicRegex()) {
            problem = "Regular expressions for source topics are not supported yet.";
        } else if (request.memberId() != null && request.memberId().isEmpty()) {
            problem = "MemberId can't be empty.";
        } else if (request.groupId() == null || request.groupId().isEmpty()) {
            problem = "GroupId can't be empty.";
        } else if (request.instanceId() != null && request.instanceId().isEmpty()) {
            problem = "InstanceId can't be empty.";
        } else if (request.rackId() != null && request.rackId().isEmpty()) {
            problem = "RackId can't be empty.";
        } else if (request.memberEpoch() == 0) {
            if (request.rebalanceTimeoutMs() == -1) {
                problem = "RebalanceTimeoutMs must be provided in first request.";
            } else if (request.activeTasks() != null && !request.activeTasks().isEmpty()) {
                problem = "ActiveTasks must be empty when (re-)joining.";
            } else if (request.standbyTasks() != null && !request.standbyTasks().isEmpty()) {
                problem = "StandbyTasks must be empty when (re-)joining.";
            } else if (request.warmupTasks() != null && !request.warmupTasks().isEmpty()) {
                problem = "WarmupTasks must be empty when (re-)joining.";
            } else if (topology == null) {
                problem = "Topology must be non-null when (re-)joining.";
            } else {
                String changelog = sizedChangelog(topology);
                if (changelog != null) {
                    error = Errors.STREAMS_INVALID_TOPOLOGY;
                    problem = changelog;
                }
            }
        } else if (request.memberEpoch() == StreamsGroupMember.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
            if (request.instanceId() == null) {
                problem = "InstanceId can't be null.";
            }
        } else if (request.memberEpoch() < StreamsGroupMember.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
            problem = "MemberEpoch is " + request.memberEpoch() + ", but must be greater than or equal to -2.";
        }
        if (problem == null && (request.activeTasks() != null || request.standbyTasks() != null
                || request.warmupTasks() != null) && (request.activeTasks() == null || request.standbyTasks() == null
                || request.warmupTasks() == null)) {
            problem = "If one task-type is non-null, all must be non-null.";
        }
        if (problem == null && request.memberEpoch() != 0 && topology != null) {
            problem = "Topology can only be provided when (re-)joining.";
        }
        if (problem == null && topology != null) {
            Set<String> internal = new TreeSet<>();
            topology.topics().stream().filter(InternalTopics::isInternal).forEach(internal::add);
            if (!internal.isEmpty()) {
                error = Errors.STREAMS_INVALID_TOPOLOGY;
                problem = "Use of Kafka internal topics " + String.join(",", internal)
                        + " in a Kafka Streams topology is prohibited.";
            }
        }
        return problem == null ? null : StreamsGroupHeartbeat.Response.error(error, problem);
    }

    /** Kafka's throwIfInvalidTopology: a changelog topic's partitions are the broker's to decide. */
    private static String sizedChangelog(StreamsTopology topology) {
        for (StreamsTopology.Subtopology subtopology : topology.subtopologies().values()) {
            for (StreamsTopology.TopicInfo changelog : subtopology.stateChangelogTopics()) {
                if (changelog.partitions() != 0) {
                    return String.format("Changelog topic %s must have an undefined partition count, but it is set "
                            + "to %d.", changelog.name(), changelog.partitions());
                }
            }
        }
        return null;
    }

    private CompletableFuture<StreamsGroupHeartbeat.Response> heartbeatOnCoordinatorThread(
            StreamsGroupHeartbeat.Request request) {
        String groupId = request.groupId();
        Errors notHere = classicGroups.coordinatorError(groupId); // it may have moved while queued
        if (notHere != Errors.NONE) {
            return completedFuture(StreamsGroupHeartbeat.Response.error(notHere, null));
        }
        StreamsGroup group = groups.get(groupId);
        boolean created = group == null;
        boolean overClassic = false;
        if (created) {
            String anotherType = types.notA(GroupType.STREAMS, groupId);
            boolean joining = request.memberEpoch() == 0;
            // Kafka's getOrCreateStreamsGroup: an empty classic group (an app moved from group.protocol=classic,
            // its commits kept) gives way to the streams group; any other group of the id refuses the member.
            overClassic = anotherType != null && joining && types.holds(GroupType.CLASSIC, groupId)
                    && classicMembership.isEmpty(groupId);
            if (anotherType != null && !overClassic) {
                return completedFuture(StreamsGroupHeartbeat.Response.error(Errors.GROUP_ID_NOT_FOUND, anotherType));
            }
            if (!joining) {
                return completedFuture(StreamsGroupHeartbeat.Response.error(Errors.GROUP_ID_NOT_FOUND,
                        "Streams group " + groupId + " not found."));
            }
            // Not listed until the join is accepted, as Kafka's new group exists only once its records are replayed:
            // a refused join (a static member, an invalid topology) leaves no trace, the classic group kept.
            group = new StreamsGroup(groupId);
        }
        Outcome outcome;
        CompletableFuture<Long> written = null;
        synchronized (group) {
            if (group.isDead()) { // deleted meanwhile: the client retries
                return completedFuture(StreamsGroupHeartbeat.Response.error(Errors.COORDINATOR_NOT_AVAILABLE, null));
            }
            outcome = request.memberEpoch() < 0 ? new Outcome(leave(group, request), List.of())
                    : heartbeat(group, request, created);
            if (outcome.response().error() == Errors.NONE && !created) {
                written = groups.write(group, group.members.get(outcome.response().memberId()));
            }
        }
        if (outcome.response().error() == Errors.NONE && created) {
            written = listAndWrite(group, overClassic, outcome.response().memberId());
            if (written == null) {
                return completedFuture(StreamsGroupHeartbeat.Response.error(Errors.GROUP_ID_NOT_FOUND,
                        types.notA(GroupType.STREAMS, groupId)));
            }
        }
        StreamsGroupHeartbeat.Response response = outcome.response();
        if (!outcome.toCreate().isEmpty()) {
            // Kafka keeps a refused creation for twice the group's heartbeat interval: the members are told why for
            // a heartbeat or two, and the topic is asked for again after that.
            internalTopics.createAsDecided(outcome.toCreate(), 2L * settings.heartbeatIntervalMs(groupId),
                    request.requester());
            response = withCreationFailures(response, outcome.toCreate());
        }
        if (written == null) {
            return completedFuture(response);
        }
        // Answered once its records count, as Kafka's coordinator answers a write; a failed write leaves the change
        // in memory, written with the group's next one (Kafka, and consumer and share groups here, roll it back).
        StreamsGroupHeartbeat.Response answer = response;
        return written.handle((offset, failure) -> failure == null ? answer
                : StreamsGroupHeartbeat.Response.error(CoordinatorWriteErrors.answerFor(failure), null));
    }

    /**
     * The answer with the kept refusals of the internal topics just asked for appended to its MISSING_INTERNAL_TOPICS
     * status, as KafkaApis appends them after asking: "; Creation failed: t (why),u (why) and N more.", three named.
     * Kafka names them in its map's order, here by name.
     */
    private StreamsGroupHeartbeat.Response withCreationFailures(StreamsGroupHeartbeat.Response response,
                                                                List<AutoCreatedTopic> asked) {
        Map<String, String> failures = internalTopics.creationErrors(
                asked.stream().map(AutoCreatedTopic::name).toList());
        if (failures.isEmpty()) {
            return response;
        }
        List<String> named = failures.entrySet().stream().limit(CREATION_FAILURES_NAMED)
                .map(failure -> failure.getKey() + " (" + failure.getValue() + ")").toList();
        String more = failures.size() > CREATION_FAILURES_NAMED
                ? " and " + (failures.size() - CREATION_FAILURES_NAMED) + " more" : "";
        List<StreamsConfiguredTopology.Status> statuses = new ArrayList<>(response.statuses());
        for (int i = 0; i < statuses.size(); i++) {
            StreamsConfiguredTopology.Status status = statuses.get(i);
            if (status.code() == StreamsConfiguredTopology.MISSING_INTERNAL_TOPICS) {
                statuses.set(i, new StreamsConfiguredTopology.Status(status.code(), status.detail()
                        + "; Creation failed: " + String.join(",", named) + more + "."));
                break;
            }
        }
        return response.withStatuses(statuses);
    }

    /**
     * Lists a group a first join made, now that the join is accepted, and writes it. Over an empty classic group,
     * that group is released first and its metadata record tombstoned in the streams group's first batch, as Kafka
     * writes the tombstone with the join's records. Null if a classic member joined meanwhile: the classic group
     * keeps the id, and the streams group is dropped with its member's timeouts.
     */
    private CompletableFuture<Long> listAndWrite(StreamsGroup group, boolean overClassic, String memberId) {
        if (overClassic && !classicMembership.releaseIfEmpty(group.groupId)) {
            synchronized (group) {
                group.members.values().forEach(timeouts::end);
            }
            return null;
        }
        synchronized (group) {
            if (overClassic) {
                groups.replacesClassicGroup(group);
                LOG.info("Group {}: the empty classic group became a streams group", group.groupId);
            }
            groups.list(group);
            return groups.write(group, group.members.get(memberId));
        }
    }

    /** A heartbeat's answer, and the internal topics the broker is to create for it. */
    private record Outcome(StreamsGroupHeartbeat.Response response, List<AutoCreatedTopic> toCreate) {
        static Outcome error(Errors error, String message) {
            return new Outcome(StreamsGroupHeartbeat.Response.error(error, message), List.of());
        }
    }

    /**
     * A member joining (epoch 0) or heartbeating (its epoch), to a group this heartbeat {@code created} or not; the
     * caller holds the group's lock.
     */
    private Outcome heartbeat(StreamsGroup group, StreamsGroupHeartbeat.Request request, boolean created) {
        if (request.instanceId() != null) {
            // Kafka 4.3's streams groups have no static members yet: its coordinator fails such a heartbeat.
            return Outcome.error(Errors.UNKNOWN_SERVER_ERROR, "Static members are not supported yet.");
        }
        boolean joining = request.memberEpoch() == 0;
        StreamsGroupMember member = group.members.get(request.memberId());
        if (member == null) {
            if (!joining) {
                return Outcome.error(Errors.UNKNOWN_MEMBER_ID, unknownMember(group, request.memberId()));
            }
            if (group.members.size() >= maxSize) {
                return Outcome.error(Errors.GROUP_MAX_SIZE_REACHED,
                        "The streams group has reached its maximum capacity of " + maxSize + " members.");
            }
        } else if (!joining) {
            String fenced = fencedBecause(member, request.memberEpoch(), request.ownedTasks());
            if (fenced != null) {
                return Outcome.error(Errors.FENCED_MEMBER_EPOCH, fenced);
            }
        }
        // The topology and its configuration first: a refusal leaves the group as it was.
        StreamsTopology topology = group.topology;
        StreamsTopology declared = request.topology();
        if (declared != null && topology != null && declared.epoch() >= topology.epoch()
                && !declared.equals(topology)) {
            return Outcome.error(Errors.INVALID_REQUEST, "Topology updates are not supported yet.");
        }
        if (topology == null) {
            topology = declared;
        }
        Map<String, Integer> partitions = partitionCounts(topology);
        // As Kafka: the required topics' hash not the group's (read back with it after a load) reconfigures the
        // topology and bumps the epoch; the partition counts, compared as before, cover the repartition sinks too.
        long hash = hashes.ofTopicNames(topology.requiredTopics());
        boolean metadataChanged = hash != group.metadataHash || !partitions.equals(group.topicPartitions);
        StreamsConfiguredTopology configured = group.configuredTopology;
        if (metadataChanged || configured == null) {
            try {
                configured = StreamsTopologyConfigurer.configure(topology, partitions::get);
            } catch (StreamsTopologyConfigurer.InvalidTopologyException e) {
                return Outcome.error(Errors.STREAMS_INVALID_TOPOLOGY, e.getMessage());
            }
        }

        boolean bump = false;
        if (member == null) {
            member = new StreamsGroupMember(request.memberId());
            group.members.put(member.memberId, member);
            bump = true;
        }
        bump |= updateMetadata(member, request);
        group.topology = topology;
        group.configuredTopology = configured;
        if (metadataChanged) {
            group.topicPartitions = partitions;
            group.metadataHash = hash;
            bump = true;
        }
        int validated = configured.isReady() ? topology.epoch() : -1;
        if (validated != group.validatedTopologyEpoch) {
            group.validatedTopologyEpoch = validated;
            bump = true;
        }
        // Kafka's last assignment configs: a changed streams.num.standby.replicas triggers a rebalance.
        int standbys = settings.numStandbyReplicas(group.groupId);
        if (standbys != group.numStandbyReplicas) {
            group.numStandbyReplicas = standbys;
            bump = true;
        }
        if (bump) {
            group.groupEpoch++;
        }
        if (group.groupEpoch > group.assignmentEpoch) {
            computeTarget(group);
        }
        StreamsTasks tasksBefore = member.assignedTasks;
        long revocationBefore = member.revocationToken;
        StreamsReconciliation.reconcile(member, group.assignmentEpoch, group.targetOf(member.memberId),
                () -> group.owners(request.memberId()), request.ownedTasks());
        if (member.state == StreamsGroupMember.State.UNREVOKED_TASKS && member.revocationToken != revocationBefore) {
            timeouts.revoking(group, member, member.rebalanceTimeoutMs);
        }
        timeouts.heartbeat(group, member, settings.sessionTimeoutMs(group.groupId));
        if (request.shutdownApplication()) {
            group.shutdownRequestMemberId = member.memberId;
        }

        boolean tasksChanged = joining || !member.assignedTasks.equals(tasksBefore);
        if (tasksChanged && member.userEndpoint != null) {
            group.endpointInformationEpoch++;
        }
        List<StreamsGroupHeartbeat.EndpointPartitions> endpoints =
                group.endpointInformationEpoch != request.endpointInformationEpoch() ? endpointPartitions(group) : null;
        List<StreamsConfiguredTopology.Status> statuses = new ArrayList<>();
        if (member.topologyEpoch < topology.epoch()) {
            statuses.add(new StreamsConfiguredTopology.Status(StreamsConfiguredTopology.STALE_TOPOLOGY,
                    String.format("The member's topology epoch %d is behind the group's topology epoch %d.",
                            member.topologyEpoch, topology.epoch())));
        }
        List<AutoCreatedTopic> toCreate = new ArrayList<>();
        if (configured.status() != null) {
            statuses.add(creatable(configured, request, toCreate));
        }
        if (group.shutdownRequestMemberId != null) {
            statuses.add(new StreamsConfiguredTopology.Status(StreamsConfiguredTopology.SHUTDOWN_APPLICATION,
                    String.format("Streams group member %s encountered a fatal error and requested a shutdown for "
                            + "the entire application.", group.shutdownRequestMemberId)));
        }
        // Kafka 4.3.1 names the endpoint information epoch only to members of a group it had before this heartbeat
        // (one in its groups map): the first member of a new group is told 0, and is sent the endpoints again.
        return new Outcome(new StreamsGroupHeartbeat.Response(Errors.NONE, null, member.memberId, member.memberEpoch,
                settings.heartbeatIntervalMs(group.groupId), statuses, tasksChanged ? member.assignedTasks : null,
                created ? 0 : group.endpointInformationEpoch, endpoints), toCreate);
    }

    /**
     * The topology's status; the internal topics it lacks go to {@code toCreate} if the member's principal may create
     * every one of them, else none does and those it may not create are named in the status, as Kafka's
     * KafkaApis.handleStreamsGroupHeartbeat appends "Unauthorized to CREATE on topics …." and asks for no creation.
     */
    private static StreamsConfiguredTopology.Status creatable(StreamsConfiguredTopology configured,
                                                              StreamsGroupHeartbeat.Request request,
                                                              List<AutoCreatedTopic> toCreate) {
        Set<String> refused = new TreeSet<>();
        for (StreamsConfiguredTopology.InternalTopic topic : configured.missingInternalTopics()) {
            if (!request.mayCreateTopic().test(topic.name())) {
                refused.add(topic.name());
            }
        }
        StreamsConfiguredTopology.Status status = configured.status();
        if (refused.isEmpty()) {
            configured.missingInternalTopics().forEach(topic -> toCreate.add(new AutoCreatedTopic(topic.name(),
                    topic.partitions(), topic.replicationFactor(), topic.configs())));
            return status;
        }
        return new StreamsConfiguredTopology.Status(status.code(),
                status.detail() + "; Unauthorized to CREATE on topics " + String.join(",", refused) + ".");
    }

    /** Takes what the request says of the member; whether any of it changed (Kafka's metadata record changed). */
    private static boolean updateMetadata(StreamsGroupMember member, StreamsGroupHeartbeat.Request request) {
        boolean changed = false;
        if (request.rackId() != null && !request.rackId().equals(member.rackId)) {
            member.rackId = request.rackId();
            changed = true;
        }
        if (request.rebalanceTimeoutMs() != -1 && request.rebalanceTimeoutMs() != member.rebalanceTimeoutMs) {
            member.rebalanceTimeoutMs = request.rebalanceTimeoutMs();
            changed = true;
        }
        if (request.topology() != null && request.topology().epoch() != member.topologyEpoch) {
            member.topologyEpoch = request.topology().epoch();
            changed = true;
        }
        if (request.processId() != null && !request.processId().equals(member.processId)) {
            member.processId = request.processId();
            changed = true;
        }
        if (request.userEndpoint() != null && !request.userEndpoint().equals(member.userEndpoint)) {
            member.userEndpoint = request.userEndpoint();
            changed = true;
        }
        if (request.clientTags() != null && !request.clientTags().equals(member.clientTags)) {
            member.clientTags = Map.copyOf(request.clientTags());
            changed = true;
        }
        changed |= !request.clientId().equals(member.clientId) || !request.clientHost().equals(member.clientHost);
        member.clientId = request.clientId();
        member.clientHost = request.clientHost();
        return changed;
    }

    /** The partition count of each topic the topology names, null for one that does not exist. */
    private Map<String, Integer> partitionCounts(StreamsTopology topology) {
        Map<String, Integer> counts = new HashMap<>();
        for (String topic : topology.topics()) {
            counts.put(topic, topics.get(topic).map(TopicMetadata::partitions).orElse(null));
        }
        return counts;
    }

    /** The target assignment at the group epoch: the tasks assigned if the topology is ready, else none. */
    private void computeTarget(StreamsGroup group) {
        group.targetAssignment.clear();
        if (group.configuredTopology != null && group.configuredTopology.isReady()) {
            List<StreamsTaskAssignor.Member> members = new ArrayList<>();
            for (StreamsGroupMember member : group.members.values()) {
                members.add(new StreamsTaskAssignor.Member(member.memberId, member.processId,
                        group.targetOf(member.memberId)));
            }
            // The previous targets are read above before they are replaced below.
            Map<String, StreamsTasks> target = StreamsTaskAssignor.assign(members,
                    group.configuredTopology.taskCounts(), group.numStandbyReplicas);
            group.targetAssignment.putAll(target);
        }
        group.assignmentEpoch = group.groupEpoch;
    }

    /**
     * Each member's endpoint with the partitions its tasks read (the subtopology's source and repartition source
     * topics, at the task's partition where the topic has it), as Kafka's EndpointToPartitionsManager.
     */
    private static List<StreamsGroupHeartbeat.EndpointPartitions> endpointPartitions(StreamsGroup group) {
        List<StreamsGroupHeartbeat.EndpointPartitions> endpoints = new ArrayList<>();
        for (StreamsGroupMember member : group.members.values()) {
            if (member.userEndpoint != null) {
                endpoints.add(new StreamsGroupHeartbeat.EndpointPartitions(member.userEndpoint,
                        partitionsOf(group, member.assignedTasks.active()),
                        partitionsOf(group, member.assignedTasks.standby())));
            }
        }
        return endpoints;
    }

    private static Map<String, Set<Integer>> partitionsOf(StreamsGroup group, Map<String, Set<Integer>> tasks) {
        Map<String, Set<Integer>> partitions = new TreeMap<>();
        tasks.forEach((subtopologyId, taskPartitions) -> {
            StreamsTopology.Subtopology subtopology = group.topology.subtopologies().get(subtopologyId);
            if (subtopology == null) {
                return;
            }
            for (String topic : subtopology.inputTopics()) {
                Integer count = group.topicPartitions.get(topic);
                for (int partition : taskPartitions) {
                    if (count != null && partition < count) {
                        partitions.computeIfAbsent(topic, t -> new TreeSet<>()).add(partition);
                    }
                }
            }
        });
        return partitions;
    }

    private static String unknownMember(StreamsGroup group, String memberId) {
        return "Member " + memberId + " is not a member of group " + group.groupId + ".";
    }

    /**
     * Kafka's throwIfStreamsGroupMemberEpochIsInvalid: the member's epoch, or its previous one if the answer that
     * moved it on was lost and it holds just what it was given; any other epoch is fenced. Null if accepted.
     */
    private static String fencedBecause(StreamsGroupMember member, int received, StreamsTasks owned) {
        if (received > member.memberEpoch) {
            return "The streams group member has a greater member epoch (" + received + ") than the one known by the"
                    + " group coordinator (" + member.memberEpoch + "). The member must abandon all its tasks and"
                    + " rejoin.";
        }
        if (received < member.memberEpoch && (received != member.previousMemberEpoch
                || (owned != null && !member.assignedTasks.containsAll(owned)))) {
            return "The streams group member has a smaller member epoch (" + received + ") than the one known by the"
                    + " group coordinator (" + member.memberEpoch + "). The member must abandon all its tasks and"
                    + " rejoin.";
        }
        return null;
    }

    /** Epoch -1: the member leaves; the group epoch moves on, so its tasks go to the others. */
    private StreamsGroupHeartbeat.Response leave(StreamsGroup group, StreamsGroupHeartbeat.Request request) {
        if (request.memberEpoch() == StreamsGroupMember.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
            return StreamsGroupHeartbeat.Response.error(Errors.UNKNOWN_SERVER_ERROR,
                    "Static members are not supported yet.");
        }
        StreamsGroupMember member = group.members.get(request.memberId());
        if (member == null) {
            return StreamsGroupHeartbeat.Response.error(Errors.UNKNOWN_MEMBER_ID,
                    unknownMember(group, request.memberId()));
        }
        removeMember(group, member);
        return new StreamsGroupHeartbeat.Response(Errors.NONE, null, member.memberId,
                StreamsGroupMember.LEAVE_GROUP_MEMBER_EPOCH, 0, List.of(), null, group.endpointInformationEpoch,
                null);
    }

    /** A member leaves, or is fenced: its target goes, and the group epoch moves on (Kafka's streamsGroupFenceMember). */
    private void removeMember(StreamsGroup group, StreamsGroupMember member) {
        timeouts.end(member);
        group.members.remove(member.memberId);
        group.targetAssignment.remove(member.memberId);
        if (Objects.equals(group.shutdownRequestMemberId, member.memberId) && group.members.isEmpty()) {
            group.shutdownRequestMemberId = null;
        }
        group.groupEpoch++;
    }

    /**
     * A classic JoinGroup naming a streams group, on the coordinator's thread: an empty one gives way, its records
     * tombstoned and its commits kept with the id, as Kafka 4.3's classicGroupJoin converts an empty streams group
     * (the answer NONE: the classic membership takes the join); one with members answers
     * INCONSISTENT_GROUP_PROTOCOL, as Kafka answers it.
     */
    CompletableFuture<Errors> yieldToClassic(String groupId) {
        return removal.whenEmpty(groupId, Errors.NONE, Errors.INCONSISTENT_GROUP_PROTOCOL, groups::writeTombstones);
    }

    /**
     * DeleteGroups of a streams group, on the coordinator's thread: refused NON_EMPTY_GROUP while it has members;
     * else it is forgotten and its commits deleted (tombstones), answered once they count.
     */
    CompletableFuture<Errors> delete(String groupId, OffsetStore offsets) {
        return removal.whenEmpty(groupId, Errors.GROUP_ID_NOT_FOUND, Errors.NON_EMPTY_GROUP,
                group -> offsets.deleteGroup(groupId, ConsumerGroupRecords.diff(group.written, Map.of()).keySet()));
    }

    @Override
    public void expired(StreamsGroup group, StreamsGroupMember member, LongSupplier current, long token, String why) {
        thread.run(() -> {
            synchronized (group) {
                if (group.isDead() || group.members.get(member.memberId) != member || current.getAsLong() != token) {
                    return;
                }
                LOG.info("Fencing member {} of streams group {}: its {} expired", member.memberId, group.groupId, why);
                removeMember(group, member);
                groups.write(group).whenComplete((offset, failure) -> {
                    if (failure != null) {
                        LOG.warn("Could not write the fencing of member {} of streams group {}; it is written with the"
                                + " group's next change", member.memberId, group.groupId, failure);
                    }
                });
            }
        });
    }

    /**
     * Serves a group replayed from the offsets topic: its topology is configured against the topics as they are now,
     * while its metadata hash stays the one its record holds (so the next heartbeat configures it again and bumps the
     * epoch if the topics changed since, as Kafka's), and its members' session timeouts, and the rebalance timeouts
     * of those revoking, start afresh, so that they carry on at their epochs.
     */
    void restore(StreamsGroup group) {
        synchronized (group) {
            if (group.topology != null) {
                group.topicPartitions = partitionCounts(group.topology);
                try {
                    group.configuredTopology = StreamsTopologyConfigurer.configure(group.topology,
                            group.topicPartitions::get);
                } catch (StreamsTopologyConfigurer.InvalidTopologyException e) {
                    group.configuredTopology = null; // configured again, and refused, at the next heartbeat
                }
            }
            groups.list(group);
            for (StreamsGroupMember member : group.members.values()) {
                timeouts.heartbeat(group, member, settings.sessionTimeoutMs(group.groupId));
                if (member.state == StreamsGroupMember.State.UNREVOKED_TASKS) {
                    timeouts.revoking(group, member, member.rebalanceTimeoutMs);
                }
            }
        }
    }

    /** Forgets a group whose partition this broker no longer leads; its members' timeouts end. */
    void unload(StreamsGroup group) {
        synchronized (group) {
            group.members.values().forEach(timeouts::end);
            groups.forget(group);
        }
    }

    void bindMetersTo(MeterRegistry registry) {
        timeouts.bindMetersTo(registry);
    }

    void close() throws InterruptedException {
        timeouts.close();
    }
}
