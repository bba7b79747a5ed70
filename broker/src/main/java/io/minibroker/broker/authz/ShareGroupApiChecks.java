package io.minibroker.broker.authz;

import io.minibroker.broker.share.ShareMemberIds;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.AlterShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.AlterShareGroupOffsetsResponseView;
import io.minibroker.protocol.message.view.DeleteShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.DeleteShareGroupOffsetsResponseView;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsRequestView.DescribeShareGroupOffsetsRequestGroup;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsRequestView.DescribeShareGroupOffsetsRequestTopic;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsResponseView;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsResponseView.DescribeShareGroupOffsetsResponseGroup;
import io.minibroker.protocol.message.view.ShareAcknowledgeRequestView;
import io.minibroker.protocol.message.view.ShareAcknowledgeResponseView;
import io.minibroker.protocol.message.view.ShareFetchRequestView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.minibroker.protocol.message.view.ShareGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ShareGroupDescribeResponseView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatRequestView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/**
 * The checks of the KIP-932 share-group APIs, as Kafka's KafkaApis makes them: ShareGroupHeartbeat needs READ on the
 * group and DESCRIBE on each subscribed topic; ShareGroupDescribe DESCRIBE on each group (hiding a group whose
 * assignments name a topic the principal may not describe); ShareFetch and ShareAcknowledge READ on the group (else
 * the whole request is refused) and READ on each topic (else its partitions are answered
 * TOPIC_AUTHORIZATION_FAILED); DescribeShareGroupOffsets DESCRIBE on each group and topic; AlterShareGroupOffsets
 * READ on the group and each topic; DeleteShareGroupOffsets DELETE on the group and READ on each topic.
 */
final class ShareGroupApiChecks {

    /** The share session epoch of a request that opens a session. */
    private static final int OPENING_EPOCH = 0;

    private final TopicFacts topics;

    ShareGroupApiChecks(TopicFacts topics) {
        this.topics = topics;
    }

    private static boolean groupAllowed(Access access, AclOperation operation, String group) {
        return access.allowed(operation, ResourceType.GROUP, group);
    }

    private static boolean topicAllowed(Access access, AclOperation operation, String topic) {
        return access.allowed(operation, ResourceType.TOPIC, topic);
    }

    /**
     * As a KIP-848 member's heartbeat, but as Kafka's KafkaApis checks a share member's: a member id it does not take
     * ({@link ShareMemberIds}) is INVALID_REQUEST once the group's READ is allowed, before the topics' DESCRIBE. The
     * member id is looked at first, so that a valid one (every heartbeat but a broken client's) asks the authorizer
     * for the group once, in {@link GroupApiChecks#heartbeat}; an invalid one whose group is refused is answered
     * GROUP_AUTHORIZATION_FAILED there, as Kafka answers it.
     */
    CompletionStage<Struct> heartbeat(Access access) {
        ShareGroupHeartbeatRequestView body = new ShareGroupHeartbeatRequestView(access.request().body());
        if (!ShareMemberIds.isValid(body.memberId()) && groupAllowed(access, AclOperation.READ, body.groupId())) {
            return access.refuse(Errors.INVALID_REQUEST);
        }
        return GroupApiChecks.heartbeat(access, body.groupId(), body.subscribedTopicNames());
    }

    /**
     * DESCRIBE on each group; a described group whose members' assignments name a topic the principal may not
     * describe is answered TOPIC_AUTHORIZATION_FAILED without its members. The refused groups come first, as Kafka
     * answers them before it asks its coordinator for the others.
     */
    CompletionStage<Struct> describe(Access access) {
        ShareGroupDescribeRequestView body = new ShareGroupDescribeRequestView(access.request().body());
        return access.serveAllowed(body.groupIds(), group -> groupAllowed(access, AclOperation.DESCRIBE, group)
                ? null : Errors.GROUP_AUTHORIZATION_FAILED, body::groupIds, (answer, refused) ->
                new ShareGroupDescribeResponseView(answer).addGroup().groupId(refused.item())
                        .errorCode(refused.error().code()), false, Access.Placement.refusedFirst(
                                answer -> new ShareGroupDescribeResponseView(answer).groups(),
                                (answer, groups) -> new ShareGroupDescribeResponseView(answer).groups(groups)))
                .thenApply(answer -> {
                    access.fillAuthorizedOperations(answer);
                    new ShareGroupDescribeResponseView(answer).groups().forEach(group -> {
                        if (group.members().stream().flatMap(m -> m.assignment().topicPartitions().stream())
                                .anyMatch(tp -> !topicAllowed(access, AclOperation.DESCRIBE, tp.topicName()))) {
                            // Kafka answers a new DescribedGroup: every other field at its default.
                            group.errorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                                    .errorMessage(GroupApiChecks.UNAUTHORIZED_ASSIGNMENT).groupState("")
                                    .groupEpoch(0).assignmentEpoch(0).assignorName("")
                                    .members(new ArrayList<>()).authorizedOperations(Integer.MIN_VALUE);
                        }
                    });
                    return answer;
                });
    }

