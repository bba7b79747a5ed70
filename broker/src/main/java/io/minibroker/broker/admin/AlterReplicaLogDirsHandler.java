package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.LogManager;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterReplicaLogDirsRequestView;
import io.minibroker.protocol.message.view.AlterReplicaLogDirsResponseView;
import io.minibroker.protocol.message.view.AlterReplicaLogDirsResponseView.AlterReplicaLogDirTopicResult;
import io.minibroker.protocol.schema.Struct;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AlterReplicaLogDirs ({@code kafka-reassign-partitions.sh} with {@code log_dirs}, {@code Admin.alterReplicaLogDirs}):
 * moves this node's replicas of partitions to other directories of {@code log.dirs}, as Kafka 4.3.1's
 * ReplicaManager.alterReplicaLogDirs answers, per partition and in its order of checks: a topic name too long for
 * the future directory's name INVALID_TOPIC_EXCEPTION; a path that is not the absolute path of one of
 * {@code log.dirs} LOG_DIR_NOT_FOUND; a directory that cannot be read KAFKA_STORAGE_ERROR (Kafka's offline
 * directory); a partition this node has no replica of, its replica then created in that directory (Kafka's
 * preferred log dir), REPLICA_NOT_AVAILABLE where this node's metadata has the partition, led or not (Kafka's
 * NOT_LEADER_OR_FOLLOWER, answered so "for compatibility") and UNKNOWN_TOPIC_OR_PARTITION where it does not (Kafka's
 * generic catch: a single Kafka 4.3.1 node answered so for a topic that did not exist); otherwise NONE at once, the move itself going on in the background ({@code log/FutureLog}). A partition
 * named more than once is answered once, for the last directory naming it, as Kafka reads the request into a map.
 * The answer groups the partitions by topic. Runs on the disk thread: it makes and deletes directories.
 */
public final class AlterReplicaLogDirsHandler implements ApiHandler {
    private static final Logger log = LoggerFactory.getLogger(AlterReplicaLogDirsHandler.class);

    private final LogManager logs;
    private final PartitionLeadership leadership;

    public AlterReplicaLogDirsHandler(LogManager logs, PartitionLeadership leadership) {
        this.logs = logs;
        this.leadership = leadership;
    }

    /** A partition as the request names it, before its name is checked. */
    private record Named(String topic, int partition) {
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Map<Named, String> partitionDirs = new LinkedHashMap<>();
        for (AlterReplicaLogDirsRequestView.AlterReplicaLogDir dir
                : new AlterReplicaLogDirsRequestView(request.body()).dirs()) {
            dir.topics().forEach(topic -> topic.partitions().forEach(partition -> {
                partitionDirs.put(new Named(topic.name(), partition), dir.path()); // the last one naming it counts
            }));
        }
        AlterReplicaLogDirsResponseView response = new AlterReplicaLogDirsResponseView();
        Map<String, AlterReplicaLogDirTopicResult> byTopic = new LinkedHashMap<>();
        partitionDirs.forEach((named, path) -> byTopic
                .computeIfAbsent(named.topic(), topic -> response.addResult().topicName(topic))
                .addPartition().partitionIndex(named.partition()).errorCode(alter(named, path, context.listenerName()).code()));
        return CompletableFuture.completedFuture(response.struct());
    }

    private Errors alter(Named named, String path, String listener) {
        if (TopicPartition.futureDirNameTooLong(named.topic(), named.partition())) {
            return Errors.INVALID_TOPIC_EXCEPTION;
        }
        Optional<Path> logDir = logs.configuredLogDir(path);
        if (logDir.isEmpty()) {
            return Errors.LOG_DIR_NOT_FOUND;
        }
        if (!Files.isDirectory(logDir.get()) || !Files.isWritable(logDir.get())) {
            return Errors.KAFKA_STORAGE_ERROR;
        }
        if (!TopicPartition.isValid(named.topic(), named.partition())) {
            return Errors.UNKNOWN_TOPIC_OR_PARTITION; // no topic can have this name
        }
        TopicPartition tp = new TopicPartition(named.topic(), named.partition());
        try {
            if (logs.alterLogDir(tp, logDir.get())) {
                return Errors.NONE;
            }
            // Kafka's metadataCache.contains: a partition the metadata has, led or not, has an epoch (-1: unknown).
            return leadership.currentLeader(tp, listener).leaderEpoch() >= 0 ? Errors.REPLICA_NOT_AVAILABLE
                    : Errors.UNKNOWN_TOPIC_OR_PARTITION;
        } catch (IOException e) {
            log.warn("Unable to alter the log dir of {} to {}", tp, path, e);
            return Errors.KAFKA_STORAGE_ERROR;
        }
    }
}
