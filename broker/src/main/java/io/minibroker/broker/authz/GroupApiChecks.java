package io.minibroker.broker.authz;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeResponseView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.DeleteGroupsRequestView;
import io.minibroker.protocol.message.view.DeleteGroupsResponseView;
import io.minibroker.protocol.message.view.DescribeGroupsRequestView;
import io.minibroker.protocol.message.view.DescribeGroupsResponseView;
import io.minibroker.protocol.message.view.FindCoordinatorRequestView;
import io.minibroker.protocol.message.view.FindCoordinatorResponseView;
import io.minibroker.protocol.message.view.HeartbeatRequestView;
import io.minibroker.protocol.message.view.StreamsGroupDescribeRequestView;
import io.minibroker.protocol.message.view.StreamsGroupDescribeResponseView;
import io.minibroker.protocol.message.view.StreamsGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.JoinGroupRequestView;
import io.minibroker.protocol.message.view.LeaveGroupRequestView;
import io.minibroker.protocol.message.view.ListGroupsResponseView;
import io.minibroker.protocol.message.view.OffsetCommitRequestView;
import io.minibroker.protocol.message.view.OffsetCommitResponseView;
import io.minibroker.protocol.message.view.OffsetDeleteRequestView;
import io.minibroker.protocol.message.view.OffsetDeleteResponseView;
import io.minibroker.protocol.message.view.SyncGroupRequestView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.stream.Stream;

/**
 * The checks of the group APIs, as Kafka's KafkaApis makes them: the classic membership APIs and
 * ConsumerGroupHeartbeat need READ on the group (the latter DESCRIBE on each subscribed topic too), OffsetCommit READ
 * on the group and each topic, OffsetDelete DELETE on the group and READ on each topic, DescribeGroups and
 * ConsumerGroupDescribe DESCRIBE on each group (the latter hides a group whose assignment names a topic the principal
 * may not describe), ListGroups DESCRIBE on the cluster or lists only the groups it may describe, DeleteGroups
 * DELETE on each group, FindCoordinator DESCRIBE on the group or transactional id. OffsetFetch is in
 * {@link OffsetFetchCheck}.
 */
final class GroupApiChecks {

    private static final byte TRANSACTION_KEY_TYPE = 1;
    private static final byte SHARE_KEY_TYPE = 2;
    /** The first FindCoordinator version with share keys; before it Kafka answers them INVALID_REQUEST. */
    private static final short SHARE_KEYS_FROM_VERSION = 6;
    private static final short BATCHED_FIND_COORDINATOR_VERSION = 4;
    private static final short OFFSET_COMMIT_TOPIC_IDS_FROM_VERSION = 10;
    /** Kafka's message for a described group whose assignments name a topic the principal may not describe. */
    static final String UNAUTHORIZED_ASSIGNMENT =
            "The group has described topic(s) that the client is not authorized to describe.";

    private final TopicFacts topics;

    GroupApiChecks(TopicFacts topics) {
        this.topics = topics;
    }

    private static boolean groupAllowed(Access access, AclOperation operation, String group) {
        return access.allowed(operation, ResourceType.GROUP, group);
    }

    /** JoinGroup, SyncGroup, Heartbeat and LeaveGroup need READ on the group, else GROUP_AUTHORIZATION_FAILED. */
    CompletionStage<Struct> membership(Access access) {
        Request request = access.request();
        String groupId = switch (request.api()) {
            case JOIN_GROUP -> new JoinGroupRequestView(request.body()).groupId();
            case SYNC_GROUP -> new SyncGroupRequestView(request.body()).groupId();
            case HEARTBEAT -> new HeartbeatRequestView(request.body()).groupId();
            default -> new LeaveGroupRequestView(request.body()).groupId();
        };
        return groupAllowed(access, AclOperation.READ, groupId) ? access.serve()
                : access.refuse(Errors.GROUP_AUTHORIZATION_FAILED);
    }

