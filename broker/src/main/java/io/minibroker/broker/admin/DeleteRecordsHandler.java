package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DeleteRecordsRequestView;
import io.minibroker.protocol.message.view.DeleteRecordsRequestView.DeleteRecordsPartition;
import io.minibroker.protocol.message.view.DeleteRecordsRequestView.DeleteRecordsTopic;
import io.minibroker.protocol.message.view.DeleteRecordsResponseView;
import io.minibroker.protocol.message.view.DeleteRecordsResponseView.DeleteRecordsPartitionResult;
import io.minibroker.protocol.message.view.DeleteRecordsResponseView.DeleteRecordsTopicResult;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DeleteRecords: moves each partition's log start offset up to the requested offset (-1 means the high
 * watermark). An offset above the high watermark is OFFSET_OUT_OF_RANGE, as in Kafka, and only a partition's
 * leader deletes (NOT_LEADER_OR_FOLLOWER elsewhere); its followers move their log start offsets to the leader's,
 * which each fetch response carries. Each partition is answered with its low watermark once it reached the
 * requested offset on every live replica, as Kafka answers: at once on a single node or when the followers are
 * there already, else through the DeleteRecords purgatory ({@link DelayedDeleteRecords}) until {@code TimeoutMs}.
 * As in Kafka, an internal topic's records are not deleted (INVALID_TOPIC_EXCEPTION, ReplicaManager's
 * deleteRecordsOnLocalLog) and neither are those of a topic whose {@code cleanup.policy} lacks {@code delete}
 * (POLICY_VIOLATION, Partition.deleteRecordsOnLeader). A partition named twice is deleted to, and answered with,
 * the offset named last, once, and a topic named in two entries is answered in one, as Kafka's KafkaApis gathers the
 * request in a map by partition and answers it grouped by topic.
 */
public final class DeleteRecordsHandler implements ApiHandler {

    private static final long HIGH_WATERMARK = -1;

    private final TopicRegistry topics;
    private final PartitionLeadership leadership;
    private final Purgatory<DelayedDeleteRecords> purgatory;

    public DeleteRecordsHandler(TopicRegistry topics, PartitionLeadership leadership,
                                Purgatory<DelayedDeleteRecords> purgatory) {
        this.topics = topics;
        this.leadership = leadership;
        this.purgatory = purgatory;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DeleteRecordsRequestView delete = new DeleteRecordsRequestView(request.body());
        DeleteRecordsResponseView response = new DeleteRecordsResponseView();
        List<DelayedDeleteRecords.PendingDeletion> pending = new ArrayList<>();
        List<TopicPartition> keys = new ArrayList<>();
        for (Map.Entry<String, Map<Integer, Long>> topic : offsetsByTopic(delete).entrySet()) {
            String name = topic.getKey();
            DeleteRecordsTopicResult topicResult = response.addTopic().name(name);
            Optional<TopicMetadata> metadata = topics.get(name);
            for (Map.Entry<Integer, Long> partition : topic.getValue().entrySet()) {
                int index = partition.getKey();
                DeleteRecordsPartitionResult result = topicResult.addPartition().partitionIndex(index)
                        .lowWatermark(-1L);
                Optional<PartitionLog> log = metadata.flatMap(t -> topics.partitionLog(t, index));
                if (log.isEmpty()) {
                    result.errorCode(topics.partitionNotHere(false, name, null, index).code());
                    continue;
                }
                if (InternalTopics.isInternal(name)) {
                    result.errorCode(Errors.INVALID_TOPIC_EXCEPTION.code());
                    continue;
                }
                if (!leadership.isLeader(log.get().topicPartition())) {
                    result.errorCode(Errors.NOT_LEADER_OR_FOLLOWER.code());
                    continue;
                }
                if (!topics.deletesRecords(name)) {
                    result.errorCode(Errors.POLICY_VIOLATION.code());
                    continue;
                }
                long highWatermark = log.get().highWatermark();
                long offset = partition.getValue();
                long target = offset == HIGH_WATERMARK ? highWatermark : offset;
                if (target < 0 || target > highWatermark) {
                    result.errorCode(Errors.OFFSET_OUT_OF_RANGE.code());
                    continue;
                }
                try {
                    long logStart = log.get().deleteRecordsBefore(target);
                    pending.add(new DelayedDeleteRecords.PendingDeletion(log.get(), logStart, result));
                    keys.add(log.get().topicPartition());
                } catch (LogException e) {
                    result.errorCode(e.error().code());
                } catch (UncheckedIOException e) {
                    result.errorCode(Errors.KAFKA_STORAGE_ERROR.code());
                }
            }
        }
        if (pending.isEmpty()) {
            return CompletableFuture.completedFuture(response.struct());
        }
        CompletableFuture<Struct> answer = new CompletableFuture<>();
        purgatory.tryCompleteElseWatch(new DelayedDeleteRecords(delete.timeoutMs(), pending,
                leadership, response, answer), keys);
        return answer;
    }

    /** The offset asked of each partition, by topic in the order first named; a partition named again takes its last. */
    private static Map<String, Map<Integer, Long>> offsetsByTopic(DeleteRecordsRequestView delete) {
        Map<String, Map<Integer, Long>> offsets = new LinkedHashMap<>();
        for (DeleteRecordsTopic topic : delete.topics()) {
            Map<Integer, Long> partitions = offsets.computeIfAbsent(topic.name(), name -> new LinkedHashMap<>());
            for (DeleteRecordsPartition partition : topic.partitions()) {
                partitions.put(partition.partitionIndex(), partition.offset());
            }
        }
        return offsets;
    }
}
