package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * OffsetFetch: the committed offset of each asked partition, -1 (with empty metadata) when there is none; a
 * null topic list (v2+) asks for everything the group committed. v1-7 ask for one group, v8+ for a batch;
 * v10 names topics by id. A group not coordinated here gets NOT_COORDINATOR (COORDINATOR_LOAD_IN_PROGRESS while
 * this broker loads it), which the client answers by finding its coordinator again.
 */
public final class OffsetFetchHandler implements ApiHandler {

    private static final int TOP_LEVEL_ERROR_FROM_VERSION = 2;
    private static final int BATCHED_FROM_VERSION = 8;
    private static final int TOPIC_IDS_FROM_VERSION = 10;

    private final GroupCoordinator coordinator;
    private final TopicRegistry topics;

    public OffsetFetchHandler(GroupCoordinator coordinator, TopicRegistry topics) {
        this.coordinator = coordinator;
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct body = request.body();
        Struct response = ApiKey.OFFSET_FETCH.response().newMessage();
        if (request.version() < BATCHED_FROM_VERSION) {
            List<Struct> asked = body.getStructs("Topics");
            Map<String, List<Integer>> partitions = asked == null ? null : byName(asked);
            Errors notHere = coordinator.coordinatorError(body.getString("GroupId"));
            if (notHere != Errors.NONE) {
                return CompletableFuture.completedFuture(notCoordinated(request.version(), partitions, notHere,
                        response));
            }
            fill(body.getString("GroupId"), partitions, response, false);
            response.set("ErrorCode", Errors.NONE.code());
            return CompletableFuture.completedFuture(response);
        }
        boolean byId = request.version() >= TOPIC_IDS_FROM_VERSION;
        for (Struct group : body.getStructs("Groups")) {
            String groupId = group.getString("GroupId");
            Struct groupResponse = response.addElement("Groups").set("GroupId", groupId)
                    .set("ErrorCode", Errors.NONE.code());
            Errors notHere = coordinator.coordinatorError(groupId);
            if (notHere != Errors.NONE) {
                groupResponse.set("ErrorCode", notHere.code()); // its topics left empty, as Kafka answers
                continue;
            }
            List<Struct> asked = group.getStructs("Topics");
            Map<String, List<Integer>> partitions = asked == null ? null
                    : byId ? knownTopicIds(asked, groupResponse) : byName(asked);
            fill(groupId, partitions, groupResponse, byId);
        }
        return CompletableFuture.completedFuture(response);
    }

    /**
     * The answer for a single group (v1-7) coordinated elsewhere or still loading: from v2 the top-level error; v1
     * has none, so each asked partition carries it.
     */
    private static Struct notCoordinated(short version, Map<String, List<Integer>> asked, Errors error,
                                         Struct response) {
        if (version >= TOP_LEVEL_ERROR_FROM_VERSION) {
            return response.set("ErrorCode", error.code());
        }
        if (asked != null) {
            asked.forEach((topic, indexes) -> {
                Struct topicResponse = response.addElement("Topics").set("Name", topic);
                for (int index : indexes) {
                    topicResponse.addElement("Partitions").set("PartitionIndex", index).set("CommittedOffset", -1L)
                            .set("Metadata", "").set("ErrorCode", error.code());
                }
            });
        }
        return response;
    }

    private static Map<String, List<Integer>> byName(List<Struct> asked) {
        Map<String, List<Integer>> partitions = new LinkedHashMap<>();
        for (Struct topic : asked) {
            partitions.put(topic.getString("Name"), topic.getList("PartitionIndexes"));
        }
        return partitions;
    }

    /** Topic ids resolved to names; an unknown id is answered at once with UNKNOWN_TOPIC_ID. */
    private Map<String, List<Integer>> knownTopicIds(List<Struct> asked, Struct groupResponse) {
        Map<String, List<Integer>> partitions = new LinkedHashMap<>();
        for (Struct topic : asked) {
            UUID id = topic.getUuid("TopicId");
            List<Integer> indexes = topic.getList("PartitionIndexes");
            topics.known(id).ifPresentOrElse(known -> partitions.put(known.name(), indexes), () -> {
                Struct unknown = groupResponse.addElement("Topics").set("TopicId", id);
                for (int index : indexes) {
                    unknown.addElement("Partitions").set("PartitionIndex", index).set("CommittedOffset", -1L)
                            .set("CommittedLeaderEpoch", -1).set("Metadata", "")
                            .set("ErrorCode", Errors.UNKNOWN_TOPIC_ID.code());
                }
            });
        }
        return partitions;
    }

    /** Fills the topic list of a response (or of one group's entry); {@code asked} null means all committed. */
    private void fill(String groupId, Map<String, List<Integer>> asked, Struct into, boolean byId) {
        Map<TopicPartition, OffsetStore.CommittedOffset> committed = coordinator.offsets().all(groupId);
        Map<String, List<Integer>> wanted = asked;
        if (wanted == null) {
            wanted = new LinkedHashMap<>();
            for (TopicPartition partition : committed.keySet()) {
                wanted.computeIfAbsent(partition.topic(), t -> new ArrayList<>()).add(partition.partition());
            }
        }
        for (Map.Entry<String, List<Integer>> topic : wanted.entrySet()) {
            Struct topicResponse = into.addElement("Topics");
            if (byId) {
                topicResponse.set("TopicId", topics.known(topic.getKey()).map(TopicMetadata::id)
                        .orElse(new UUID(0, 0)));
            } else {
                topicResponse.set("Name", topic.getKey());
            }
            for (int index : topic.getValue()) {
                OffsetStore.CommittedOffset offset = TopicPartition.isValid(topic.getKey(), index)
                        ? committed.get(new TopicPartition(topic.getKey(), index)) : null;
                topicResponse.addElement("Partitions").set("PartitionIndex", index)
                        .set("CommittedOffset", offset == null ? -1L : offset.offset())
                        .set("CommittedLeaderEpoch", offset == null ? -1 : offset.leaderEpoch())
                        .set("Metadata", offset == null || offset.metadata() == null ? "" : offset.metadata())
                        .set("ErrorCode", Errors.NONE.code());
            }
        }
    }
}