    /** READ on a topic named by id; an id this broker does not know is the handler's to answer (UNKNOWN_TOPIC_ID). */
    private Errors readById(Access access, UUID topicId) {
        return access.topicRefusal(AclOperation.READ, topics.nameOf(topicId).orElse(null));
    }

    /**
     * READ on the group, else the request is refused GROUP_AUTHORIZATION_FAILED; READ on each topic, else its
     * partitions are answered TOPIC_AUTHORIZATION_FAILED, and so are the acknowledgements they carried, which are not
     * applied. As Kafka's share session does, a refused partition still joins the session (Kafka authorizes after
     * it builds the session's context): the handler, told what the principal may read ({@link Access#serveWithTopicRights}),
     * answers it refused on this and every later fetch and acquires nothing from it, until READ is granted.
     */
    CompletionStage<Struct> shareFetch(Access access) {
        ShareFetchRequestView body = new ShareFetchRequestView(access.request().body());
        if (body.groupId() == null) {
            return access.serve(); // Kafka's KafkaApis refuses it INVALID_REQUEST before it authorizes: the handler does
        }
        if (!groupAllowed(access, AclOperation.READ, body.groupId())) {
            return access.refuse(Errors.GROUP_AUTHORIZATION_FAILED);
        }
        // topic id -> partition -> whether it carried acknowledgements
        Map<UUID, Map<Integer, Boolean>> refused = new LinkedHashMap<>();
        for (ShareFetchRequestView.FetchTopic topic : body.topics()) {
            if (readById(access, topic.topicId()) == null) {
                continue;
            }
            Map<Integer, Boolean> partitions = refused.computeIfAbsent(topic.topicId(), id -> new LinkedHashMap<>());
            for (ShareFetchRequestView.FetchPartition partition : topic.partitions()) {
                boolean acknowledged = !partition.acknowledgementBatches().isEmpty();
                partitions.merge(partition.partitionIndex(), acknowledged, Boolean::logicalOr);
                // Left to the handler at the opening epoch, which refuses acknowledgements there whatever the topic.
                if (acknowledged && body.shareSessionEpoch() != OPENING_EPOCH) {
                    partition.acknowledgementBatches(new ArrayList<>());
                }
            }
        }
        if (refused.isEmpty()) {
            return access.serveWithTopicRights();
        }
        return access.serveWithTopicRights().thenApply(answer -> {
            if (answer != null) {
                answerRefused(new ShareFetchResponseView(answer), refused);
            }
            return answer;
        });
    }

    /**
     * Answers each refused partition TOPIC_AUTHORIZATION_FAILED in the handler's response, in the entry the handler
     * gave it (a session partition it answered refused itself) or a new one (when it fetched nothing, as on the
     * closing epoch); a response refused whole keeps its shape.
     */
    private static void answerRefused(ShareFetchResponseView response, Map<UUID, Map<Integer, Boolean>> refused) {
        if (response.errorCode() != Errors.NONE.code()) {
            return;
        }
        short error = Errors.TOPIC_AUTHORIZATION_FAILED.code();
        refused.forEach((topicId, partitions) -> {
            ShareFetchResponseView.ShareFetchableTopicResponse topic = response.responses().stream()
                    .filter(t -> t.topicId().equals(topicId)).findFirst()
                    .orElseGet(() -> response.addResponse().topicId(topicId));
            partitions.forEach((index, acknowledged) -> {
                ShareFetchResponseView.PartitionData partition = topic.partitions().stream()
                        .filter(answered -> answered.partitionIndex() == index).findFirst()
                        .orElseGet(() -> topic.addPartition().partitionIndex(index).records(Unpooled.EMPTY_BUFFER))
                        .errorCode(error); // no CurrentLeader named: Kafka's defaults, leader 0 and epoch 0
                if (acknowledged) {
                    partition.acknowledgeErrorCode(error);
                }
            });
        });
    }

