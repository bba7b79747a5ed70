package io.minibroker.broker.log;

import static io.minibroker.broker.log.TestBatches.append;
import static io.minibroker.broker.log.TestBatches.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.broker.server.Eventually;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogManagerTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final List<TopicPartition> PARTITIONS = List.of(
            new TopicPartition("orders", 0), new TopicPartition("orders", 1),
            new TopicPartition("my-topic", 3), new TopicPartition("a-b-c", 10));

    @TempDir
    Path dirA;
    @TempDir
    Path dirB;
    private final MutableClock clock = new MutableClock(T0);

    private LogManager manager() {
        LogConfig config = LogConfig.defaults().withSegmentBytes(2048).withIndexIntervalBytes(200);
        return TestLogs.manager(List.of(dirA, dirB), topic -> config, clock);
    }

    private Map<TopicPartition, List<TestBatches.Entry>> fill(LogManager manager) throws IOException {
        Map<TopicPartition, List<TestBatches.Entry>> contents = new HashMap<>();
        for (TopicPartition tp : PARTITIONS) {
            PartitionLog log = manager.getOrCreateLog(tp);
            for (int i = 0; i < 30; i++) {
                append(log, tp + "/" + i, 2, T0 + i);
            }
            contents.put(tp, readAll(log));
        }
        return contents;
    }

    @Test
    void reopensEveryPartitionAfterACleanClose() throws IOException {
        LogManager manager = manager();
        manager.startup();
        Map<TopicPartition, List<TestBatches.Entry>> contents = fill(manager);
        manager.getOrCreateLog(PARTITIONS.get(0)).deleteRecordsBefore(7);
        manager.close();

        // Kafka's content: the broker epoch, -1 where the broker has none (a single node).
        assertThat(Files.readString(dirA.resolve(LogManager.CLEAN_SHUTDOWN_FILE)))
                .isEqualTo("{\"version\":0,\"brokerEpoch\":-1}");
        assertThat(dirB.resolve(LogManager.CLEAN_SHUTDOWN_FILE)).exists();
        // New partitions were spread over both directories.
        assertThat(dirA.resolve("orders-0")).isDirectory();
        assertThat(dirB.resolve("orders-1")).isDirectory();
        Map<TopicPartition, Long> recoveryPoints = new HashMap<>();
        recoveryPoints.putAll(new OffsetCheckpointFile(dirA.resolve(OffsetCheckpointFile.RECOVERY_POINT)).read());
        recoveryPoints.putAll(new OffsetCheckpointFile(dirB.resolve(OffsetCheckpointFile.RECOVERY_POINT)).read());
        assertThat(recoveryPoints).containsOnlyKeys(PARTITIONS).containsValue(60L);
        // As Kafka writes it: only a log start past the log's first segment; the other logs start at that segment.
        Map<TopicPartition, Long> startOffsets = new HashMap<>();
        startOffsets.putAll(new OffsetCheckpointFile(dirA.resolve(OffsetCheckpointFile.LOG_START_OFFSET)).read());
        startOffsets.putAll(new OffsetCheckpointFile(dirB.resolve(OffsetCheckpointFile.LOG_START_OFFSET)).read());
        assertThat(startOffsets).containsExactly(Map.entry(PARTITIONS.get(0), 7L));

        LogManager reopened = manager();
        reopened.startup();
        assertThat(dirA.resolve(LogManager.CLEAN_SHUTDOWN_FILE)).doesNotExist();
        assertThat(reopened.allLogs()).hasSize(PARTITIONS.size());
        for (TopicPartition tp : PARTITIONS) {
            PartitionLog log = reopened.log(tp).orElseThrow();
            assertThat(log.logEndOffset()).isEqualTo(60);
            List<TestBatches.Entry> expected = contents.get(tp).stream().filter(e -> e.offset() >= log.logStartOffset()).toList();
            assertThat(readAll(log)).isEqualTo(expected);
        }
        assertThat(reopened.log(PARTITIONS.get(0)).orElseThrow().logStartOffset()).isEqualTo(7);
        reopened.close();
    }

    @Test
    void recoversPartitionsAfterAnUncleanShutdown() throws IOException {
        LogManager manager = manager();
        manager.startup();
        Map<TopicPartition, List<TestBatches.Entry>> contents = fill(manager);
        manager.close();
        // As if the broker had died: no marker, and a torn tail on one partition.
        Files.delete(dirA.resolve(LogManager.CLEAN_SHUTDOWN_FILE));
        Files.delete(dirB.resolve(LogManager.CLEAN_SHUTDOWN_FILE));
        new OffsetCheckpointFile(dirA.resolve(OffsetCheckpointFile.RECOVERY_POINT)).write(Map.of());
        new OffsetCheckpointFile(dirB.resolve(OffsetCheckpointFile.RECOVERY_POINT)).write(Map.of());
        TopicPartition torn = new TopicPartition("my-topic", 3);
        Path partitionDir = Files.exists(dirA.resolve(torn.dirName())) ? dirA.resolve(torn.dirName()) : dirB.resolve(torn.dirName());
        Path lastSegment;
        try (var files = Files.list(partitionDir)) {
            lastSegment = files.filter(p -> p.toString().endsWith(".log")).sorted().reduce((a, b) -> b).orElseThrow();
        }
        try (FileChannel channel = FileChannel.open(lastSegment, StandardOpenOption.WRITE)) {
            channel.truncate(channel.size() - 3);
        }

        LogManager reopened = manager();
        reopened.startup();
        for (TopicPartition tp : PARTITIONS) {
            PartitionLog log = reopened.log(tp).orElseThrow();
            long expectedEnd = tp.equals(torn) ? 58 : 60;
            assertThat(log.logEndOffset()).as(tp.toString()).isEqualTo(expectedEnd);
            assertThat(readAll(log)).isEqualTo(contents.get(tp).subList(0, (int) expectedEnd));
        }
        reopened.close();
    }

    @Test
    void deletesAPartitionLogAndItsDirectory() throws IOException {
        LogManager manager = manager();
        manager.startup();
        fill(manager);
        TopicPartition tp = PARTITIONS.get(2);
        Path dir = manager.log(tp).orElseThrow().dir();

        assertThat(manager.deleteLog(tp)).isTrue();
        assertThat(dir).doesNotExist();
        assertThat(manager.log(tp)).isEmpty();
        assertThat(manager.deleteLog(tp)).isFalse();
        manager.close();

        LogManager reopened = manager();
        reopened.startup();
        assertThat(reopened.log(tp)).isEmpty();
        assertThat(reopened.allLogs()).hasSize(PARTITIONS.size() - 1);
        reopened.close();
    }

    @Test
    void ignoresDirectoriesThatAreNotPartitions() throws IOException {
        Files.createDirectories(dirA.resolve("not a partition"));
        LogManager manager = manager();
        manager.startup();
        assertThat(manager.allLogs()).isEmpty();
        manager.close();
    }

    @Test
    void opensManyPartitionsOnItsRecoveryThreadsWithTheirOffsets() throws IOException {
        LogConfig config = LogConfig.defaults().withSegmentBytes(2048).withIndexIntervalBytes(200);
        LogManager manager = new LogManager(List.of(dirA, dirB), topic -> config, clock, 3, Long.MAX_VALUE,
                    () -> LogConfig.DEFAULT_FILE_DELETE_DELAY_MS);
        manager.startup();
        Map<TopicPartition, Long> ends = new HashMap<>();
        Map<TopicPartition, Long> starts = new HashMap<>();
        for (int p = 0; p < 300; p++) {
            TopicPartition tp = new TopicPartition(p % 2 == 0 ? "even" : "odd", p);
            PartitionLog log = manager.getOrCreateLog(tp);
            for (int i = 0; i < p % 40; i++) { // up to 78 records: some logs roll segments
                append(log, tp + "/" + i, 2, T0 + i);
            }
            if (p % 5 == 0 && log.logEndOffset() > 3) {
                log.deleteRecordsBefore(3);
            }
            ends.put(tp, log.logEndOffset());
            starts.put(tp, log.logStartOffset());
        }
        manager.close();

        for (boolean clean : new boolean[] {true, false}) {
            if (!clean) { // as if the broker had died: everything is recovered
                Files.delete(dirA.resolve(LogManager.CLEAN_SHUTDOWN_FILE));
                Files.delete(dirB.resolve(LogManager.CLEAN_SHUTDOWN_FILE));
            }
            LogManager reopened = new LogManager(List.of(dirA, dirB), topic -> config, clock, 3, Long.MAX_VALUE,
                    () -> LogConfig.DEFAULT_FILE_DELETE_DELAY_MS);
            reopened.startup();
            assertThat(reopened.allLogs()).hasSize(300);
            for (PartitionLog log : reopened.allLogs()) {
                assertThat(log.logEndOffset()).as(log.topicPartition() + " clean=" + clean)
                        .isEqualTo(ends.get(log.topicPartition()));
                assertThat(log.logStartOffset()).as(log.topicPartition() + " clean=" + clean)
                        .isEqualTo(starts.get(log.topicPartition()));
            }
            awaitNoRecoveryThreads();
            reopened.close();
        }
    }

    @Test
    void aSecondManagerOnADirectoryInUseIsRefusedUntilTheFirstCloses() throws IOException {
        LogManager first = manager();
        first.startup();
        assertThat(dirB.resolve(".lock")).as("Kafka's lock file, held while open").exists();

        LogManager second = manager();
        assertThatThrownBy(second::startup).isInstanceOf(IOException.class).hasMessageContaining(".lock");
        second.close();
        assertThat(dirA.resolve(".lock")).as("still the first manager's").exists();

        first.close();
        assertThat(dirA.resolve(".lock")).as("deleted at the close, as Kafka's").doesNotExist();
        LogManager third = manager();
        third.startup();
        third.close();
    }

    @Test
    void theCleanShutdownMarkerNamesTheBrokerEpochOfACluster() throws IOException {
        LogManager manager = manager();
        manager.brokerEpochFrom(() -> 12);
        manager.startup();
        manager.close();
        assertThat(Files.readString(dirB.resolve(LogManager.CLEAN_SHUTDOWN_FILE)))
                .isEqualTo("{\"version\":0,\"brokerEpoch\":12}");
    }

    /**
     * The checkpoint reads a log's first segment under the log's monitor, which {@link PartitionLog#restartAt} holds
     * while the segments are empty: it waits for a change under way instead of finding no segment.
     */
    @Test
    void theCheckpointReadsTheFirstSegmentUnderTheLogsMonitor() throws Exception {
        LogManager manager = manager();
        manager.startup();
        PartitionLog log = manager.getOrCreateLog(PARTITIONS.get(0));
        Thread checkpointer = new Thread(() -> {
            try {
                manager.checkpoint();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        synchronized (log) { // as a restartAt under way
            checkpointer.start();
            Eventually.await(() -> checkpointer.getState() == Thread.State.BLOCKED || !checkpointer.isAlive(),
                    "the checkpoint to wait for the log or end");
            assertThat(checkpointer.isAlive()).as("waiting for the log's monitor").isTrue();
        }
        checkpointer.join();
        manager.close();
    }

    @Test
    void aLogThatCannotBeOpenedFailsTheStartAndNamesItsFile() throws IOException {
        LogManager manager = manager();
        manager.startup();
        fill(manager);
        manager.getOrCreateLog(new TopicPartition("my-topic", 3)).deleteRecordsBefore(5); // a start to checkpoint
        manager.close();
        // A segment's log file that cannot be opened: a directory where the file should be.
        Path broken = (Files.exists(dirA.resolve("my-topic-3")) ? dirA : dirB).resolve("my-topic-3");
        Path segment = broken.resolve(LogSegment.fileName(0, LogSegment.LOG_SUFFIX));
        Files.delete(segment);
        Files.createDirectory(segment);

        LogManager reopened = manager();
        assertThatThrownBy(reopened::startup).isInstanceOf(IOException.class).hasMessageContaining(segment.toString());
        awaitNoRecoveryThreads();
        assertThat(reopened.log(PARTITIONS.get(0))).as("the other logs open as before").isPresent();
        boolean markerA = Files.exists(dirA.resolve(LogManager.CLEAN_SHUTDOWN_FILE));
        boolean markerB = Files.exists(dirB.resolve(LogManager.CLEAN_SHUTDOWN_FILE));
        reopened.close();
        // A start that failed is not a clean shutdown: the close writes no marker (a directory the start did not
        // reach keeps its own), and the logs the start did not open keep their checkpointed offsets.
        assertThat(Files.exists(dirA.resolve(LogManager.CLEAN_SHUTDOWN_FILE))).isEqualTo(markerA);
        assertThat(Files.exists(dirB.resolve(LogManager.CLEAN_SHUTDOWN_FILE))).isEqualTo(markerB);
        Map<TopicPartition, Long> startOffsets = new HashMap<>();
        startOffsets.putAll(new OffsetCheckpointFile(dirA.resolve(OffsetCheckpointFile.LOG_START_OFFSET)).read());
        startOffsets.putAll(new OffsetCheckpointFile(dirB.resolve(OffsetCheckpointFile.LOG_START_OFFSET)).read());
        assertThat(startOffsets).containsEntry(new TopicPartition("my-topic", 3), 5L);
    }

    @Test
    void aLogThatCannotBeClosedLeavesNoCleanShutdownMarkerAndTheOthersClose() throws IOException {
        LogManager manager = manager();
        manager.startup();
        fill(manager);
        // The directory of one partition gone under the broker: its close cannot write its producer snapshot.
        Path gone = (Files.exists(dirA.resolve("my-topic-3")) ? dirA : dirB).resolve("my-topic-3");
        try (var files = Files.walk(gone)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }

        assertThatThrownBy(manager::close).hasMessageContaining("my-topic-3");
        Eventually.await(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(thread -> thread.getName().startsWith("log-close-")), "the closing threads to end");
        assertThat(dirA.resolve(LogManager.CLEAN_SHUTDOWN_FILE)).as("the next start recovers").doesNotExist();
        assertThat(dirB.resolve(LogManager.CLEAN_SHUTDOWN_FILE)).doesNotExist();

        LogManager reopened = manager();
        reopened.startup();
        for (TopicPartition tp : PARTITIONS) {
            if (!tp.equals(new TopicPartition("my-topic", 3))) {
                assertThat(reopened.log(tp).orElseThrow().logEndOffset()).as("%s was flushed and closed", tp)
                        .isEqualTo(60);
            }
        }
        reopened.close();
    }

    /** The pool is shut down once the logs are loaded: its threads end (a pool left running keeps them). */
    private static void awaitNoRecoveryThreads() {
        Eventually.await(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(thread -> thread.getName().startsWith("log-recovery-")), "the recovery threads to end");
    }
}
