package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * OffsetCommit: the coordinator decides whether this member (or a simple committer) may commit; each partition
 * of a known topic is then stored. v10 names topics by id.
 */
public final class OffsetCommitHandler implements ApiHandler {

    private static final int TOPIC_IDS_FROM_VERSION = 10;

    private final GroupCoordinator coordinator;
    private final TopicRegistry topics;

    public OffsetCommitHandler(GroupCoordinator coordinator, TopicRegistry topics) {
        this.coordinator = coordinator;
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct body = request.body();
        boolean byId = request.version() >= TOPIC_IDS_FROM_VERSION;
        String groupId = body.getString("GroupId");
        Errors groupError = groupId.isEmpty() ? Errors.INVALID_GROUP_ID
                : coordinator.validateCommit(groupId, body.getInt32("GenerationIdOrMemberEpoch"),
                        body.getString("MemberId"),
                        request.version() >= 7 ? body.getString("GroupInstanceId") : null);
        Struct response = ApiKey.OFFSET_COMMIT.response().newMessage();
        for (Struct topic : body.getStructs("Topics")) {
            Struct topicResponse = response.addElement("Topics");
            Optional<TopicMetadata> metadata;
            if (byId) {
                topicResponse.set("TopicId", topic.getUuid("TopicId"));
                metadata = topics.get(topic.getUuid("TopicId"));
            } else {
                topicResponse.set("Name", topic.getString("Name"));
                metadata = topics.get(topic.getString("Name"));
            }
            for (Struct partition : topic.getStructs("Partitions")) {
                int index = partition.getInt32("PartitionIndex");
                Errors error = groupError;
                if (error == Errors.NONE) {
                    if (metadata.isEmpty() || index < 0 || index >= metadata.get().partitions()) {
                        error = byId ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION;
                    } else {
                        error = store(groupId, new TopicPartition(metadata.get().name(), index),
                                new OffsetStore.CommittedOffset(partition.getInt64("CommittedOffset"),
                                        request.version() >= 6 ? partition.getInt32("CommittedLeaderEpoch") : -1,
                                        partition.getString("CommittedMetadata")));
                    }
                }
                topicResponse.addElement("Partitions").set("PartitionIndex", index).set("ErrorCode", error.code());
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private Errors store(String groupId, TopicPartition partition, OffsetStore.CommittedOffset offset) {
        try {
            coordinator.offsets().commit(groupId, partition, offset);
            return Errors.NONE;
        } catch (LogException e) {
            return e.error();
        }
    }
}
