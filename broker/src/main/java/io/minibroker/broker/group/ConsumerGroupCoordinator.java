package io.minibroker.broker.group;

import io.minibroker.broker.api.Failures;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * The consumer-protocol (KIP-848) side of the coordinator, Kafka's GroupMetadataManager.consumerGroupHeartbeat:
 * members join, heartbeat and leave through ConsumerGroupHeartbeat; a change of members or of what they subscribe
 * to bumps the group epoch, the target assignment is computed again at that epoch by a server-side assignor
 * ({@link TargetAssignmentBuilder}), and each member reconciles towards its target on its own heartbeats
 * ({@link CurrentAssignmentBuilder}). Members silent for {@code group.consumer.session.timeout.ms}, or too slow to
 * revoke within their rebalance timeout, are fenced ({@link MemberTimeouts}).
 *
 * <p>Every change is written to {@code __consumer_offsets} ({@link ConsumerGroupRecords}) on the coordinator's
 * thread under the group's lock, and the heartbeat is answered once the write counts, as Kafka's runtime answers
 * after its write commits. A write the log refuses at its append (NOT_ENOUGH_REPLICAS, a batch over
 * {@code max.message.bytes}, not the leader) is answered with the write's error and the group is rolled back to
 * its records as last appended ({@link #rollBack}), as Kafka's CoordinatorRuntime, whose failed append reverts its
 * state machine to the snapshot at the last written offset (revertLastWrittenOffset) and fails every write of the
 * batch. Here each change is its own batch, appended before the next change runs, so the failed write is the only
 * one to undo; the writes appended before it stay, counted or not. A write appended but not replicated in time
 * (the write timeout) is answered with its error and rolled back nowhere, as in Kafka: its records are in the log.
 */
final class ConsumerGroupCoordinator implements MemberTimeouts.Expiry<ConsumerGroup, ConsumerGroupMember> {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerGroupCoordinator.class);

    private final ConsumerGroups groups;
    private final ClassicGroups classicGroups;
    private final OffsetsTopic log;
    private final CoordinatorThread thread;
    private final TargetAssignmentBuilder targets;
    private final MemberTimeouts<ConsumerGroup, ConsumerGroupMember> timeouts;
    /** A group's heartbeat interval and session timeout: its group configs, else the broker's keys. */
    private final ConsumerGroupTimings timings;
    private final int maxSize;
    private final ConsumerGroupMigration migration;
    private final EmptyGroupRemoval<ConsumerGroup> removal;
    /** Whether members' rights on topics are checked (an authorizer is configured): they bound their regexes. */
    private final boolean authorizerEnabled;

    ConsumerGroupCoordinator(BrokerConfig config, ConsumerGroups groups, ClassicGroups classicGroups,
                             OffsetsTopic log, CoordinatorThread thread, TopicRegistry topics, TopicHashCache hashes,
                             BrokerClock clock, ClassicGroupCoordinator membership, ConsumerGroupTimings timings) {
        this.groups = groups;
        this.classicGroups = classicGroups;
        this.log = log;
        this.thread = thread;
        this.targets = new TargetAssignmentBuilder(topics, hashes, config.get(BrokerConfig.GROUP_CONSUMER_ASSIGNORS));
        this.timeouts = new MemberTimeouts<>("ConsumerGroupHeartbeat", clock, this);
        this.timings = timings;
        this.maxSize = config.get(BrokerConfig.GROUP_CONSUMER_MAX_SIZE);
        this.authorizerEnabled = config.authorizerEnabled();
        this.migration = new ConsumerGroupMigration(config.get(BrokerConfig.GROUP_CONSUMER_MIGRATION_POLICY), groups,
                membership, topics, this);
        this.removal = new EmptyGroupRemoval<>(thread, classicGroups, groups::get, ConsumerGroup::isDead,
                group -> !group.members.isEmpty(), groups::remove);
    }

    CoordinatorThread thread() {
        return thread;
    }

    /** The consumer group of that id, or null. */
    ConsumerGroup group(String groupId) {
        return groups.get(groupId);
    }

    int maxSize() {
        return maxSize;
    }

    ConsumerGroupMigration migration() {
        return migration;
    }

    TargetAssignmentBuilder targets() {
        return targets;
    }

    // ----------------------------------------------------------------------------------------------- Heartbeat

    /** A heartbeat, validated, then run on the coordinator's thread; answered once its records are written. */
    CompletableFuture<ConsumerGroupHeartbeat.Response> heartbeat(ConsumerGroupHeartbeat.Request request) {
        ConsumerGroupHeartbeat.Response invalid = validate(request);
        if (invalid != null) {
            return CompletableFuture.completedFuture(invalid);
        }
        Errors notHere = classicGroups.coordinatorError(request.groupId());
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(ConsumerGroupHeartbeat.Response.error(notHere, null));
        }
        return thread.compose(() -> heartbeatOnCoordinatorThread(request));
    }

    /** Kafka's throwIfConsumerGroupHeartbeatRequestIsInvalid, with its messages. */
    private ConsumerGroupHeartbeat.Response validate(ConsumerGroupHeartbeat.Request request) {
        String problem = null;
        Errors error = Errors.INVALID_REQUEST;
        if (request.groupId() == null || request.groupId().isEmpty()) {
            problem = "GroupId can't be empty.";
        } else if (request.instanceId() != null && request.instanceId().isEmpty()) {
            problem = "InstanceId can't be empty.";
        } else if (request.rackId() != null && request.rackId().isEmpty()) {
            problem = "RackId can't be empty.";
        } else if (request.version() >= 1 && request.memberId().isEmpty()) {
            problem = "MemberId can't be empty.";
        } else if (request.memberEpoch() > 0 || request.memberEpoch() == ConsumerGroupMember.LEAVE_GROUP_MEMBER_EPOCH) {
            if (request.memberId().isEmpty()) {
                problem = "MemberId can't be empty.";
            }
        } else if (request.memberEpoch() == 0) {
            if (request.rebalanceTimeoutMs() == -1) {
                problem = "RebalanceTimeoutMs must be provided in first request.";
            } else if (request.ownedTopicPartitions() == null || !request.ownedTopicPartitions().isEmpty()) {
                problem = "TopicPartitions must be empty when (re-)joining.";
            } else if (request.subscribedTopicNames() == null && request.subscribedTopicRegex() == null) {
                problem = "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.";
            }
        } else if (request.memberEpoch() == ConsumerGroupMember.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
            if (request.instanceId() == null) {
                problem = "InstanceId can't be null.";
            }
        } else {
            problem = "MemberEpoch is invalid.";
        }
        if (problem == null && request.subscribedTopicRegex() != null && !request.subscribedTopicRegex().isEmpty()
                && !targets.isValidRegex(request.subscribedTopicRegex())) {
            error = Errors.INVALID_REGULAR_EXPRESSION;
            problem = "SubscribedTopicRegex `" + request.subscribedTopicRegex()
                    + "` is not a valid regular expression.";
        }
        if (problem == null && request.serverAssignor() != null && !targets.supports(request.serverAssignor())) {
            error = Errors.UNSUPPORTED_ASSIGNOR;
            problem = "ServerAssignor " + request.serverAssignor() + " is not supported. Supported assignors: "
                    + String.join(", ", targets.assignorNames()) + ".";
        }
        return problem == null ? null : ConsumerGroupHeartbeat.Response.error(error, problem);
    }

    private CompletableFuture<ConsumerGroupHeartbeat.Response> heartbeatOnCoordinatorThread(
            ConsumerGroupHeartbeat.Request request) {
        Errors notHere = classicGroups.coordinatorError(request.groupId()); // it may have moved while queued
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(ConsumerGroupHeartbeat.Response.error(notHere, null));
        }
        boolean leaving = request.memberEpoch() < 0;
        ConsumerGroup group = leaving || request.memberEpoch() > 0 ? groups.get(request.groupId()) : null;
        if (group == null && request.memberEpoch() == 0) {
            String refused = claimFromClassic(request.groupId());
            if (refused != null) {
                return CompletableFuture.completedFuture(
                        ConsumerGroupHeartbeat.Response.error(Errors.GROUP_ID_NOT_FOUND, refused));
            }
            group = groups.getOrCreate(request.groupId());
        }
        if (group == null) {
            return CompletableFuture.completedFuture(ConsumerGroupHeartbeat.Response.error(
                    Errors.GROUP_ID_NOT_FOUND, notAConsumerGroup(request)));
        }
        synchronized (group) {
            if (group.isDead()) { // deleted or unloaded meanwhile: the client retries
                return CompletableFuture.completedFuture(
                        ConsumerGroupHeartbeat.Response.error(Errors.COORDINATOR_NOT_AVAILABLE, null));
            }
            ConsumerGroupHeartbeat.Response response = leaving ? leave(group, request) : heartbeat(group, request);
            if (response.error() != Errors.NONE || group.isDead()) { // dead: downgraded, its records written
                return CompletableFuture.completedFuture(response);
            }
            return write(group, group.members.get(response.memberId())).handle((written, failure) -> failure == null
                    ? response
                    : ConsumerGroupHeartbeat.Response.error(CoordinatorWriteErrors.answerFor(failure), null));
        }
    }

    /**
     * Why a heartbeat or leave (epoch other than 0) finds no consumer group, in Kafka's words (consumerGroup for a
     * leave, getOrMaybeCreateConsumerGroup for a heartbeat): such a member cannot be in the group, and the client
     * learns the group is gone (or of another type) rather than that it was removed from it.
     */
    private String notAConsumerGroup(ConsumerGroupHeartbeat.Request request) {
        if (classicGroups.get(request.groupId()) != null) {
            return "Group " + request.groupId() + " is not a consumer group";
        }
        return request.memberEpoch() < 0 ? "Group " + request.groupId() + " not found."
                : "Consumer group " + request.groupId() + " not found.";
    }

    /**
     * A consumer-protocol member asking for an id that names a classic group: an empty one (commits only, or left
     * by its members) becomes a consumer group, as Kafka converts it; one with members is upgraded online
     * ({@link ConsumerGroupMigration#upgrade}) if {@code group.consumer.migration.policy} allows it and its members
     * speak the consumer protocol, else the member is refused GROUP_ID_NOT_FOUND, as Kafka refuses it. Returns the
     * refusal, or null.
     */
    private String claimFromClassic(String groupId) {
        ClassicGroup classic = classicGroups.get(groupId);
        if (classic == null) {
            return null;
        }
        synchronized (classic) {
            if (classic.members.isEmpty()) { // Empty, whatever joins are still pending (they are told to rejoin)
                if (classic.state() != GroupState.DEAD) {
                    migration.releaseEmpty(classic);
                }
                return null;
            }
            return migration.upgrade(classic, maxSize);
        }
    }

    /** A member joining (epoch 0) or heartbeating (its epoch); the caller holds the group's lock. */
    private ConsumerGroupHeartbeat.Response heartbeat(ConsumerGroup group, ConsumerGroupHeartbeat.Request request) {
        boolean joining = request.memberEpoch() == 0;
        ConsumerGroupMember member;
        boolean bump = false;
        if (joining) {
            JoinOutcome joined = join(group, request);
            if (joined.refusal() != null) {
                return joined.refusal();
            }
            member = joined.member();
            bump = joined.isNew();
        } else {
            Sender sender = sender(group, request);
            if (sender.refusal() != null) {
                return sender.refusal();
            }
            member = sender.member();
            if (member.leftTemporarily()) {
                return unknownMember(group, request);
            }
            Errors fenced = checkEpoch(member, request);
            if (fenced != Errors.NONE) {
                return ConsumerGroupHeartbeat.Response.error(fenced, "The consumer group member has a "
                        + (request.memberEpoch() > member.memberEpoch ? "greater" : "smaller") + " member epoch ("
                        + request.memberEpoch() + ") than the one known by the group coordinator ("
                        + member.memberEpoch + "). The member must abandon all its partitions and rejoin.");
            }
        }
        int epochBefore = member.memberEpoch;
        Map<UUID, Set<Integer>> assignedBefore = member.assignedPartitions;
        Map<UUID, Set<Integer>> revokingBefore = member.partitionsPendingRevocation;
        bump |= updateSubscription(member, request);
        reconcile(group, member, bump, request.ownedTopicPartitions());
        // A full request (what a member sends after an error, its state possibly lost) is answered with the whole
        // assignment: Kafka tells one by its non-optional fields, the subscription by names or by regex.
        boolean fullRequest = joining || (request.rebalanceTimeoutMs() != -1
                && (request.subscribedTopicNames() != null || request.subscribedTopicRegex() != null)
                && request.ownedTopicPartitions() != null);
        boolean changed = member.memberEpoch != epochBefore || !member.assignedPartitions.equals(assignedBefore)
                || !member.partitionsPendingRevocation.equals(revokingBefore);
        return new ConsumerGroupHeartbeat.Response(Errors.NONE, null, member.memberId, member.memberEpoch,
                timings.consumerHeartbeatIntervalMs(group.groupId),
                changed || fullRequest ? member.assignedPartitions : null);
    }

    /**
     * What follows a member's heartbeat or (classic) join, whichever protocol it speaks: the group epoch moves on if
     * {@code bump} or the subscribed topics' {@link MetadataHash} is not the group's (Kafka's
     * updateSubscriptionMetadata: the topics changed since the epoch was last bumped for them, here or, the hash being
     * read back with the group, before this coordinator loaded it), the target is computed again if it is behind, and
     * the member reconciles towards its target given the partitions it reports owning (null: not reported); its
     * session and, if it has partitions to revoke, its rebalance timeout start again. The caller holds the group's
     * lock.
     */
    void reconcile(ConsumerGroup group, ConsumerGroupMember member, boolean bump, Map<UUID, Set<Integer>> owned) {
        Map<String, Set<String>> regexTopics = targets.resolveRegexes(group);
        if (updateSubscriptionMetadata(group, regexTopics)) {
            bump = true;
        }
        if (bump) {
            group.groupEpoch++;
        }
        if (group.groupEpoch > group.assignmentEpoch) {
            targets.computeTarget(group, regexTopics);
        }
        long revocation = member.revocationToken;
        CurrentAssignmentBuilder.reconcile(member, group.assignmentEpoch, group.targetOf(member.memberId),
                group.owners(), owned);
        if (member.state == MemberState.UNREVOKED_PARTITIONS && member.revocationToken != revocation) {
            timeouts.revoking(group, member, member.rebalanceTimeoutMs);
        }
        sessionAlive(group, member);
    }

    /**
     * Looks the subscribed topics up (again, if they or the subscriptions changed) and takes their hash as the
     * group's; whether it differs from the one the group had. The caller holds the group's lock.
     */
    private boolean updateSubscriptionMetadata(ConsumerGroup group, Map<String, Set<String>> regexTopics) {
        group.subscriptionMetadata = targets.subscriptionMetadata(group, regexTopics);
        long hash = MetadataHash.ofGroup(group.subscriptionMetadata.values());
        boolean changed = hash != group.metadataHash;
        group.metadataHash = hash;
        return changed;
    }

    /** Starts the member's session timeout again: a classic-protocol member's own, else the group config's. */
    void sessionAlive(ConsumerGroup group, ConsumerGroupMember member) {
        timeouts.heartbeat(group, member,
                member.usesClassicProtocol() ? member.classic.sessionTimeoutMs()
                        : timings.consumerSessionTimeoutMs(group.groupId));
    }

    private record JoinOutcome(ConsumerGroupMember member, boolean isNew, ConsumerGroupHeartbeat.Response refusal) {
    }

    /**
     * A member joining with epoch 0: a new member (a v0 client gets its id from here), one rejoining under its id,
     * or a static member coming back under its instance id (it takes over the member that left with epoch -2 and
     * its partitions, without a rebalance, from epoch 0). A consumer-protocol instance that has not left is not
     * released to another member id; a classic-protocol one (a member moving to the consumer protocol with its
     * group.instance.id, which cannot leave with epoch -2) is taken over at once. The holder itself rejoining under
     * its own id (a Java client does after FENCED_MEMBER_EPOCH or a lost answer) is the existing member: Kafka 4.3
     * answers it UNRELEASED_INSTANCE_ID, which the client treats as fatal (fixed by apache/kafka#23542).
     */
    private JoinOutcome join(ConsumerGroup group, ConsumerGroupHeartbeat.Request request) {
        String memberId = request.memberId().isEmpty() ? UUID.randomUUID().toString() : request.memberId();
        ConsumerGroupMember existing = group.members.get(memberId);
        if (request.instanceId() != null) {
            ConsumerGroupMember previous = group.staticMember(request.instanceId());
            if (previous != null && !previous.memberId.equals(memberId) && !previous.usesClassicProtocol()
                    && !previous.leftTemporarily()) {
                return new JoinOutcome(null, false, ConsumerGroupHeartbeat.Response.error(
                        Errors.UNRELEASED_INSTANCE_ID, "Static member " + memberId + " with instance id "
                                + request.instanceId() + " cannot join the group because the instance id is"
                                + " owned by " + previous.memberId + " member."));
            }
            if (previous != null && !previous.memberId.equals(memberId)) {
                ConsumerGroupMember replacement = replaceStaticMember(group, previous, memberId);
                // As Kafka's getOrMaybeSubscribeStaticConsumerGroupMember: the new member id starts at epoch 0 with
                // the partitions it takes over, and this heartbeat reconciles it from there: to the target epoch,
                // or kept at 0 while it revokes what the target moved elsewhere meanwhile.
                replacement.memberEpoch = 0;
                replacement.previousMemberEpoch = 0;
                return new JoinOutcome(replacement, false, null);
            }
        }
        if (existing != null) {
            return new JoinOutcome(existing, false, null);
        }
        if (group.members.size() >= maxSize) {
            return new JoinOutcome(null, false, ConsumerGroupHeartbeat.Response.error(Errors.GROUP_MAX_SIZE_REACHED,
                    "The consumer group has reached its maximum capacity of " + maxSize + " members."));
        }
        ConsumerGroupMember member = new ConsumerGroupMember(memberId);
        member.instanceId = request.instanceId();
        group.add(member);
        return new JoinOutcome(member, true, null);
    }

    /**
     * Kafka's epoch check: the member's current epoch, or its previous one if the answer that moved it on was lost
     * (it then owns nothing beyond what it is assigned); anything else is FENCED_MEMBER_EPOCH.
     */
    private static Errors checkEpoch(ConsumerGroupMember member, ConsumerGroupHeartbeat.Request request) {
        int received = request.memberEpoch();
        if (received == member.memberEpoch) {
            return Errors.NONE;
        }
        if (received < member.memberEpoch && received == member.previousMemberEpoch
                && request.ownedTopicPartitions() != null
                && TopicAssignment.containsAll(member.assignedPartitions, request.ownedTopicPartitions())) {
            return Errors.NONE;
        }
        return Errors.FENCED_MEMBER_EPOCH;
    }

    /** Takes what the heartbeat says of the member; whether its subscription or assignor changed (an epoch bump). */
    private static boolean updateSubscription(ConsumerGroupMember member, ConsumerGroupHeartbeat.Request request) {
        boolean changed = false;
        member.describableTopics = request.describableTopics();
        if (request.subscribedTopicNames() != null) {
            List<String> names = request.subscribedTopicNames().stream().distinct().sorted().toList();
            changed |= !names.equals(member.subscribedTopicNames);
            member.subscribedTopicNames = names;
        }
        if (request.subscribedTopicRegex() != null) {
            String regex = request.subscribedTopicRegex().isEmpty() ? null : request.subscribedTopicRegex();
            changed |= !Objects.equals(regex, member.subscribedTopicRegex);
            member.subscribedTopicRegex = regex;
        }
        if (request.serverAssignor() != null) {
            changed |= !request.serverAssignor().equals(member.serverAssignor);
            member.serverAssignor = request.serverAssignor();
        }
        if (request.rackId() != null) {
            member.rackId = request.rackId();
        }
        if (request.rebalanceTimeoutMs() != -1) {
            member.rebalanceTimeoutMs = request.rebalanceTimeoutMs();
        }
        member.clientId = request.clientId();
        member.clientHost = request.clientHost();
        return changed;
    }

    /**
     * Epoch -1: the member leaves for good (the group epoch moves on and its partitions go to the others). Epoch
     * -2: a static member leaves for now, keeping its partitions for its instance id until its session runs out.
     */
    private ConsumerGroupHeartbeat.Response leave(ConsumerGroup group, ConsumerGroupHeartbeat.Request request) {
        Sender sender = sender(group, request);
        if (sender.refusal() != null) {
            return sender.refusal();
        }
        ConsumerGroupMember member = sender.member();
        if (request.memberEpoch() == ConsumerGroupMember.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
            if (!member.leftTemporarily()) {
                member.previousMemberEpoch = member.memberEpoch;
                member.memberEpoch = ConsumerGroupMember.LEAVE_GROUP_STATIC_MEMBER_EPOCH;
                // As Kafka's consumerGroupStaticMemberGroupLeave: what it was revoking is released now, so that
                // the others need not wait for its timeouts to take those partitions; so ends that revocation.
                member.partitionsPendingRevocation = TopicAssignment.EMPTY;
                member.revocationToken++;
                // And, as Kafka's resetAssignedPartitionsEpochsToZero, what it keeps counts as held since epoch 0:
                // the instance's next process may commit at any older epoch for it.
                member.resetAssignmentEpochsToZero();
            }
            timeouts.heartbeat(group, member, timings.consumerSessionTimeoutMs(group.groupId));
        } else {
            if (!migration.downgradeWithout(group, member)) {
                removeMember(group, member);
            }
        }
        return new ConsumerGroupHeartbeat.Response(Errors.NONE, null, request.memberId(), request.memberEpoch(), 0,
                null);
    }

    /**
     * A static member's new member id takes the place of the member that held its instance id (whichever protocol
     * either speaks): its epoch, its subscription and its partitions, so no rebalance is needed. The caller holds
     * the group's lock.
     */
    ConsumerGroupMember replaceStaticMember(ConsumerGroup group, ConsumerGroupMember previous, String memberId) {
        ConsumerGroupMember replacement = new ConsumerGroupMember(memberId);
        replacement.instanceId = previous.instanceId;
        // The epoch it held: before leaving with -2, or a classic-protocol member's current one.
        int epoch = previous.leftTemporarily() ? previous.previousMemberEpoch : previous.memberEpoch;
        replacement.memberEpoch = epoch;
        replacement.previousMemberEpoch = epoch;
        replacement.state = previous.state;
        replacement.assignedPartitions = previous.assignedPartitions;
        replacement.partitionsPendingRevocation = previous.partitionsPendingRevocation;
        replacement.assignmentEpochs = previous.assignmentEpochs;
        replacement.subscribedTopicNames = previous.subscribedTopicNames;
        replacement.subscribedTopicRegex = previous.subscribedTopicRegex;
        replacement.serverAssignor = previous.serverAssignor;
        replacement.rackId = previous.rackId;
        endTimeouts(previous);
        Map<UUID, Set<Integer>> target = group.targetOf(previous.memberId);
        group.remove(previous.memberId);
        group.add(replacement);
        group.targetAssignment.put(memberId, target);
        return replacement;
    }

    /** The member a heartbeat or leave (epoch other than 0) comes from, or why there is none. */
    private record Sender(ConsumerGroupMember member, ConsumerGroupHeartbeat.Response refusal) {
    }

    /**
     * As Kafka, a request naming an instance id comes from the member that holds the instance id: an unknown
     * instance is UNKNOWN_MEMBER_ID, one held by another member id (a newer process took it over)
     * FENCED_INSTANCE_ID. Without an instance id, the member of that id.
     */
    private static Sender sender(ConsumerGroup group, ConsumerGroupHeartbeat.Request request) {
        if (request.instanceId() == null) {
            ConsumerGroupMember member = group.members.get(request.memberId());
            return new Sender(member, member == null ? unknownMember(group, request) : null);
        }
        ConsumerGroupMember member = group.staticMember(request.instanceId());
        return switch (ConsumerGroup.holderCheck(member, request.memberId())) {
            case UNKNOWN_MEMBER_ID -> new Sender(null, ConsumerGroupHeartbeat.Response.error(Errors.UNKNOWN_MEMBER_ID,
                    "Instance id " + request.instanceId() + " is unknown."));
            case FENCED_INSTANCE_ID -> new Sender(null, ConsumerGroupHeartbeat.Response.error(
                    Errors.FENCED_INSTANCE_ID, "Static member " + request.memberId() + " with instance id "
                            + request.instanceId() + " was fenced by member " + member.memberId + "."));
            default -> new Sender(member, null);
        };
    }

    private static ConsumerGroupHeartbeat.Response unknownMember(ConsumerGroup group,
                                                                 ConsumerGroupHeartbeat.Request request) {
        return ConsumerGroupHeartbeat.Response.error(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId()
                + " is not a member of group " + group.groupId + ".");
    }

    /** Removes a member; the group epoch moves on, so the others get its partitions. */
    void removeMember(ConsumerGroup group, ConsumerGroupMember member) {
        removeMembers(group, List.of(member));
    }

    /**
     * Removes members at once (a batched LeaveGroup): the group epoch moves on once, as Kafka fences them, with the
     * hash of what the members left subscribe to (Kafka's consumerGroupFenceMembers writes it with the epoch), so
     * that the next heartbeat does not bump the epoch again for the topics only the removed members had.
     */
    void removeMembers(ConsumerGroup group, List<ConsumerGroupMember> members) {
        for (ConsumerGroupMember member : members) {
            endTimeouts(member);
            group.remove(member.memberId);
        }
        updateSubscriptionMetadata(group, targets.resolveRegexes(group));
        group.groupEpoch++;
    }

    // ----------------------------------------------------------------------------------------------- Timeouts

    /**
     * A timeout ran out: the session's, the revocation's (only watched while the member revokes: every move out of
     * UNREVOKED_PARTITIONS bumps its token), or a classic-protocol member's join or sync timeout.
     */
    @Override
    public void expired(ConsumerGroup group, ConsumerGroupMember member, LongSupplier current, long token,
                        String why) {
        fenceIf(group, member, "its " + why + " ran out", () -> current.getAsLong() == token);
    }

    /**
     * A classic-protocol member's join was written (Kafka's consumer-group join and sync timers): the join timeout
     * ends, and the sync timeout starts (again) with the join's rebalance timeout, until its SyncGroup. The caller
     * holds the group's lock.
     */
    void classicJoined(ConsumerGroup group, ConsumerGroupMember member, int rebalanceTimeoutMs) {
        member.joinToken++;
        member.awaitingRejoin = false;
        long token = ++member.syncToken;
        timeouts.recheck(member);
        timeouts.watch(group, member, rebalanceTimeoutMs, () -> member.syncToken, token, "sync timeout");
    }

    /** A classic-protocol member's SyncGroup succeeded: its sync timeout ends. The caller holds the group's lock. */
    void classicSynced(ConsumerGroupMember member) {
        member.syncToken++;
        timeouts.recheck(member);
    }

    /**
     * A classic-protocol member told REBALANCE_IN_PROGRESS: its join timeout starts with its rebalance timeout,
     * unless one runs already (timed from the first telling, Kafka's IfAbsent). The caller holds the group's lock.
     */
    void classicMustRejoin(ConsumerGroup group, ConsumerGroupMember member) {
        if (member.awaitingRejoin) {
            return;
        }
        member.awaitingRejoin = true;
        timeouts.watch(group, member, member.rebalanceTimeoutMs, () -> member.joinToken, member.joinToken,
                "join timeout");
    }

    /** Ends every timeout of the member, a classic-protocol member's join and sync timeouts too: it left or went. */
    private void endTimeouts(ConsumerGroupMember member) {
        member.joinToken++;
        member.syncToken++;
        member.awaitingRejoin = false;
        timeouts.end(member);
    }

    /**
     * Fences a member whose timeout ran out, on the coordinator's thread, if nothing superseded it meanwhile. Logged,
     * as Kafka logs its fences: the member's client learns of it only from the error its next request gets.
     */
    private void fenceIf(ConsumerGroup group, ConsumerGroupMember member, String why,
                         java.util.function.BooleanSupplier still) {
        thread.run(() -> {
            synchronized (group) {
                if (group.isDead() || group.members.get(member.memberId) != member || !still.getAsBoolean()) {
                    return;
                }
                LOG.info("Group {}: member {} (epoch {}) fenced, {}", group.groupId, member.memberId,
                        member.memberEpoch, why);
                if (!migration.downgradeWithout(group, member)) {
                    removeMember(group, member);
                    if (write(group).isCompletedExceptionally()) { // refused at its append: rolled back
                        timeouts.retryRemoval(group, group.members.get(member.memberId));
                    }
                }
            }
        });
    }

    // -------------------------------------------------------------------------------------------- Persistence

    /**
     * Writes what changed in the group since its last write, as one batch; the caller holds the group's lock, on the
     * coordinator's thread. Completes when the write counts.
     */
    CompletableFuture<Long> write(ConsumerGroup group) {
        Map<ByteBuffer, byte[]> now = ConsumerGroupRecords.snapshot(group);
        boolean replacesClassic = group.replacesClassicGroup;
        // upgraded: the classic group's metadata goes in the same batch (Kafka's tombstone)
        Map<ByteBuffer, byte[]> changes = ConsumerGroupRecords.replacedClassicMetadata(group);
        changes.putAll(ConsumerGroupRecords.diff(group.written, now));
        return append(group, changes, () -> {
            group.written = now;
            group.replacesClassicGroup &= !replacesClassic;
        });
    }

    /**
     * As {@link #write(ConsumerGroup)}, after a change that may touch only {@code member} (null: gone): while the
     * group's epochs and members are as last written, only that member's records are built and compared, not
     * every member's (three records each, encoded on every heartbeat). Otherwise, the whole group.
     */
    CompletableFuture<Long> write(ConsumerGroup group, ConsumerGroupMember member) {
        if (member == null || group.replacesClassicGroup) {
            return write(group);
        }
        Map<ByteBuffer, byte[]> changes = GroupRecordChanges.ofOneMember(group.written,
                ConsumerGroupRecords.recordCount(group.members.size()),
                ConsumerGroupRecords.snapshot(group, List.of(member)), ConsumerGroupRecords::isMemberRecord);
        return changes != null ? append(group, changes, () -> group.written.putAll(changes)) : write(group);
    }

    /**
     * Appends the group's changed records as one batch; the caller holds the group's lock. Once appended,
     * {@code appended} takes them as written (Kafka's last written offset: what the next write is diffed against,
     * and what a refused one is rolled back to), whether or not they come to count; refused at the append, the
     * group is rolled back.
     */
    private CompletableFuture<Long> append(ConsumerGroup group, Map<ByteBuffer, byte[]> changes, Runnable appended) {
        return log.appendOrRollBack(group.groupId, changes, appended, () -> rollBack(group));
    }

    /**
     * Puts the group back as its records last appended give it ({@link ConsumerGroup#written}), what a load of the
     * log would give: a member whose join was refused is no member, an epoch whose bump was refused is not bumped, a
     * member whose leave or fencing was refused is back (a fencing is tried again soon:
     * {@link MemberTimeouts#retryRemoval}). A member its records leave as it is keeps its timeouts; one the rollback
     * changes or brings back gets fresh ones, as a load gives them; one it drops has them ended. A group
     * none of whose records was written is forgotten, as Kafka's would never have been; but one that took a classic
     * group's id keeps its change, written with its next one, as before: Kafka's rollback would bring the classic
     * group back, which is gone from memory here. The caller holds the group's lock.
     */
    private void rollBack(ConsumerGroup group) {
        ConsumerGroup before = ConsumerGroupRecords.rebuild(group.groupId, group.written);
        if (before == null) {
            if (!group.replacesClassicGroup) {
                unload(group);
            }
            return;
        }
        List<ConsumerGroupMember> members = RolledBackMembers.of(group.members, before.members,
                member -> ConsumerGroupRecords.isAsWritten(group, member), (now, member) -> {
                    if (now != null) {
                        endTimeouts(now);
                        member.describableTopics = now.describableTopics;
                    } else if (authorizerEnabled) { // its rights as a load gives them (see restore)
                        member.describableTopics = targets.heldTopics(before, member);
                    }
                    startTimeouts(group, member);
                }, this::endTimeouts);
        group.members.clear();
        group.staticMembers.clear();
        members.forEach(group::add);
        group.targetAssignment.clear();
        group.targetAssignment.putAll(before.targetAssignment);
        group.groupEpoch = before.groupEpoch;
        group.assignmentEpoch = before.assignmentEpoch;
        group.metadataHash = before.metadataHash;
        group.subscriptionMetadata = targets.subscriptionMetadata(group, targets.resolveRegexes(group));
        LOG.info("Group {}: a refused write rolled back, to group epoch {}", group.groupId, group.groupEpoch);
    }

    /**
     * DeleteGroups of a consumer group, on the coordinator's thread: NON_EMPTY_GROUP while it has members; else
     * tombstones for its commits and its records, in one batch as Kafka writes them (a crash cannot leave one
     * without the other), and it is forgotten; answered once the write counts.
     */
    CompletableFuture<Errors> delete(String groupId, OffsetStore offsets) {
        return removal.whenEmpty(groupId, Errors.GROUP_ID_NOT_FOUND, Errors.NON_EMPTY_GROUP,
                group -> offsets.deleteGroup(groupId, ConsumerGroupRecords.tombstones(group).keySet()));
    }

    /**
     * A classic JoinGroup naming a consumer group: an empty one gives way, as Kafka converts an empty consumer group
     * to a classic one (its records are tombstoned, its commits stay with the id), and the join goes on (NONE);
     * one with members answers INCONSISTENT_GROUP_PROTOCOL, which {@link ClassicMembersOfConsumerGroups} takes as
     * "take the member in" (a mixed group).
     */
    CompletableFuture<Errors> yieldToClassic(String groupId) {
        return removal.whenEmpty(groupId, Errors.NONE, Errors.INCONSISTENT_GROUP_PROTOCOL, this::writeTombstones);
    }

    /** Tombstones for every record the group wrote ({@link ConsumerGroupRecords#tombstones}); under its lock. */
    private CompletableFuture<Long> writeTombstones(ConsumerGroup group) {
        return log.writeIfAny(group.groupId, ConsumerGroupRecords.tombstones(group));
    }

    // ---------------------------------------------------------------------------------------- Loads, unloads

    /** A group replayed from the offsets topic: listed again, its members' sessions started afresh. */
    void restore(ConsumerGroup group) {
        synchronized (group) {
            ClassicGroup classic = classicGroups.get(group.groupId);
            if (classic != null) { // a group id names one group; the consumer group's records came later
                synchronized (classic) {
                    classicGroups.remove(classic);
                }
            }
            // A member's rights on topics are not in the records (Kafka keeps each regex's resolved topics, resolved
            // with the rights of the member that asked, in its ConsumerGroupRegularExpression records): until its
            // next heartbeat tells them again, a member's regex matches no topic beyond those it holds, so that no
            // assignment computed meanwhile widens past what its principal may describe.
            if (authorizerEnabled) {
                for (ConsumerGroupMember member : group.allMembers()) {
                    member.describableTopics = targets.heldTopics(group, member);
                }
            }
            // The topics as they are now, for the commits checked before the next heartbeat; the group's metadata
            // hash stays the one its record holds, so that this heartbeat bumps the epoch if they changed since (as
            // Kafka, whose loaded group's metadata has expired: its first heartbeat computes the hash again).
            group.subscriptionMetadata = targets.subscriptionMetadata(group,
                    targets.resolveRegexes(group));
            groups.restored(group);
            for (ConsumerGroupMember member : group.allMembers()) {
                startTimeouts(group, member);
            }
        }
    }

    /** A member as loaded: its session starts afresh, and its rebalance timeout if it is revoking. */
    private void startTimeouts(ConsumerGroup group, ConsumerGroupMember member) {
        sessionAlive(group, member);
        if (member.state == MemberState.UNREVOKED_PARTITIONS) {
            timeouts.revoking(group, member, member.rebalanceTimeoutMs);
        }
    }

    /**
     * Downgraded (Kafka's convertToClassicGroup): in one batch, tombstones for the consumer group's records and the
     * classic group's metadata; the consumer group is forgotten, its members' timeouts end. The caller holds its
     * lock, on the coordinator's thread; a failed write is logged, the classic group goes on in memory.
     */
    void replaceWithClassic(ConsumerGroup group, GroupMetadataRecord.StoredGroup classic) {
        Map<ByteBuffer, byte[]> records = new LinkedHashMap<>(ConsumerGroupRecords.diff(group.written,
                Map.of()));
        records.put(ByteBuffer.wrap(GroupMetadataRecord.key(group.groupId)), GroupMetadataRecord.value(classic));
        group.allMembers().forEach(this::endTimeouts);
        groups.remove(group);
        try {
            log.writeRecords(group.groupId, records).exceptionally(failure -> {
                LOG.warn("Could not write the downgrade of group {}: {}", group.groupId,
                        Failures.cause(failure).toString());
                return -1L;
            });
        } catch (LogException e) {
            LOG.warn("Could not write the downgrade of group {}: {}", group.groupId, e.getMessage());
        }
    }

    /** Forgets a group whose partition this broker no longer leads; its members' timeouts end. */
    void unload(ConsumerGroup group) {
        synchronized (group) {
            group.allMembers().forEach(this::endTimeouts);
            groups.remove(group);
        }
    }

    void bindMetersTo(MeterRegistry registry) {
        timeouts.bindMetersTo(registry);
    }

    void close() throws InterruptedException {
        timeouts.close();
    }
}