    /**
     * FindCoordinator needs DESCRIBE on the group, or on the transactional id: a refused key is answered
     * GROUP_AUTHORIZATION_FAILED (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), the others as usual. Share-state keys
     * (v6+, what brokers ask) need CLUSTER_ACTION on the cluster, else every key of the request is answered
     * CLUSTER_AUTHORIZATION_FAILED: Kafka's check throws, failing the whole request.
     */
    CompletionStage<Struct> findCoordinator(Access access) {
        Request request = access.request();
        FindCoordinatorRequestView body = new FindCoordinatorRequestView(request.body());
        if (body.keyType() == SHARE_KEY_TYPE && request.version() >= SHARE_KEYS_FROM_VERSION) {
            if (access.allowedOnCluster(AclOperation.CLUSTER_ACTION)) {
                return access.serve();
            }
            Errors refused = Errors.CLUSTER_AUTHORIZATION_FAILED;
            FindCoordinatorResponseView response = new FindCoordinatorResponseView();
            body.coordinatorKeys().forEach(key -> response.addCoordinator().key(key).nodeId(-1).host("").port(-1)
                    .errorCode(refused.code()).errorMessage(Access.message(refused)));
            return Access.answer(response.struct());
        }
        boolean transactional = body.keyType() == TRANSACTION_KEY_TYPE;
        ResourceType type = transactional ? ResourceType.TRANSACTIONAL_ID : ResourceType.GROUP;
        Errors refusal = transactional ? Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
                : Errors.GROUP_AUTHORIZATION_FAILED;
        if (request.version() < BATCHED_FIND_COORDINATOR_VERSION) {
            if (access.allowed(AclOperation.DESCRIBE, type, body.key())) {
                return access.serve();
            }
            return Access.answer(new FindCoordinatorResponseView().errorCode(refusal.code())
                    .errorMessage(Access.message(refusal)).nodeId(-1).host("").port(-1).struct());
        }
        return access.serveAllowed(body.coordinatorKeys(), key -> access.allowed(AclOperation.DESCRIBE, type, key)
                ? null : refusal, body::coordinatorKeys, (answer, refused) -> new FindCoordinatorResponseView(answer)
                .addCoordinator().key(refused.item()).nodeId(-1).host("").port(-1)
                .errorCode(refused.error().code()));
    }

    /**
     * READ on the group, else every partition is answered GROUP_AUTHORIZATION_FAILED; then READ on each topic, else
     * its partitions are answered TOPIC_AUTHORIZATION_FAILED. A topic id this broker does not know is the handler's
     * to answer (UNKNOWN_TOPIC_ID).
     */
    CompletionStage<Struct> offsetCommit(Access access) {
        Request request = access.request();
        OffsetCommitRequestView body = new OffsetCommitRequestView(request.body());
        boolean byId = request.version() >= OFFSET_COMMIT_TOPIC_IDS_FROM_VERSION;
        boolean groupAllowed = groupAllowed(access, AclOperation.READ, body.groupId());
        if (!groupAllowed) {
            OffsetCommitResponseView response = new OffsetCommitResponseView();
            body.topics().forEach(t -> addOffsetCommitErrors(response, t, Errors.GROUP_AUTHORIZATION_FAILED));
            return Access.answer(response.struct());
        }
        return access.serveAllowed(body.topics(), topic -> access.topicRefusal(AclOperation.READ,
                byId ? topics.nameOf(topic.topicId()).orElse(null) : topic.name()), body::topics, (answer, refused) ->
                addOffsetCommitErrors(new OffsetCommitResponseView(answer), refused.item(), refused.error()));
    }

    private static void addOffsetCommitErrors(OffsetCommitResponseView response,
                                              OffsetCommitRequestView.OffsetCommitRequestTopic topic, Errors error) {
        OffsetCommitResponseView.OffsetCommitResponseTopic answered = response.addTopic().name(topic.name())
                .topicId(topic.topicId());
        topic.partitions().forEach(p -> answered.addPartition().partitionIndex(p.partitionIndex())
                .errorCode(error.code()));
    }

