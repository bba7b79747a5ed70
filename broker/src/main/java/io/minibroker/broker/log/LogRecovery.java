package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the segments of a partition directory, recovering what a crash may have left behind.
 *
 * <p>After a clean shutdown every segment is trusted. Otherwise the segments from the one holding the
 * recovery point (the offset up to which everything was fsynced) on are revalidated batch by batch; the
 * first torn or corrupt batch ends the log: its segment is truncated there and every later segment is
 * deleted, since offsets after a hole cannot be trusted. Segments before the recovery point were flushed
 * and are trusted, but any segment whose index files are missing or corrupt has them rebuilt.
 *
 * <pre>
 * segments 0, 500, 900; recovery point 730; no clean-shutdown marker
 *   0    trusted (the next segment starts at 500 &lt;= 730)
 *   500  revalidated; torn batch at position 81234 -&gt; truncated there
 *   900  deleted
 * </pre>
 *
 * <p>It also restores the leader epoch cache of a log just opened ({@link #loadEpochCache}), adding the epochs a
 * crash kept from the checkpoint from the batches themselves. It runs while the log is opened, before anyone else
 * holds it.
 */
final class LogRecovery {
    private static final Logger log = LoggerFactory.getLogger(LogRecovery.class);
    /** The suffixes of a segment's index files: offset, time and aborted transaction index. */
    private static final List<String> INDEX_SUFFIXES = List.of(LogSegment.INDEX_SUFFIX, LogSegment.TIME_INDEX_SUFFIX,
            TransactionIndex.SUFFIX);

    private LogRecovery() {
    }

    /**
     * A log's directory as loaded: the recovered segments by base offset, never empty, the offsets of its
     * producer snapshots (from the same listing) and its {@code partition.metadata}.
     */
    record Loaded(NavigableMap<Long, LogSegment> segments, NavigableSet<Long> snapshotOffsets,
                  PartitionMetadataFile partitionMetadata) {
    }

    /**
     * Loads the segments (an empty directory, or a log whose last batch ends before {@code logStartOffset}, gets one at
     * {@code logStartOffset}), the snapshots' offsets and the partition metadata.
     */
    static Loaded load(Path dir, LogConfig config, long nowMs, long recoveryPoint, long logStartOffset,
                       boolean cleanShutdown) throws IOException {
        Set<String> names = listNames(dir);
        deleteFilesRenamedForDeletion(dir, names);
        finishCleanerSwaps(dir, names);
        List<Long> baseOffsets = scanBaseOffsets(dir, names);
        NavigableMap<Long, LogSegment> segments = new TreeMap<>();
        try {
            for (int i = 0; i < baseOffsets.size(); i++) {
                long baseOffset = baseOffsets.get(i);
                boolean flushed = i + 1 < baseOffsets.size() && baseOffsets.get(i + 1) <= recoveryPoint;
                boolean trust = cleanShutdown || flushed;
                LogSegment segment = LogSegment.open(dir, baseOffset, config, nowMs, trust, names::contains);
                segments.put(baseOffset, segment);
                if (segment.bytesCutOnOpen() > 0) {
                    deleteLaterSegments(dir, baseOffsets.subList(i + 1, baseOffsets.size()));
                    break;
                }
            }
            if (!segments.isEmpty() && segments.lastEntry().getValue().nextOffset() < logStartOffset) {
                deleteLogEndingBeforeItsStart(dir, segments, names, logStartOffset);
            }
        } catch (IOException | RuntimeException e) {
            for (LogSegment segment : segments.values()) {
                segment.close();
            }
            throw e;
        }
        if (segments.isEmpty()) {
            segments.put(logStartOffset, LogSegment.create(dir, logStartOffset, config, nowMs));
        }
        return new Loaded(segments, ProducerSnapshot.offsets(names),
                PartitionMetadataFile.read(dir, names.contains(PartitionMetadataFile.FILE_NAME)));
    }

    /**
     * The leader epoch cache of a log just opened, restored from its checkpoint and cut to the log as recovered; after
     * a crash, the epochs of the batches above the recovery point are added from the batches themselves (a leader's
     * append leaves its new epoch's checkpoint to the produce's disk work, which a crash may have cut short). Rebuilt
     * wholly from the batches' leader epochs when the checkpoint is missing or unreadable (as Kafka's recovery does).
     * Flushed before it is returned; an empty log's missing checkpoint is only created, empty.
     */
    static LeaderEpochCache loadEpochCache(PartitionLog partitionLog, boolean cleanShutdown) throws IOException {
        Path dir = partitionLog.dir();
        long logStartOffset = partitionLog.logStartOffset();
        LeaderEpochCache epochCache;
        try {
            epochCache = LeaderEpochCache.read(dir);
            epochCache.truncateFromEnd(partitionLog.logEndOffset());
            epochCache.truncateFromStart(logStartOffset);
            if (!cleanShutdown) {
                assignEpochsOfBatches(partitionLog, epochCache, Math.max(partitionLog.recoveryPoint(), logStartOffset));
            }
            epochCache.flush();
            return epochCache;
        } catch (IOException e) {
            if (partitionLog.logEndOffset() > logStartOffset || Files.exists(dir.resolve(LeaderEpochCache.FILE_NAME))) {
                log.info("Rebuilding the leader epoch cache of {} from its log: {}", partitionLog.topicPartition(),
                        e.getMessage());
            }
        }
        epochCache = LeaderEpochCache.empty(dir);
        assignEpochsOfBatches(partitionLog, epochCache, logStartOffset);
        if (partitionLog.logEndOffset() == logStartOffset) {
            epochCache.createEmpty(); // a new log: no fsync, as Kafka creates its checkpoint
        } else {
            epochCache.flush();
        }
        return epochCache;
    }

    /** Adds to the epoch cache the epochs of the log's batches from {@code offset} to its end (newer ones only). */
    private static void assignEpochsOfBatches(PartitionLog partitionLog, LeaderEpochCache epochCache, long offset) {
        long logStartOffset = partitionLog.logStartOffset();
        LogReplay.replayBatches(partitionLog, offset, batch ->
                epochCache.assign(batch.partitionLeaderEpoch(), Math.max(batch.baseOffset(), logStartOffset)));
    }

    /**
     * The names in the partition directory, created empty if missing. It is listed once: the steps below keep this
     * set in step with the renames and deletes they make, and it answers which files exist (a segment's indexes, the
     * producer snapshots, {@code partition.metadata}), since with thousands of partitions each listing or check
     * of a file is a start-up cost of its own.
     */
    static Set<String> listNames(Path dir) throws IOException {
        Set<String> names = new HashSet<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                names.add(file.getFileName().toString());
            }
        } catch (NoSuchFileException e) {
            Files.createDirectories(dir); // a new log
        }
        return names;
    }

    /**
     * Deletes the files of segments deleted before the stop whose delayed deletion it cut short ({@code .deleted},
     * {@link FileDeletions}), as Kafka's LogLoader does, after a clean stop too. {@code names} follows.
     */
    private static void deleteFilesRenamedForDeletion(Path dir, Set<String> names) throws IOException {
        for (String name : List.copyOf(names)) {
            if (name.endsWith(FileDeletions.DELETED_SUFFIX)) {
                log.info("Deleting {}, a file of a deleted segment", dir.resolve(name));
                Files.deleteIfExists(dir.resolve(name));
                names.remove(name);
            }
        }
    }

    /**
     * Finishes what the cleaner left when the broker stopped mid-swap
     * ({@link LogSegments#replaceWithCleanedCopy}): a {@code .log.swap} file is a whole cleaned copy, so it and its
     * index files replace the segment's; any other {@code .swap} or {@code .cleaned} file is part of a copy never
     * finished, and is deleted. {@code names} follows the changes.
     */
    private static void finishCleanerSwaps(Path dir, Set<String> names) throws IOException {
        String logSwap = LogSegment.LOG_SUFFIX + LogCleaner.SWAP_SUFFIX;
        for (String name : List.copyOf(names)) {
            Optional<Long> baseOffset = name.endsWith(logSwap) ? parseBaseOffset(name, logSwap) : Optional.empty();
            if (baseOffset.isPresent()) {
                Path[] swap = LogSegment.files(dir, baseOffset.get(), LogCleaner.SWAP_SUFFIX);
                Path[] target = LogSegment.files(dir, baseOffset.get(), "");
                for (int i = swap.length - 1; i >= 0; i--) {
                    String targetName = target[i].getFileName().toString();
                    if (names.remove(swap[i].getFileName().toString())) {
                        Files.move(swap[i], target[i], StandardCopyOption.REPLACE_EXISTING);
                        names.add(targetName);
                    } else if (i > 0 && !targetName.endsWith(TransactionIndex.SUFFIX)) {
                        // Moved before, or lost: rebuilt from the log. Not a .txnindex: its .swap is missing only
                        // because it was moved (the copy has one whenever the segment had one), and nothing would
                        // rebuild a cleaned segment's aborted entries (the replay starts at a snapshot past them).
                        Files.deleteIfExists(target[i]);
                        names.remove(targetName);
                    }
                }
                log.info("Finished the cleaner's swap of segment {} of {}", baseOffset.get(), dir);
            }
        }
        for (String name : List.copyOf(names)) {
            if (name.endsWith(LogCleaner.SWAP_SUFFIX) || name.endsWith(LogCleaner.CLEANED_SUFFIX)) {
                log.info("Deleting {}, part of a cleaning a stop cut short", dir.resolve(name));
                Files.deleteIfExists(dir.resolve(name));
                names.remove(name);
            }
        }
    }

    /**
     * The checkpointed log start lies past the last batch: a truncation into a gap ended the log there, past its last
     * batch, and DeleteRecords (or a leader's log start) moved the start up to that end. As Kafka's LogLoader does, the
     * log restarts empty at its checkpointed start rather than back at its last batch's end: every segment goes, and
     * with them the leader epochs and the producer snapshots (first, so a crash part way leaves none of them for the
     * next open to take for the empty log's).
     */
    private static void deleteLogEndingBeforeItsStart(Path dir, NavigableMap<Long, LogSegment> segments,
                                                      Set<String> names, long logStartOffset) throws IOException {
        log.warn("The log start offset {} of {} is past its last batch's end {}: deleting its segments, it restarts "
                + "empty there", logStartOffset, dir, segments.lastEntry().getValue().nextOffset());
        for (String name : List.copyOf(names)) {
            if (name.equals(LeaderEpochCache.FILE_NAME) || name.endsWith(ProducerSnapshot.SUFFIX)) {
                Files.deleteIfExists(dir.resolve(name));
                names.remove(name);
            }
        }
        for (LogSegment segment : segments.values()) {
            segment.closeAndDelete();
        }
        segments.clear();
    }

    private static void deleteLaterSegments(Path dir, List<Long> baseOffsets) throws IOException {
        for (long baseOffset : baseOffsets) {
            log.warn("Recovery deleted segment {} of {}: it follows a truncated segment", baseOffset, dir);
            for (Path file : LogSegment.files(dir, baseOffset, "")) { // its .txnindex too
                Files.deleteIfExists(file);
            }
        }
    }

    /** The suffix of a segment's index file (offset, time or aborted transaction index), null for any other name. */
    private static String indexSuffix(String name) {
        for (String suffix : INDEX_SUFFIXES) {
            if (name.endsWith(suffix)) {
                return suffix;
            }
        }
        return null;
    }

    /**
     * The base offsets of the {@code .log} files, ascending. Index files without a log (left by a crash
     * between deletes) are removed, as are temporary files.
     */
    private static List<Long> scanBaseOffsets(Path dir, Set<String> names) throws IOException {
        List<Long> baseOffsets = new ArrayList<>();
        List<String> orphans = new ArrayList<>();
        for (String name : names) {
            String suffix = indexSuffix(name);
            if (name.endsWith(LogSegment.LOG_SUFFIX)) {
                parseBaseOffset(name, LogSegment.LOG_SUFFIX).ifPresent(baseOffsets::add);
            } else if (suffix != null) {
                Long baseOffset = parseBaseOffset(name, suffix).orElse(null);
                if (baseOffset != null && !names.contains(LogSegment.fileName(baseOffset, LogSegment.LOG_SUFFIX))) {
                    orphans.add(name);
                }
            } else if (name.endsWith(".tmp")) {
                orphans.add(name);
            }
        }
        for (String orphan : orphans) {
            log.info("Deleting stray file {}", dir.resolve(orphan));
            Files.deleteIfExists(dir.resolve(orphan));
            names.remove(orphan);
        }
        baseOffsets.sort(null);
        return baseOffsets;
    }

    private static Optional<Long> parseBaseOffset(String name, String suffix) {
        String digits = name.substring(0, name.length() - suffix.length());
        if (digits.length() != 20 || !digits.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(digits));
    }
}