    /**
     * As ShareFetch: READ on the group for the request, READ on each topic for its partitions. A request the handler
     * refuses whole (its share session's errors) keeps its shape, as Kafka checks the session before the topics.
     */
    CompletionStage<Struct> shareAcknowledge(Access access) {
        ShareAcknowledgeRequestView body = new ShareAcknowledgeRequestView(access.request().body());
        if (body.groupId() == null) {
            return access.serve(); // Kafka's KafkaApis refuses it INVALID_REQUEST before it authorizes: the handler does
        }
        if (!groupAllowed(access, AclOperation.READ, body.groupId())) {
            return access.refuse(Errors.GROUP_AUTHORIZATION_FAILED);
        }
        return access.serveAllowed(body.topics(), topic -> readById(access, topic.topicId()), body::topics,
                (answer, refused) -> {
                    ShareAcknowledgeResponseView response = new ShareAcknowledgeResponseView(answer);
                    if (response.errorCode() != Errors.NONE.code()) {
                        return;
                    }
                    ShareAcknowledgeResponseView.ShareAcknowledgeTopicResponse topic =
                            response.addResponse().topicId(refused.item().topicId());
                    refused.item().partitions().forEach(p -> topic.addPartition().partitionIndex(p.partitionIndex())
                            .errorCode(refused.error().code())); // no CurrentLeader named, as Kafka
                }, true);
    }

    /**
     * DESCRIBE on each group, else the group is answered GROUP_AUTHORIZATION_FAILED; DESCRIBE on each topic asked
     * for, else its partitions are answered TOPIC_AUTHORIZATION_FAILED (start offset -1); a group asked for whole
     * (no topics) shows only the topics the principal may describe.
     */
    CompletionStage<Struct> describeOffsets(Access access) {
        DescribeShareGroupOffsetsRequestView body = new DescribeShareGroupOffsetsRequestView(access.request().body());
        Map<String, List<DescribeShareGroupOffsetsRequestTopic>> refusedTopics = new HashMap<>();
        for (DescribeShareGroupOffsetsRequestGroup group : body.groups()) {
            if (group.topics() == null || !groupAllowed(access, AclOperation.DESCRIBE, group.groupId())) {
                continue;
            }
            List<DescribeShareGroupOffsetsRequestTopic> kept = new ArrayList<>();
            List<DescribeShareGroupOffsetsRequestTopic> refused = new ArrayList<>();
            group.topics().forEach(t -> (topicAllowed(access, AclOperation.DESCRIBE, t.topicName()) ? kept : refused)
                    .add(t));
            if (!refused.isEmpty()) {
                group.topics(kept);
                refusedTopics.put(group.groupId(), refused);
            }
        }
        // Kafka answers each group in the request's order, the refused ones among the others.
        return access.serveAllowed(body.groups(), group -> groupAllowed(access, AclOperation.DESCRIBE,
                group.groupId()) ? null : Errors.GROUP_AUTHORIZATION_FAILED, body::groups, (answer, refused) ->
                new DescribeShareGroupOffsetsResponseView(answer).addGroup().groupId(refused.item().groupId())
                        .errorCode(refused.error().code()), false, Access.Placement.inRequestOrder(
                                answer -> new DescribeShareGroupOffsetsResponseView(answer).groups(),
                                (answer, groups) -> new DescribeShareGroupOffsetsResponseView(answer).groups(groups)))
                .thenApply(answer -> {
                    if (answer != null) {
                        new DescribeShareGroupOffsetsResponseView(answer).groups()
                                .forEach(g -> hideOffsets(access, g, refusedTopics.get(g.groupId())));
                    }
                    return answer;
                });
    }