    /** DELETE on the group (else GROUP_AUTHORIZATION_FAILED for the request), READ on each topic. */
    CompletionStage<Struct> offsetDelete(Access access) {
        OffsetDeleteRequestView body = new OffsetDeleteRequestView(access.request().body());
        if (!groupAllowed(access, AclOperation.DELETE, body.groupId())) {
            return access.refuse(Errors.GROUP_AUTHORIZATION_FAILED);
        }
        return access.serveAllowed(body.topics(), topic -> access.topicRefusal(AclOperation.READ, topic.name()),
                body::topics, (answer, refused) -> {
                    OffsetDeleteResponseView.OffsetDeleteResponseTopic topic = new OffsetDeleteResponseView(answer)
                            .addTopic().name(refused.item().name());
                    refused.item().partitions().forEach(p -> topic.addPartition().partitionIndex(p.partitionIndex())
                            .errorCode(refused.error().code()));
                });
    }

    /** DESCRIBE on each group; the authorized operations of each described group when asked for (v3+). */
    CompletionStage<Struct> describeGroups(Access access) {
        DescribeGroupsRequestView body = new DescribeGroupsRequestView(access.request().body());
        return access.serveAllowed(body.groups(), group -> groupAllowed(access, AclOperation.DESCRIBE, group) ? null
                : Errors.GROUP_AUTHORIZATION_FAILED, body::groups, (answer, refused) -> new DescribeGroupsResponseView(
                answer).addGroup().groupId(refused.item()).errorCode(refused.error().code()).groupState("")
                .protocolType("").protocolData("")).thenApply(answer -> {
                    access.fillAuthorizedOperations(answer);
                    return answer;
                });
    }

    /** DESCRIBE on the cluster lists every group; without it only the groups the principal may describe. */
    CompletionStage<Struct> listGroups(Access access) {
        if (access.allowedOnCluster(AclOperation.DESCRIBE)) {
            return access.serve();
        }
        return access.serveFiltered(answer -> {
            ListGroupsResponseView response = new ListGroupsResponseView(answer);
            response.groups(response.groups().stream().filter(g -> groupAllowed(access, AclOperation.DESCRIBE,
                    g.groupId())).toList());
        });
    }

    CompletionStage<Struct> deleteGroups(Access access) {
        DeleteGroupsRequestView body = new DeleteGroupsRequestView(access.request().body());
        // The distinct names, as Kafka's KafkaApis authorizes them: a refused group named twice is answered once
        // (group/DeleteGroupsHandler takes them alike; authz may not import group, which reaches it through cluster).
        List<String> groups = body.groupsNames().stream().distinct().toList();
        return access.serveAllowed(groups, group -> groupAllowed(access, AclOperation.DELETE, group) ? null
                : Errors.GROUP_AUTHORIZATION_FAILED, body::groupsNames, (answer, refused) ->
                new DeleteGroupsResponseView(answer).addResult().groupId(refused.item())
                        .errorCode(refused.error().code()));
    }

    CompletionStage<Struct> consumerGroupHeartbeat(Access access) {
        ConsumerGroupHeartbeatRequestView body = new ConsumerGroupHeartbeatRequestView(access.request().body());
        return heartbeat(access, body.groupId(), body.subscribedTopicNames());
    }

