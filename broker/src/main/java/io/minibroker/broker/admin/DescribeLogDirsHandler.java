package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.LogManager;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
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
 * partition's offset lag is how far its high watermark is past its log end, which only a future replica (none
 * here, no AlterReplicaLogDirs) could have, so it is 0, as Kafka reports it for current replicas. From v4 each
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
        Set<TopicPartition> asked = asked(request.body().getStructs("Topics"));
        Map<Path, List<PartitionLog>> byDir = new HashMap<>();
        for (PartitionLog log : logs.allLogs()) {
            if (asked == null || asked.contains(log.topicPartition())) {
                byDir.computeIfAbsent(log.dir().getParent().toAbsolutePath().normalize(), dir -> new ArrayList<>())
                        .add(log);
            }
        }
        Struct response = ApiKey.DESCRIBE_LOG_DIRS.response().newMessage();
        for (Path configured : logDirs) {
            Path dir = configured.toAbsolutePath().normalize();
            Struct result = response.addElement("Results").set("LogDir", dir.toString());
            try {
                FileStore store = Files.getFileStore(dir);
                result.set("TotalBytes", store.getTotalSpace()).set("UsableBytes", store.getUsableSpace());
            } catch (IOException e) {
                result.set("ErrorCode", Errors.KAFKA_STORAGE_ERROR.code());
                continue;
            }
            addTopics(result, byDir.getOrDefault(dir, List.of()));
        }
        return CompletableFuture.completedFuture(response);
    }

    /** The partitions asked for, or null for all of them (a null topic list). */
    private static Set<TopicPartition> asked(List<Struct> topics) {
        if (topics == null) {
            return null;
        }
        Set<TopicPartition> asked = new HashSet<>();
        for (Struct topic : topics) {
            for (int partition : topic.<Integer>getList("Partitions")) {
                if (TopicPartition.isValid(topic.getString("Topic"), partition)) {
                    asked.add(new TopicPartition(topic.getString("Topic"), partition));
                }
            }
        }
        return asked;
    }

    private static void addTopics(Struct result, List<PartitionLog> logsInDir) {
        Map<String, List<PartitionLog>> byTopic = new TreeMap<>();
        for (PartitionLog log : logsInDir) {
            byTopic.computeIfAbsent(log.topicPartition().topic(), topic -> new ArrayList<>()).add(log);
        }
        byTopic.forEach((topic, partitionLogs) -> {
            Struct topicResult = result.addElement("Topics").set("Name", topic);
            partitionLogs.sort(Comparator.comparingInt(log -> log.topicPartition().partition()));
            for (PartitionLog log : partitionLogs) {
                topicResult.addElement("Partitions")
                        .set("PartitionIndex", log.topicPartition().partition())
                        .set("PartitionSize", log.size())
                        .set("OffsetLag", Math.max(0L, log.highWatermark() - log.logEndOffset()))
                        .set("IsFutureKey", false);
            }
        });
    }
}