    /** Leaves out of a described group the topics the principal may not describe, and answers the refused ones. */
    private static void hideOffsets(Access access, DescribeShareGroupOffsetsResponseGroup group,
                                    List<DescribeShareGroupOffsetsRequestTopic> refused) {
        if (group.errorCode() != Errors.NONE.code()) {
            return;
        }
        group.topics(new ArrayList<>(group.topics().stream()
                .filter(t -> topicAllowed(access, AclOperation.DESCRIBE, t.topicName())).toList()));
        if (refused == null) {
            return;
        }
        Errors error = Errors.TOPIC_AUTHORIZATION_FAILED;
        refused.forEach(t -> {
            // Kafka 4.3.1 names a refused topic without its id (the zero id), unlike AlterShareGroupOffsets.
            DescribeShareGroupOffsetsResponseView.DescribeShareGroupOffsetsResponseTopic topic = group.addTopic()
                    .topicName(t.topicName()).topicId(TopicFacts.ZERO_ID);
            t.partitions().forEach(p -> topic.addPartition().partitionIndex(p).startOffset(-1)
                    .errorCode(error.code()).errorMessage(Access.message(error)));
        });
    }

    /**
     * READ on the group, else the request is refused; READ on each topic, else its partitions are answered
     * TOPIC_AUTHORIZATION_FAILED. Served even with every topic refused, as the group's own errors still apply.
     */
    CompletionStage<Struct> alterOffsets(Access access) {
        AlterShareGroupOffsetsRequestView body = new AlterShareGroupOffsetsRequestView(access.request().body());
        if (!groupAllowed(access, AclOperation.READ, body.groupId())) {
            return access.refuseWithMessage(Errors.GROUP_AUTHORIZATION_FAILED);
        }
        return access.serveAllowed(body.topics(), topic -> access.topicRefusal(AclOperation.READ, topic.topicName()),
                body::topics, (answer, refused) -> {
                    AlterShareGroupOffsetsResponseView response = new AlterShareGroupOffsetsResponseView(answer);
                    if (response.errorCode() != Errors.NONE.code()) {
                        return;
                    }
                    AlterShareGroupOffsetsResponseView.AlterShareGroupOffsetsResponseTopic topic =
                            response.addResponse().topicName(refused.item().topicName())
                                    .topicId(topics.idOrZero(refused.item().topicName()));
                    refused.item().partitions().forEach(p -> topic.addPartition().partitionIndex(p.partitionIndex())
                            .errorCode(refused.error().code()).errorMessage(Access.message(refused.error())));
                }, true, Access.Placement.refusedFirst( // Kafka lists them first, then merges its coordinator's in
                        answer -> new AlterShareGroupOffsetsResponseView(answer).responses(),
                        (answer, answered) -> new AlterShareGroupOffsetsResponseView(answer).responses(answered)));
    }

    /** DELETE on the group, else the request is refused; READ on each topic, else the topic is answered refused. */
    CompletionStage<Struct> deleteOffsets(Access access) {
        DeleteShareGroupOffsetsRequestView body = new DeleteShareGroupOffsetsRequestView(access.request().body());
        if (!groupAllowed(access, AclOperation.DELETE, body.groupId())) {
            return access.refuseWithMessage(Errors.GROUP_AUTHORIZATION_FAILED);
        }
        return access.serveAllowed(body.topics(), topic -> access.topicRefusal(AclOperation.READ, topic.topicName()),
                body::topics, (answer, refused) -> {
                    DeleteShareGroupOffsetsResponseView response = new DeleteShareGroupOffsetsResponseView(answer);
                    if (response.errorCode() == Errors.NONE.code()) {
                        // Kafka 4.3.1 names a refused topic without its id (the zero id), unlike AlterShareGroupOffsets.
                        response.addResponse().topicName(refused.item().topicName()).topicId(TopicFacts.ZERO_ID)
                                .errorCode(refused.error().code()).errorMessage(Access.message(refused.error()));
                    }
                }, true, Access.Placement.refusedFirst( // Kafka lists them first, then its coordinator's
                        answer -> new DeleteShareGroupOffsetsResponseView(answer).responses(),
                        (answer, answered) -> new DeleteShareGroupOffsetsResponseView(answer).responses(answered)));
    }
}