    /**
     * A KIP-1071 member's heartbeat, as KafkaApis checks it: READ on the group, and DESCRIBE on every topic a joining
     * member's topology names (source, repartition and changelog topics).
     */
    CompletionStage<Struct> streamsGroupHeartbeat(Access access) {
        StreamsGroupHeartbeatRequestView body = new StreamsGroupHeartbeatRequestView(access.request().body());
        if (body.topology() == null) {
            return heartbeat(access, body.groupId(), null);
        }
        List<String> topics = new ArrayList<>();
        for (StreamsGroupHeartbeatRequestView.Subtopology subtopology : body.topology().subtopologies()) {
            topics.addAll(subtopology.sourceTopics());
            topics.addAll(subtopology.repartitionSinkTopics());
            subtopology.repartitionSourceTopics().forEach(topic -> topics.add(topic.name()));
            subtopology.stateChangelogTopics().forEach(topic -> topics.add(topic.name()));
        }
        return heartbeat(access, body.groupId(), topics);
    }

    /** DESCRIBE on each group, else GROUP_AUTHORIZATION_FAILED for it. */
    CompletionStage<Struct> streamsGroupDescribe(Access access) {
        StreamsGroupDescribeRequestView body = new StreamsGroupDescribeRequestView(access.request().body());
        return access.serveAllowed(body.groupIds(), group -> groupAllowed(access, AclOperation.DESCRIBE, group)
                ? null : Errors.GROUP_AUTHORIZATION_FAILED, body::groupIds, (answer, refused) ->
                new StreamsGroupDescribeResponseView(answer).addGroup().groupId(refused.item())
                        .errorCode(refused.error().code()));
    }

    /**
     * A KIP-848 or KIP-932 member's heartbeat: READ on the group (else GROUP_AUTHORIZATION_FAILED), and DESCRIBE on
     * every subscribed topic named (else TOPIC_AUTHORIZATION_FAILED). The handler is told which topics the member may
     * describe ({@link Access#serveWithTopicRights}): a regular expression's matches leave out the others, as Kafka's
     * group coordinator filters them.
     */
    static CompletionStage<Struct> heartbeat(Access access, String groupId, List<String> subscribed) {
        if (!groupAllowed(access, AclOperation.READ, groupId)) {
            return access.refuse(Errors.GROUP_AUTHORIZATION_FAILED);
        }
        if (subscribed != null && !TopicApiChecks.refusedTopics(access, AclOperation.DESCRIBE, subscribed)
                .isEmpty()) {
            return access.refuse(Errors.TOPIC_AUTHORIZATION_FAILED);
        }
        return access.serveWithTopicRights();
    }

    /**
     * DESCRIBE on each group; a described group whose members' assignments name a topic the principal may not
     * describe is answered TOPIC_AUTHORIZATION_FAILED without its members.
     */
    CompletionStage<Struct> consumerGroupDescribe(Access access) {
        ConsumerGroupDescribeRequestView body = new ConsumerGroupDescribeRequestView(access.request().body());
        return access.serveAllowed(body.groupIds(), group -> groupAllowed(access, AclOperation.DESCRIBE, group)
                ? null : Errors.GROUP_AUTHORIZATION_FAILED, body::groupIds, (answer, refused) ->
                new ConsumerGroupDescribeResponseView(answer).addGroup().groupId(refused.item())
                        .errorCode(refused.error().code())).thenApply(answer -> {
                            access.fillAuthorizedOperations(answer);
                            new ConsumerGroupDescribeResponseView(answer).groups().forEach(group -> {
                                if (group.members().stream().flatMap(m -> Stream.of(m.assignment(),
                                        m.targetAssignment())).flatMap(a -> a.topicPartitions().stream())
                                        .anyMatch(tp -> !access.allowed(AclOperation.DESCRIBE, ResourceType.TOPIC,
                                                tp.topicName()))) {
                                    // Kafka answers a new DescribedGroup: every other field at its default.
                                    group.errorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                                            .errorMessage(UNAUTHORIZED_ASSIGNMENT).groupState("").groupEpoch(0)
                                            .assignmentEpoch(0).assignorName("").members(new ArrayList<>())
                                            .authorizedOperations(Integer.MIN_VALUE);
                                }
                            });
                            return answer;
                        });
    }
}
