package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
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

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * OffsetCommit: partitions of unknown topics are answered here, as Kafka does before asking its coordinator; the
 * coordinator decides whether this member (or a simple committer) may commit the rest, and stores them. v10
 * names topics by id.
 */
public final class OffsetCommitHandler implements ApiHandler {

    private static final int LEADER_EPOCH_FROM_VERSION = 6;
    private static final int GROUP_INSTANCE_ID_FROM_VERSION = 7;
    private static final int TOPIC_IDS_FROM_VERSION = 10;
    /** RetentionTimeMs is in v2-v4 only. */
    private static final int RETENTION_TIME_FROM_VERSION = 2;
    private static final int RETENTION_TIME_UNTIL_VERSION = 4;

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
        OffsetCommitPartitions<OffsetCommitResponsePartition> partitions = new OffsetCommitPartitions<>(topics, byId);
        for (OffsetCommitRequestTopic topic : body.topics()) {
            OffsetCommitResponseTopic topicResponse = response.addTopic();
            if (byId) {
                topicResponse.topicId(topic.topicId());
            } else {
                topicResponse.name(topic.name());
            }
            Optional<TopicMetadata> metadata = partitions.topic(topic.topicId(), topic.name());
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                OffsetCommitResponsePartition partitionResponse = topicResponse.addPartition()
                        .partitionIndex(partition.partitionIndex());
                Errors unknown = partitions.add(metadata, partition.partitionIndex(), partitionResponse,
                        new OffsetStore.CommittedOffset(partition.committedOffset(),
                                request.version() >= LEADER_EPOCH_FROM_VERSION ? partition.committedLeaderEpoch() : -1,
                                partition.committedMetadata(), byId ? topic.topicId() : null,
                                OffsetStore.CommittedOffset.NO_EXPIRY));
                if (unknown != Errors.NONE) {
                    partitionResponse.errorCode(unknown.code());
                }
            }
        }
        if (partitions.offsets().isEmpty()) {
            return CompletableFuture.completedFuture(response.struct()); // nothing for the group: it is not even created
        }
        OffsetCommit commit = new OffsetCommit(body.groupId(), body.generationIdOrMemberEpoch(), body.memberId(),
                request.version() >= GROUP_INSTANCE_ID_FROM_VERSION ? body.groupInstanceId() : null,
                partitions.offsets(), request.version(), null, retentionTimeMs(request.version(), body));
        return coordinator.commitOffsets(commit).thenApply(errors -> {
            partitions.answer(errors, (partitionResponse, error) -> partitionResponse.errorCode(error.code()));
            return response.struct();
        });
    }

    private static long retentionTimeMs(short version, OffsetCommitRequestView body) {
        return version >= RETENTION_TIME_FROM_VERSION && version <= RETENTION_TIME_UNTIL_VERSION
                ? body.retentionTimeMs() : OffsetCommit.DEFAULT_RETENTION_TIME;
    }
}
