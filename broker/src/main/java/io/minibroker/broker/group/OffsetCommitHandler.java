package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.OffsetCommitRequestView;
import io.minibroker.protocol.message.view.OffsetCommitRequestView.OffsetCommitRequestPartition;
import io.minibroker.protocol.message.view.OffsetCommitRequestView.OffsetCommitRequestTopic;
import io.minibroker.protocol.message.view.OffsetCommitResponseView;
import io.minibroker.protocol.message.view.OffsetCommitResponseView.OffsetCommitResponsePartition;
import io.minibroker.protocol.message.view.OffsetCommitResponseView.OffsetCommitResponseTopic;
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
        OffsetCommitRequestView body = new OffsetCommitRequestView(request.body());
        boolean byId = request.version() >= TOPIC_IDS_FROM_VERSION;
        OffsetCommitResponseView response = new OffsetCommitResponseView();
        // Each answer for a known partition, filled in once the coordinator has decided (by identity: each view
        // wraps its own answer).
        Map<OffsetCommitResponsePartition, TopicPartition> awaiting = new IdentityHashMap<>();
        Map<TopicPartition, OffsetStore.CommittedOffset> offsets = new LinkedHashMap<>();
        for (OffsetCommitRequestTopic topic : body.topics()) {
            OffsetCommitResponseTopic topicResponse = response.addTopic();
            Optional<TopicMetadata> metadata;
            if (byId) {
                topicResponse.topicId(topic.topicId());
                metadata = topics.known(topic.topicId());
            } else {
                topicResponse.name(topic.name());
                metadata = topics.known(topic.name());
            }
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                int index = partition.partitionIndex();
                OffsetCommitResponsePartition partitionResponse = topicResponse.addPartition().partitionIndex(index);
                if (metadata.isEmpty() || !metadata.get().hasPartition(index)) {
                    Errors unknown = byId ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION;
                    partitionResponse.errorCode(unknown.code());
                    continue;
                }
                TopicPartition topicPartition = new TopicPartition(metadata.get().name(), index);
                awaiting.put(partitionResponse, topicPartition);
                offsets.put(topicPartition, new OffsetStore.CommittedOffset(partition.committedOffset(),
                        request.version() >= 6 ? partition.committedLeaderEpoch() : -1,
                        partition.committedMetadata()));
            }
        }
        if (offsets.isEmpty()) {
            return CompletableFuture.completedFuture(response.struct()); // nothing for the group: it is not even created
        }
        OffsetCommit commit = new OffsetCommit(body.groupId(),
                body.generationIdOrMemberEpoch(), body.memberId(),
                request.version() >= 7 ? body.groupInstanceId() : null, offsets, request.version());
        return coordinator.commitOffsets(commit).thenApply(errors -> {
            awaiting.forEach((partitionResponse, partition) ->
                    partitionResponse.errorCode(errors.get(partition).code()));
            return response.struct();
        });
    }
}
