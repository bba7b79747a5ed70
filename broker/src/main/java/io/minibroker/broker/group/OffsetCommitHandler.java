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

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * OffsetCommit: partitions of unknown topics are answered here, as Kafka does before asking its coordinator; the
 * coordinator decides whether this member (or a simple committer) may commit the rest, and stores them. v10
 * names topics by id.
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
        Struct response = ApiKey.OFFSET_COMMIT.response().newMessage();
        // Each answer for a known partition, filled in once the coordinator has decided (by identity: two answers
        // are equal Structs until their errors are set).
        Map<Struct, TopicPartition> awaiting = new IdentityHashMap<>();
        Map<TopicPartition, OffsetStore.CommittedOffset> offsets = new LinkedHashMap<>();
        for (Struct topic : body.getStructs("Topics")) {
            Struct topicResponse = response.addElement("Topics");
            Optional<TopicMetadata> metadata;
            if (byId) {
                topicResponse.set("TopicId", topic.getUuid("TopicId"));
                metadata = topics.known(topic.getUuid("TopicId"));
            } else {
                topicResponse.set("Name", topic.getString("Name"));
                metadata = topics.known(topic.getString("Name"));
            }
            for (Struct partition : topic.getStructs("Partitions")) {
                int index = partition.getInt32("PartitionIndex");
                Struct partitionResponse = topicResponse.addElement("Partitions").set("PartitionIndex", index);
                if (metadata.isEmpty() || !metadata.get().hasPartition(index)) {
                    Errors unknown = byId ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION;
                    partitionResponse.set("ErrorCode", unknown.code());
                    continue;
                }
                TopicPartition topicPartition = new TopicPartition(metadata.get().name(), index);
                awaiting.put(partitionResponse, topicPartition);
                offsets.put(topicPartition, new OffsetStore.CommittedOffset(partition.getInt64("CommittedOffset"),
                        request.version() >= 6 ? partition.getInt32("CommittedLeaderEpoch") : -1,
                        partition.getString("CommittedMetadata")));
            }
        }
        if (offsets.isEmpty()) {
            return CompletableFuture.completedFuture(response); // nothing for the group: it is not even created
        }
        OffsetCommit commit = new OffsetCommit(body.getString("GroupId"),
                body.getInt32("GenerationIdOrMemberEpoch"), body.getString("MemberId"),
                request.version() >= 7 ? body.getString("GroupInstanceId") : null, offsets, request.version());
        return coordinator.commitOffsets(commit).thenApply(errors -> {
            awaiting.forEach((partitionResponse, partition) ->
                    partitionResponse.set("ErrorCode", errors.get(partition).code()));
            return response;
        });
    }
}
