package io.minibroker.broker.log;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partition logs of every directory in {@code log.dirs}.
 *
 * <pre>
 * /var/minibroker/data/                       one entry of log.dirs
 *     .lock                                   locked while the logs are open, deleted at the close
 *     .kafka_cleanshutdown                    present only between a clean close and the next open; the broker epoch
 *     recovery-point-offset-checkpoint        per partition: offset up to which it was fsynced
 *     log-start-offset-checkpoint             first offset still readable, where past the first segment
 *     replication-offset-checkpoint           per partition: its high watermark (replica/HighWatermarkCheckpointer)
 *     cleaner-offset-checkpoint               per compacted partition: its first dirty offset (written by the cleaner)
 *     orders-0/  orders-1/  my-topic-3/       one directory per partition ({@link PartitionLog})
 *     old-0.3f2a...-delete/                   a deleted partition's, until log.segment.delete.delay.ms has passed
 * </pre>
 * {@link #startup()} opens every partition directory it finds, recovering the logs of a directory that
 * has no clean-shutdown marker, and deletes the marker so a crash from then on is noticed; a deleted partition's
 * directory left by a stop before its delayed deletion is deleted then. {@link #close()}
 * flushes and closes every log, writes both checkpoints and then the marker. New partitions go to the
 * directory with the fewest, as Kafka places them.
 */
public final class LogManager implements AutoCloseable {
    static final String CLEAN_SHUTDOWN_FILE = ".kafka_cleanshutdown";
    /** Kafka's default of {@code num.recovery.threads.per.data.dir} (since 4.0). */
    public static final int DEFAULT_RECOVERY_THREADS_PER_DATA_DIR = 2;
    private static final Logger log = LoggerFactory.getLogger(LogManager.class);
    /** How many times a move copies a log off its lock when truncations keep voiding the copy (then step two does). */
    private static final int MOVE_COPY_PASSES = 3;

    private final List<Path> logDirs;
    private final Function<String, LogConfig> topicConfigs;
    /** The broker epoch a clean close names in its marker, as Kafka's: -1 where there is none (a single node). */
    private volatile LongSupplier brokerEpoch = () -> -1;
    /** The directories' locks, from {@link #startup()} to {@link #close()}; null before. */
    private LogDirLocks locks;
    private final Clock clock;
    private final int recoveryThreadsPerDataDir;
    /** {@code producer.id.expiration.ms}, which each log applies as it loads its producer snapshot. */
    private final long producerIdExpirationMs;
    /** {@code log.segment.delete.delay.ms}: how long a deleted log's renamed directory waits before it goes. */
    private final LongSupplier logDeleteDelayMs;
    /**
     * Where the logs' renamed files go to be deleted: at once until the broker's scheduler takes them
     * ({@link #deleteFilesOn}); the logs reach it through {@link #deleteLater}, so they follow that change.
     */
    private volatile FileDeletions deletions = FileDeletions.AT_ONCE;
    private final FileDeletions deleteLater = (what, delayMs, deletion) -> deletions.deleteLater(what, delayMs,
            deletion);
    /**
     * What paces the moves' copies: none until the broker sets its throttle ({@link #throttleMovesWith}); a move asks
     * for it at each chunk, so that one a start resumed follows that change too.
     */
    private volatile ByteThrottle moveThrottle = ByteThrottle.NONE;
    private volatile long moveThrottleBackoffMs = 1_000;
    private final Map<TopicPartition, PartitionLog> logs = new ConcurrentHashMap<>();
    /**
     * Whether {@link #startup()} opened every directory: a start that failed part way leaves logs unopened (and
     * unrecovered), which a close must not mark as shut down cleanly nor drop from the checkpoints.
     */
    private boolean started;
    /** Changed under this manager's lock; read without it too, by logs that roll on appending threads. */
    private final List<LogListener> listeners = new CopyOnWriteArrayList<>();
    /** The moves under way to another directory (Kafka's future logs), by partition; changed under this lock. */
    private final Map<TopicPartition, FutureLog> futureLogs = new ConcurrentHashMap<>();
    /**
     * Where a partition this node has no log of yet goes when its log is created: asked by an AlterReplicaLogDirs
     * before it, as Kafka's preferredLogDirs. In memory only, as Kafka's.
     */
    private final Map<TopicPartition, Path> preferredLogDirs = new ConcurrentHashMap<>();
    /** Copies the moves' files, one move at a time; made at the first move, stopped at the close. */
    private ExecutorService mover;
    /** Set at the close: a move it stops leaves its copy, which the next start takes up again, as Kafka's. */
    private volatile boolean closing;
    /** Passes each log's rolls on to the listeners. */
    private final LogListener rolls = new LogListener() {
        @Override
        public void segmentRolled(PartitionLog log) {
            listeners.forEach(listener -> listener.segmentRolled(log));
        }
    };

    /**
     * @param topicConfigs the settings for a topic's partitions (defaults plus the topic's overrides)
     * @param recoveryThreadsPerDataDir {@code num.recovery.threads.per.data.dir}: threads opening each directory's logs
     * @param producerIdExpirationMs {@code producer.id.expiration.ms}: producers idle that long by {@code clock} are
     *                               left out as each log loads its producer snapshot ({@link PartitionLog#open})
     * @param logDeleteDelayMs       {@code log.segment.delete.delay.ms}: a deleted log's directory is renamed at once
     *                               and deleted this much later, as Kafka's (which takes the broker's value for it);
     *                               asked at each deletion, as the value may change at runtime
     */
    public LogManager(List<Path> logDirs, Function<String, LogConfig> topicConfigs, Clock clock,
                      int recoveryThreadsPerDataDir, long producerIdExpirationMs, LongSupplier logDeleteDelayMs) {
        if (logDirs.isEmpty()) {
            throw new IllegalArgumentException("log.dirs is empty");
        }
        this.logDirs = List.copyOf(logDirs);
        this.topicConfigs = topicConfigs;
        this.clock = clock;
        this.recoveryThreadsPerDataDir = recoveryThreadsPerDataDir;
        this.producerIdExpirationMs = producerIdExpirationMs;
        this.logDeleteDelayMs = logDeleteDelayMs;
    }

    /**
     * Has the files the logs rename for deletion deleted by {@code scheduler} from now on (the broker's, after their
     * delay), where they were deleted at once before.
     */
    public void deleteFilesOn(FileDeletions scheduler) {
        deletions = scheduler;
    }

    /**
     * Paces the copies of replicas moving to another directory with {@code throttle} from now on (Kafka's
     * alter-log-dirs replication quota): a copy waits before each chunk while it is exceeded, asking again every
     * {@code backoffMs} ({@code replica.fetch.backoff.ms}, as Kafka's ReplicaAlterLogDirsThread backs off).
     */
    public void throttleMovesWith(ByteThrottle throttle, long backoffMs) {
        moveThrottleBackoffMs = backoffMs;
        moveThrottle = throttle;
    }

    /** Where a cluster's broker epoch comes from, for the clean-shutdown marker. */
    public void brokerEpochFrom(LongSupplier epoch) {
        brokerEpoch = epoch;
    }

    /** Locks every directory ({@code .lock}, as Kafka), then opens the logs of every directory. */
    public synchronized void startup() throws IOException {
        startup(dirs -> { });
    }

    /**
     * {@link #startup()}, running {@code lockedCheck} on the directories once their locks are held and before any
     * log is read: what checks or writes a directory's own files (meta.properties) does so only in a directory no
     * other broker is using.
     */
    public synchronized void startup(LogDirsCheck lockedCheck) throws IOException {
        locks = LogDirLocks.acquire(logDirs);
        lockedCheck.check(logDirs);
        Map<TopicPartition, Path> interruptedMoves = takeUpFutureDirs();
        for (Path logDir : logDirs) {
            long startMs = clock.millis();
            Files.createDirectories(logDir);
            Path marker = logDir.resolve(CLEAN_SHUTDOWN_FILE);
            boolean clean = Files.exists(marker);
            Map<TopicPartition, Long> recoveryPoints = checkpoint(logDir, OffsetCheckpointFile.RECOVERY_POINT).read();
            Map<TopicPartition, Long> startOffsets = checkpoint(logDir, OffsetCheckpointFile.LOG_START_OFFSET).read();
            List<Path> partitionDirs = new ArrayList<>();
            // Hidden directories hold the broker's own metadata (topic configs), not partitions.
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(logDir,
                    entry -> Files.isDirectory(entry) && !entry.getFileName().toString().startsWith("."))) {
                entries.forEach(partitionDirs::add);
            }
            List<TopicPartition> partitions = new ArrayList<>();
            Set<TopicPartition> found = new HashSet<>(); // a list's contains would make this quadratic
            for (Path partitionDir : partitionDirs) {
                if (partitionDir.getFileName().toString().endsWith(TopicPartition.DELETE_DIR_SUFFIX)) {
                    // A deleted log's directory whose delayed deletion a stop cut short.
                    log.info("Deleting {}, the directory of a deleted log", partitionDir);
                    FileDeletions.deleteDirectory(partitionDir);
                    continue;
                }
                Optional<TopicPartition> parsed = TopicPartition.parseDirName(partitionDir.getFileName().toString());
                if (parsed.isEmpty()) {
                    log.warn("Ignoring {}: not a <topic>-<partition> directory", partitionDir);
                    continue;
                }
                TopicPartition tp = parsed.get();
                if (logs.containsKey(tp) || !found.add(tp)) {
                    throw new IOException(tp + " has a log in two directories, the second in " + logDir);
                }
                partitions.add(tp);
            }
            openLogs(logDir, partitions, clean, recoveryPoints, startOffsets);
            // From here on a crash must be noticed at the next start.
            Files.deleteIfExists(marker);
            DurableFiles.fsyncDirectory(logDir);
            if (partitions.isEmpty()) {
                log.info("No partition logs in {} yet", logDir);
            } else {
                log.info("Loaded {} partition logs from {} in {} ms after {} shutdown", partitions.size(), logDir,
                        clock.millis() - startMs, clean ? "a clean" : "an unclean");
            }
        }
        started = true;
        interruptedMoves.forEach((tp, target) -> {
            PartitionLog current = logs.get(tp);
            if (current != null && !current.dir().getParent().equals(target)) {
                startMove(new FutureLog(current, target, () -> moveThrottle, () -> moveThrottleBackoffMs));
            }
        });
    }

    /**
     * The future directories ({@code <topic>-<partition>.<id>-future}) a stop left, before any log opens. Kafka
     * loads such a directory as the partition's future log and goes on moving the replica there; here the copy is
     * deleted and the move starts again once the logs are open (returned: partition to target directory). A future
     * directory whose partition has no directory of its own anywhere is one a crash left between the two renames
     * that end a move ({@link LogSegments#moveTo}), after the old directory was renamed for deletion: it is the
     * partition's log, whole and fsynced, and is renamed to its own name.
     */
    private Map<TopicPartition, Path> takeUpFutureDirs() throws IOException {
        Map<TopicPartition, Path> futureDirs = new HashMap<>();
        for (Path logDir : logDirs) {
            if (!Files.isDirectory(logDir)) {
                continue;
            }
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(logDir,
                    "*" + TopicPartition.FUTURE_DIR_SUFFIX)) {
                for (Path entry : entries) {
                    Optional<TopicPartition> tp = TopicPartition.parseFutureDirName(entry.getFileName().toString());
                    if (tp.isPresent() && Files.isDirectory(entry) && futureDirs.put(tp.get(), entry) != null) {
                        throw new IOException(tp.get() + " has a future log in two directories, the second " + entry);
                    }
                }
            }
        }
        Map<TopicPartition, Path> interrupted = new HashMap<>();
        for (Map.Entry<TopicPartition, Path> future : futureDirs.entrySet()) {
            TopicPartition tp = future.getKey();
            Path futureDir = future.getValue();
            boolean current = logDirs.stream().anyMatch(logDir -> Files.isDirectory(logDir.resolve(tp.dirName())));
            if (current) {
                log.info("Deleting {}, the copy of an unfinished move of {}; the move starts again", futureDir, tp);
                FileDeletions.deleteDirectory(futureDir);
                interrupted.put(tp, futureDir.getParent());
            } else {
                Path moved = futureDir.resolveSibling(tp.dirName());
                log.warn("Taking {} as the log of {}: a stop cut its move short after the old directory was let go",
                        futureDir, tp);
                Files.move(futureDir, moved, StandardCopyOption.ATOMIC_MOVE);
                DurableFiles.fsyncDirectory(futureDir.getParent());
            }
        }
        return interrupted;
    }

    /**
     * Opens the logs of one directory on {@code num.recovery.threads.per.data.dir} threads, as Kafka does: with
     * thousands of partitions the time goes to opening files, which threads overlap. Every log is tried; the logs
     * that did open are kept, as when they were opened one after another.
     */
    private void openLogs(Path logDir, List<TopicPartition> partitions, boolean clean,
                          Map<TopicPartition, Long> recoveryPoints, Map<TopicPartition, Long> startOffsets)
            throws IOException {
        Map<String, LogConfig> configs = new HashMap<>(); // one per topic, not one per partition
        partitions.forEach(tp -> configs.computeIfAbsent(tp.topic(), topicConfigs));
        onThreads("log-recovery-" + logDir.getFileName(), recoveryThreadsPerDataDir, partitions,
                tp -> PartitionLog.open(logDir, tp, configs.get(tp.topic()), clock,
                        recoveryPoints.getOrDefault(tp, 0L), startOffsets.getOrDefault(tp, 0L), clean,
                        producerIdExpirationMs, deleteLater),
                opened -> {
                    opened.onRoll(rolls);
                    logs.put(opened.topicPartition(), opened);
                });
    }

    /** One step of {@link #onThreads}: opening or closing one log. */
    @FunctionalInterface
    private interface LogTask<T, R> {
        R run(T item) throws IOException;
    }

    /**
     * Runs {@code task} on every item on up to {@code threads} threads (named {@code threadName-N}), hands each
     * result to {@code done} on this thread in the items' order, and then throws the first failure (in that order)
     * with the others added to it as suppressed. The pool lives only for this call.
     */
    private static <T, R> void onThreads(String threadName, int threads, List<T> items, LogTask<T, R> task,
                                         Consumer<R> done) throws IOException {
        AtomicInteger threadNumber = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, items.size())),
                runnable -> new Thread(runnable, threadName + "-" + threadNumber.incrementAndGet()));
        List<Future<R>> running = new ArrayList<>();
        for (T item : items) {
            running.add(pool.submit(() -> task.run(item)));
        }
        Throwable failure = null;
        try {
            for (Future<R> future : running) {
                try {
                    done.accept(future.get());
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause();
                    } else {
                        failure.addSuppressed(e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            pool.shutdownNow(); // the steps still running are given up with the call
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted on the " + threadName + " threads");
        } finally {
            pool.shutdown(); // every task is done: its threads end
        }
        if (failure instanceof IOException ioFailure) {
            throw ioFailure;
        } else if (failure instanceof RuntimeException runtimeFailure) {
            throw runtimeFailure;
        } else if (failure instanceof Error error) {
            throw error;
        }
    }

    public Optional<PartitionLog> log(TopicPartition tp) {
        return Optional.ofNullable(logs.get(tp));
    }

    public Collection<PartitionLog> allLogs() {
        return logs.values();
    }

    /** Adds a listener and tells it about every log already open. */
    public synchronized void addListener(LogListener listener) {
        listeners.add(listener);
        logs.values().forEach(listener::logOpened);
    }

    /**
     * Adds a listener for the logs opened and deleted from now on, and returns the logs open now, which it is not
     * told about: for a listener that takes its time over them off this lock (see {@code metrics/LogMeters}).
     */
    public synchronized List<PartitionLog> addListenerForNewLogs(LogListener listener) {
        listeners.add(listener);
        return List.copyOf(logs.values());
    }

    /** The partition's log, created empty in the least loaded directory if it has none. */
    public PartitionLog getOrCreateLog(TopicPartition tp) throws IOException {
        return getOrCreateLog(tp, topicConfigs.apply(tp.topic()));
    }

    /**
     * The partition's log, created with {@code config} if it has none yet: for a topic being created, whose config
     * the registry does not answer until its logs exist.
     */
    public synchronized PartitionLog getOrCreateLog(TopicPartition tp, LogConfig config) throws IOException {
        PartitionLog existing = logs.get(tp);
        if (existing != null) {
            return existing;
        }
        Path preferred = preferredLogDirs.remove(tp);
        Path logDir = preferred != null ? preferred : leastLoadedDir();
        PartitionLog created = PartitionLog.open(logDir, tp, config, clock, 0, 0, true, producerIdExpirationMs,
                deleteLater);
        created.onRoll(rolls);
        logs.put(tp, created);
        listeners.forEach(listener -> listener.logOpened(created));
        log.info("Created log for {} in {}", tp, logDir);
        return created;
    }

    /**
     * Deletes the partition's log: its directory is renamed at once and deleted {@code log.segment.delete.delay.ms}
     * later ({@link PartitionLog#delete}); false if it had none.
     */
    public synchronized boolean deleteLog(TopicPartition tp) throws IOException {
        PartitionLog removed = logs.remove(tp);
        if (removed == null) {
            return false;
        }
        listeners.forEach(listener -> listener.logDeleted(tp));
        cancelMove(tp);
        preferredLogDirs.remove(tp);
        removed.delete(logDeleteDelayMs.getAsLong());
        log.info("Log for {} renamed to {} and scheduled for deletion", tp, removed.dir());
        return true;
    }

    /**
     * The configured directory whose absolute path is {@code path}, as Kafka compares an AlterReplicaLogDirs path with
     * its {@code log.dirs} (absolute paths, compared as text); empty if none is.
     */
    public Optional<Path> configuredLogDir(String path) {
        for (Path logDir : logDirs) {
            if (logDir.toAbsolutePath().normalize().toString().equals(path)) {
                return Optional.of(logDir);
            }
        }
        return Optional.empty();
    }

    /**
     * Has the partition's replica go to {@code logDir} (one of {@code log.dirs}), as Kafka's alterReplicaLogDirs: a
     * move to another directory under way is cancelled (its copy deleted); a log already there stays; a log elsewhere
     * starts moving there ({@link FutureLog}) on the mover thread. False if this node has no log of the partition:
     * its log goes to {@code logDir} when it is created (Kafka's preferred log dir).
     */
    public synchronized boolean alterLogDir(TopicPartition tp, Path logDir) throws IOException {
        FutureLog moving = futureLogs.get(tp);
        if (moving != null && !moving.targetLogDir().equals(logDir)) {
            cancelMove(tp);
            moving = null;
        }
        PartitionLog current = logs.get(tp);
        if (current == null) { // and so no move either: a move starts from a log, and a log's deletion cancels it
            preferredLogDirs.put(tp, logDir);
            return false;
        }
        if (moving == null && !current.dir().getParent().equals(logDir)) {
            if (closing) {
                throw new IOException("the logs are closing: " + tp + " cannot move");
            }
            startMove(new FutureLog(current, logDir, () -> moveThrottle, () -> moveThrottleBackoffMs));
        }
        return true;
    }

    private void startMove(FutureLog future) {
        futureLogs.put(future.log().topicPartition(), future);
        if (mover == null) {
            mover = Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, "log-dir-mover");
                thread.setDaemon(true);
                return thread;
            });
        }
        log.info("Moving the log of {} from {} to {}", future.log().topicPartition(), future.log().dir().getParent(),
                future.targetLogDir());
        mover.execute(() -> move(future));
    }

    /** On the mover thread: the copy, then the swap under the log's lock; a cancelled move's copy is deleted. */
    private void move(FutureLog future) {
        TopicPartition tp = future.log().topicPartition();
        boolean moved = false;
        try {
            if (!future.isCancelled()) {
                // A truncation meanwhile (a follower cut back by its leader) voids step one's copies: copied again
                // off the lock, a few times at most, rather than all under it.
                int passes = 0;
                do {
                    future.copyClosedSegments();
                    future.copyActiveSegmentHead();
                } while (future.truncatedSinceCopy() && ++passes < MOVE_COPY_PASSES && !future.isCancelled());
                future.catchUp();
                moved = future.log().completeMove(future, logDeleteDelayMs.getAsLong());
            }
        } catch (IOException | RuntimeException e) {
            if (closing) { // the close interrupted the copy (or a throttled copy's wait): the next start resumes it
                log.info("The move of {} to {} stopped with the close of the logs", tp, future.targetLogDir());
            } else {
                log.error("Could not move the log of {} to {}; it stays in {}", tp, future.targetLogDir(),
                        future.log().dir().getParent(), e);
            }
        }
        futureLogs.remove(tp, future);
        if (moved) {
            log.info("Moved the log of {} to {}", tp, future.log().dir());
            try {
                checkpoint(); // the new directory's checkpoints name the log from now on
            } catch (IOException e) {
                log.warn("Could not checkpoint the logs after moving {}: {}", tp, e.getMessage());
            }
        } else if (!closing) {
            try {
                future.deleteDir();
            } catch (IOException e) {
                log.warn("Could not delete {}, the copy of a move that did not end: {}", future.dir(), e.getMessage());
            }
        }
    }

    /** Stops the partition's move under way, if any; the mover deletes its copy. */
    private void cancelMove(TopicPartition tp) {
        FutureLog moving = futureLogs.remove(tp);
        if (moving != null) {
            moving.cancel();
            log.info("Cancelled the move of {} to {}", tp, moving.targetLogDir());
        }
    }

    /** The moves under way (Kafka's future logs), for DescribeLogDirs. */
    public Collection<FutureLog> futureLogs() {
        return futureLogs.values();
    }

    private Path leastLoadedDir() {
        Map<Path, Integer> counts = new HashMap<>();
        logDirs.forEach(dir -> counts.put(dir, 0));
        for (PartitionLog partitionLog : logs.values()) {
            counts.merge(partitionLog.dir().getParent(), 1, Integer::sum);
        }
        Path best = logDirs.get(0);
        for (Path dir : logDirs) {
            if (counts.get(dir) < counts.get(best)) {
                best = dir;
            }
        }
        return best;
    }

    /** For the broker's scheduler: the {@code flush.ms} flushes. */
    public void flushDueLogs() {
        for (PartitionLog partitionLog : logs.values()) {
            partitionLog.flushIfDue();
        }
    }

    /** For the broker's scheduler: retention on every log. */
    public int deleteOldSegments() {
        int deleted = 0;
        for (PartitionLog partitionLog : logs.values()) {
            deleted += partitionLog.deleteOldSegments();
        }
        return deleted;
    }

    /** Flushes the logs that rolled a segment since their last flush (see {@link PartitionLog#flushIfRolled}). */
    public void flushRolledLogs() {
        for (PartitionLog partitionLog : logs.values()) {
            partitionLog.flushIfRolled();
        }
    }

    /**
     * Writes both checkpoint files of every directory (also periodically, so recovery starts late). A log start is
     * written only past the log's first segment, as Kafka writes the file: elsewhere the log starts at that
     * segment's base offset, where an open without an entry puts it.
     */
    public synchronized void checkpoint() throws IOException {
        Map<TopicPartition, Long> recoveryPoints = new HashMap<>();
        Map<TopicPartition, Long> startOffsets = new HashMap<>();
        for (PartitionLog partitionLog : logs.values()) {
            recoveryPoints.put(partitionLog.topicPartition(), partitionLog.recoveryPoint());
            long logStartOffset = partitionLog.logStartOffset();
            if (logStartOffset > partitionLog.firstSegmentBaseOffset()) {
                startOffsets.put(partitionLog.topicPartition(), logStartOffset);
            }
        }
        writePerDirectory(OffsetCheckpointFile.RECOVERY_POINT, recoveryPoints);
        writePerDirectory(OffsetCheckpointFile.LOG_START_OFFSET, startOffsets);
    }

    /** Every log's high watermark (a single node's: each log's end, as no partition is replicated). */
    public Map<TopicPartition, Long> highWatermarks() {
        Map<TopicPartition, Long> highWatermarks = new HashMap<>();
        logs.forEach((partition, log) -> highWatermarks.put(partition, log.highWatermark()));
        return highWatermarks;
    }

    /**
     * The high watermarks last checkpointed in {@code replication-offset-checkpoint}, over every directory; a
     * directory whose file is unreadable counts as having none (the high watermarks then start from the log start,
     * which hides committed records until the followers fetch, but never shows uncommitted ones).
     */
    public Map<TopicPartition, Long> checkpointedHighWatermarks() {
        return readPerDirectory(OffsetCheckpointFile.REPLICATION_OFFSET);
    }

    /**
     * Each compacted log's first dirty offset, from {@code cleaner-offset-checkpoint} in every directory; a
     * directory whose file is unreadable counts as having none (its logs are cleaned from their start again).
     */
    public Map<TopicPartition, Long> cleanerCheckpoints() {
        return readPerDirectory(OffsetCheckpointFile.CLEANER_OFFSET);
    }

    /** The checkpoint file {@code name} of every directory, merged; an unreadable one is skipped with a warning. */
    private Map<TopicPartition, Long> readPerDirectory(String name) {
        Map<TopicPartition, Long> values = new HashMap<>();
        for (Path logDir : logDirs) {
            try {
                values.putAll(checkpoint(logDir, name).read());
            } catch (IOException e) {
                log.warn("Ignoring {} of {}: {}", name, logDir, e.getMessage());
            }
        }
        return values;
    }

    /** Writes {@code cleaner-offset-checkpoint} in every directory with the first dirty offsets of its logs. */
    public synchronized void checkpointCleaner(Map<TopicPartition, Long> firstDirtyOffsets) throws IOException {
        writePerDirectory(OffsetCheckpointFile.CLEANER_OFFSET, firstDirtyOffsets);
    }

    /**
     * Writes {@code replication-offset-checkpoint} in every directory with these high watermarks of the logs it
     * holds; a partition without a log here is left out.
     */
    public synchronized void checkpointHighWatermarks(Map<TopicPartition, Long> highWatermarks) throws IOException {
        writePerDirectory(OffsetCheckpointFile.REPLICATION_OFFSET, highWatermarks);
    }

    /** Writes the checkpoint file {@code name} of every directory with the values of the logs it holds. */
    private void writePerDirectory(String name, Map<TopicPartition, Long> values) throws IOException {
        Map<Path, Map<TopicPartition, Long>> byDirectory = new HashMap<>();
        logDirs.forEach(logDir -> byDirectory.put(logDir, new HashMap<>()));
        values.forEach((tp, value) -> {
            PartitionLog partitionLog = logs.get(tp);
            Map<TopicPartition, Long> inDirectory =
                    partitionLog == null ? null : byDirectory.get(partitionLog.dir().getParent());
            if (inDirectory != null) { // a partition without a log here is left out
                inDirectory.put(tp, value);
            }
        });
        for (Path logDir : logDirs) {
            checkpoint(logDir, name).write(byDirectory.get(logDir));
        }
    }

    private static OffsetCheckpointFile checkpoint(Path logDir, String name) {
        return new OffsetCheckpointFile(logDir.resolve(name));
    }

    /**
     * Flushes and closes every log, checkpoints, and marks each directory as cleanly shut down. The logs close on
     * {@code num.recovery.threads.per.data.dir} threads per directory, as Kafka's shutdown does: each flushes and
     * may write a producer snapshot, which one thread would do ten thousand times in a row. If any log fails to
     * close, or the start failed before every log was open, no checkpoint or marker is written, so the next start
     * recovers.
     */
    @Override
    public void close() throws IOException {
        stopMoves(); // before this lock: a move ending meanwhile takes it to checkpoint
        closeUnderLock();
    }

    private synchronized void closeUnderLock() throws IOException {
        Throwable failure = null;
        try {
            closeLogs();
        } catch (Throwable e) {
            failure = e;
            throw e;
        } finally { // whatever failed, as Kafka's: the directories are free for the next start
            if (locks != null) {
                try {
                    locks.close();
                } catch (IOException e) {
                    if (failure == null) {
                        throw e;
                    }
                    failure.addSuppressed(e); // the logs' failure is the one to report
                } finally {
                    locks = null;
                }
            }
        }
    }

    /**
     * Stops the moves under way, leaving their copies for the next start ({@link #takeUpFutureDirs}), and waits for
     * the mover, which stops within a chunk of a copy, or when the swap under way has ended.
     */
    private void stopMoves() throws InterruptedIOException {
        synchronized (this) {
            closing = true;
            futureLogs.values().forEach(FutureLog::cancel);
            futureLogs.clear();
        }
        if (mover != null) {
            mover.shutdownNow();
            try {
                if (!mover.awaitTermination(1, TimeUnit.MINUTES)) {
                    log.warn("The log-dir-mover thread is still copying; closing the logs anyway");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for the log-dir-mover thread");
            }
        }
    }

    private void closeLogs() throws IOException {
        onThreads("log-close", recoveryThreadsPerDataDir * logDirs.size(), List.copyOf(logs.values()),
                partitionLog -> {
                    partitionLog.close();
                    return partitionLog;
                }, closed -> { });
        if (!started) {
            // The start failed: the logs it did not open keep their checkpoints, and all are recovered next time.
            logs.clear();
            log.warn("Closed the logs of {} without a clean-shutdown marker: their start did not finish", logDirs);
            return;
        }
        checkpoint();
        // Kafka's format; a Kafka broker given the directory reads its previous broker epoch here.
        // Its contents forced too, as Kafka's CleanShutdownFileHandler syncs them: after a power loss a marker present
        // but empty would be read as an unclean shutdown.
        String marker = "{\"version\":0,\"brokerEpoch\":" + brokerEpoch.getAsLong() + "}";
        for (Path logDir : logDirs) {
            DurableFiles.writeAtomically(logDir.resolve(CLEAN_SHUTDOWN_FILE), marker);
        }
        logs.clear();
        log.info("Closed the logs of {} cleanly", logDirs);
    }
}
