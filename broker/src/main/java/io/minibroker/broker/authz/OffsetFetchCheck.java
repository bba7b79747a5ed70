package io.minibroker.broker.authz;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.OffsetFetchRequestView;
import io.minibroker.protocol.message.view.OffsetFetchRequestView.OffsetFetchRequestGroup;
import io.minibroker.protocol.message.view.OffsetFetchRequestView.OffsetFetchRequestTopic;
import io.minibroker.protocol.message.view.OffsetFetchRequestView.OffsetFetchRequestTopics;
import io.minibroker.protocol.message.view.OffsetFetchResponseView;
import io.minibroker.protocol.message.view.OffsetFetchResponseView.OffsetFetchResponseGroup;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * OffsetFetch as Kafka's KafkaApis checks it: DESCRIBE on each group (else GROUP_AUTHORIZATION_FAILED for the group:
 * at the top level before v8, per group from v8, on every partition asked for before v2, which has no top-level
 * code); for the topics named, DESCRIBE on each (else TOPIC_AUTHORIZATION_FAILED for its partitions, committed offset
 * -1); for a request of all the group's offsets, the topics the principal may not describe are left out of the
 * answer.
 */
final class OffsetFetchCheck {

    private static final short TOP_LEVEL_ERROR_FROM_VERSION = 2;
    private static final short GROUPS_FROM_VERSION = 8;
    private static final short TOPIC_IDS_FROM_VERSION = 10;

    private final TopicFacts topics;

    OffsetFetchCheck(TopicFacts topics) {
        this.topics = topics;
    }

    CompletionStage<Struct> check(Access access) {
        Request request = access.request();
        return request.version() >= GROUPS_FROM_VERSION ? groups(access) : singleGroup(access);
    }

    private CompletionStage<Struct> singleGroup(Access access) {
        Request request = access.request();
        OffsetFetchRequestView body = new OffsetFetchRequestView(request.body());
        List<OffsetFetchRequestTopic> topics = body.topics();
        if (!access.allowed(AclOperation.DESCRIBE, ResourceType.GROUP, body.groupId())) {
            OffsetFetchResponseView response = new OffsetFetchResponseView();
            if (request.version() >= TOP_LEVEL_ERROR_FROM_VERSION) {
                response.errorCode(Errors.GROUP_AUTHORIZATION_FAILED.code());
            } else if (topics != null) {
                topics.forEach(t -> addRefused(response, t, Errors.GROUP_AUTHORIZATION_FAILED));
            }
            return Access.answer(response.struct());
        }
        if (topics == null) {
            return access.serveFiltered(answer -> {
                OffsetFetchResponseView response = new OffsetFetchResponseView(answer);
                response.topics(response.topics().stream().filter(t -> describable(access, t.name())).toList());
            });
        }
        return access.serveAllowed(topics, t -> access.topicRefusal(AclOperation.DESCRIBE, t.name()), body::topics,
                (answer, refused) ->
                addRefused(new OffsetFetchResponseView(answer), refused.item(), refused.error()));
    }

    private static void addRefused(OffsetFetchResponseView response, OffsetFetchRequestTopic topic, Errors error) {
        OffsetFetchResponseView.OffsetFetchResponseTopic answered = response.addTopic().name(topic.name());
        topic.partitionIndexes().forEach(p -> answered.addPartition().partitionIndex(p).committedOffset(-1L)
                .committedLeaderEpoch(-1).metadata("").errorCode(error.code()));
    }

    /** From v8: each group on its own, refused groups and topics put back into the answer after serving. */
    private CompletionStage<Struct> groups(Access access) {
        boolean byId = access.request().version() >= TOPIC_IDS_FROM_VERSION;
        OffsetFetchRequestView body = new OffsetFetchRequestView(access.request().body());
        List<String> refusedGroups = new ArrayList<>();
        Map<String, List<OffsetFetchRequestTopics>> refusedTopics = new HashMap<>();
        List<String> allTopicsGroups = new ArrayList<>();
        List<OffsetFetchRequestGroup> kept = new ArrayList<>();
        for (OffsetFetchRequestGroup group : body.groups()) {
            if (!access.allowed(AclOperation.DESCRIBE, ResourceType.GROUP, group.groupId())) {
                refusedGroups.add(group.groupId());
                continue;
            }
            kept.add(group);
            if (group.topics() == null) {
                allTopicsGroups.add(group.groupId());
                continue;
            }
            List<OffsetFetchRequestTopics> allowed = new ArrayList<>();
            for (OffsetFetchRequestTopics topic : group.topics()) {
                String name = byId && topic.name().isEmpty() ? topics.nameOf(topic.topicId()).orElse(null)
                        : topic.name();
                if (name == null || describable(access, name)) {
                    allowed.add(topic);
                } else {
                    refusedTopics.computeIfAbsent(group.groupId(), g -> new ArrayList<>()).add(topic);
                }
            }
            group.topics(allowed);
        }
        if (refusedGroups.isEmpty() && refusedTopics.isEmpty() && allTopicsGroups.isEmpty()) {
            return access.serve();
        }
        body.groups(kept);
        return access.serveFiltered(answer -> {
            OffsetFetchResponseView response = new OffsetFetchResponseView(answer);
            for (OffsetFetchResponseGroup group : response.groups()) {
                if (allTopicsGroups.contains(group.groupId())) {
                    group.topics(group.topics().stream().filter(t -> describable(access, byId && t.name().isEmpty()
                            ? topics.nameOf(t.topicId()).orElse("") : t.name()))
                            .collect(Collectors.toCollection(ArrayList::new)));
                }
                refusedTopics.getOrDefault(group.groupId(), List.of()).forEach(topic -> {
                    OffsetFetchResponseView.OffsetFetchResponseTopics answered = group.addTopic().name(topic.name())
                            .topicId(topic.topicId());
                    topic.partitionIndexes().forEach(p -> answered.addPartition().partitionIndex(p)
                            .committedOffset(-1L).committedLeaderEpoch(-1).metadata("")
                            .errorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
                });
            }
            refusedGroups.forEach(g -> response.addGroup().groupId(g)
                    .errorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()));
        });
    }

    private static boolean describable(Access access, String topic) {
        return access.allowed(AclOperation.DESCRIBE, ResourceType.TOPIC, topic);
    }
}
