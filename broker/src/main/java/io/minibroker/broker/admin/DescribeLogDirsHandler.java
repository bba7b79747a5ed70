package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.FutureLog;
import io.minibroker.broker.log.LogManager;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeLogDirsRequestView;
import io.minibroker.protocol.message.view.DescribeLogDirsRequestView.DescribableLogDirTopic;
import io.minibroker.protocol.message.view.DescribeLogDirsResponseView;
import io.minibroker.protocol.message.view.DescribeLogDirsResponseView.DescribeLogDirsResult;
import io.minibroker.protocol.message.view.DescribeLogDirsResponseView.DescribeLogDirsTopic;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeLogDirs ({@code kafka-log-dirs.sh}, and the disk usage admin UIs show): each of {@code log.dirs} with
 * the partitions this node holds there, all of them or those asked for, with their sizes, as Kafka answers. A
 * current replica's offset lag is how far its high watermark is past its log end (0 on a leader); a replica moving
 * to another directory (AlterReplicaLogDirs) is listed there too, as Kafka's future replica ({@code IsFutureKey}),
 * with the bytes copied so far and its lag behind the current replica's log end. From v4 each
 * directory also tells its file store's total and usable bytes; a directory whose store cannot be read is
 * KAFKA_STORAGE_ERROR.
 */
public final class DescribeLogDirsHandler implements ApiHandler {

    private final List<Path> logDirs;
    private final LogManager logs;

    public DescribeLogDirsHandler(List<Path> logDirs, LogManager logs) {
        this.logDirs = logDirs;
        this.logs = logs;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Set<TopicPartition> asked = asked(new DescribeLogDirsRequestView(request.body()).topics());
        Map<Path, List<Replica>> byDir = new HashMap<>();
        for (PartitionLog log : logs.allLogs()) {
            if (asked == null || asked.contains(log.topicPartition())) {
                byDir.computeIfAbsent(log.dir().getParent().toAbsolutePath().normalize(), dir -> new ArrayList<>())
                        .add(new Replica(log.topicPartition(), log.size(),
                                Math.max(0L, log.highWatermark() - log.logEndOffset()), false));
            }
        }
        for (FutureLog future : logs.futureLogs()) {
            PartitionLog current = future.log();
            if (asked == null || asked.contains(current.topicPartition())) {
                byDir.computeIfAbsent(future.targetLogDir().toAbsolutePath().normalize(), dir -> new ArrayList<>())
                        .add(new Replica(current.topicPartition(), future.copiedBytes(),
                                Math.max(0L, current.logEndOffset() - future.copiedEndOffset()), true));
            }
        }
        DescribeLogDirsResponseView response = new DescribeLogDirsResponseView();
        for (Path configured : logDirs) {
            Path dir = configured.toAbsolutePath().normalize();
            DescribeLogDirsResult result = response.addResult().logDir(dir.toString());
            try {
                FileStore store = Files.getFileStore(dir);
                result.totalBytes(store.getTotalSpace()).usableBytes(store.getUsableSpace());
            } catch (IOException e) {
                result.errorCode(Errors.KAFKA_STORAGE_ERROR.code());
                continue;
            }
            addTopics(result, byDir.getOrDefault(dir, List.of()));
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    /** The partitions asked for, or null for all of them (a null topic list). */
    private static Set<TopicPartition> asked(List<DescribableLogDirTopic> topics) {
        if (topics == null) {
            return null;
        }
        Set<TopicPartition> asked = new HashSet<>();
        for (DescribableLogDirTopic topic : topics) {
            for (int partition : topic.partitions()) {
                if (TopicPartition.isValid(topic.topic(), partition)) {
                    asked.add(new TopicPartition(topic.topic(), partition));
                }
            }
        }
        return asked;
    }

    /** A replica in a directory: a current one, or the future one of a move there. */
    private record Replica(TopicPartition topicPartition, long size, long offsetLag, boolean future) {
    }

    private static void addTopics(DescribeLogDirsResult result, List<Replica> replicasInDir) {
        Map<String, List<Replica>> byTopic = new TreeMap<>();
        for (Replica replica : replicasInDir) {
            byTopic.computeIfAbsent(replica.topicPartition().topic(), topic -> new ArrayList<>()).add(replica);
        }
        byTopic.forEach((topic, replicas) -> {
            DescribeLogDirsTopic topicResult = result.addTopic().name(topic);
            replicas.sort(Comparator.comparingInt(replica -> replica.topicPartition().partition()));
            for (Replica replica : replicas) {
                topicResult.addPartition()
                        .partitionIndex(replica.topicPartition().partition())
                        .partitionSize(replica.size())
                        .offsetLag(replica.offsetLag())
                        .isFutureKey(replica.future());
            }
        });
    }
}
