package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The segments of one partition's log by base offset (Kafka's LogSegments), the last of them the active segment,
 * which takes appends. It owns the map, the active segment and the partition directory's files: what changes them
 * as a whole (a roll, dropping segments from either end, the cleaner's crash-safe swap, starting afresh, deleting
 * the directory) and a flush's fsync of the segments. The offsets, and when to do any of it, are its log's;
 * {@link LogReader} reads across the segments, {@link LogRetention} picks which go from the start.
 *
 * <p>Threading: the changes are made under the log's monitor only (one writer at a time), as are the listings for
 * a flush and for the cleaner; {@link #sync} runs without it, so an append never waits for an fsync, and so do the
 * deletions of dropped segments' files and of a deleted log's directory, which the monitor only renames
 * ({@link FileDeletions}). Lookups take no lock: they walk a concurrent map, so a read finds its segment while the
 * writer rolls, deletes or swaps.
 */
final class LogSegments {
    private static final Logger log = LoggerFactory.getLogger(LogSegments.class);

    private final TopicPartition topicPartition;
    /**
     * The partition directory; renamed when the log is deleted ({@link #renameDirectoryForDeletion}), another one
     * when it moves to another of {@code log.dirs} ({@link #moveTo}).
     */
    private volatile Path dir;
    private final ConcurrentSkipListMap<Long, LogSegment> segments;
    private volatile LogSegment active;
    /** Deletes the files of the segments dropped, and of the directory, after their delay, off the log's lock. */
    private final FileDeletions deletions;

    LogSegments(TopicPartition topicPartition, Path dir, NavigableMap<Long, LogSegment> loaded,
                FileDeletions deletions) {
        this.topicPartition = topicPartition;
        this.dir = dir;
        this.deletions = deletions;
        this.segments = new ConcurrentSkipListMap<>(loaded);
        this.active = segments.lastEntry().getValue();
    }

    /** The segment that takes appends: the last one. */
    LogSegment active() {
        return active;
    }

    LogSegment first() {
        return segments.firstEntry().getValue();
    }

    long firstBaseOffset() {
        return segments.firstKey();
    }

    LogSegment get(long baseOffset) {
        return segments.get(baseOffset);
    }

    Map.Entry<Long, LogSegment> floorEntry(long offset) {
        return segments.floorEntry(offset);
    }

    Map.Entry<Long, LogSegment> higherEntry(long baseOffset) {
        return segments.higherEntry(baseOffset);
    }

    /** Every segment, oldest first (a live view). */
    Collection<LogSegment> all() {
        return segments.values();
    }

    /** The segments from the one at {@code baseOffset} on, oldest first (a live view). */
    Collection<LogSegment> from(long baseOffset) {
        return segments.tailMap(baseOffset).values();
    }

    int count() {
        return segments.size();
    }

    Iterator<Long> baseOffsets() {
        return segments.keySet().iterator();
    }

    /** The segments a flush syncs: those holding offsets at or past {@code offset}, and the active one. */
    List<LogSegment> reachingPast(long offset) {
        List<LogSegment> found = new ArrayList<>();
        for (LogSegment segment : segments.values()) {
            if (segment.nextOffset() > offset || segment == active) {
                found.add(segment);
            }
        }
        return found;
    }

    /**
     * The segments the cleaner may clean, oldest first, with their sizes now and the log's truncation count: those
     * before the active segment that end at or below {@code limit}.
     */
    List<PartitionLog.CleanableSegment> cleanableBelow(long limit, long truncations) {
        List<PartitionLog.CleanableSegment> cleanable = new ArrayList<>();
        for (LogSegment segment : segments.values()) {
            if (segment == active || segment.nextOffset() > limit) {
                break;
            }
            cleanable.add(new PartitionLog.CleanableSegment(segment, segment.size(), truncations));
        }
        return cleanable;
    }

    /** Bytes in all segments. */
    long size() {
        long total = 0;
        for (LogSegment segment : segments.values()) {
            total += segment.size();
        }
        return total;
    }

    /** Starts a new active segment at {@code baseOffset}, once the log has ended the last one. */
    void roll(long baseOffset, LogConfig config, long now) throws IOException {
        LogSegment next = LogSegment.create(dir, baseOffset, config, now);
        segments.put(baseOffset, next);
        active = next;
    }

    /** Takes the first segment out of the map (the caller deletes it: {@link #deleteLater}). */
    LogSegment removeFirst() {
        return segments.pollFirstEntry().getValue();
    }

    /**
     * Deletes segments taken out of the map as Kafka does (deleteSegmentFiles, asynchronously): their files are renamed
     * {@code .deleted} now, under the log's lock, and deleted {@code delayMs} ({@code file.delete.delay.ms}) later by
     * {@link FileDeletions}, so that no append or read of the partition waits for the unlinks of large files.
     */
    void deleteLater(List<LogSegment> removed, long delayMs) throws IOException {
        for (LogSegment segment : removed) {
            segment.renameForDeletion();
        }
        deletions.deleteLater("segments " + removed.stream().map(LogSegment::baseOffset)
                .toList() + " of " + topicPartition, delayMs, () -> {
                    for (LogSegment segment : removed) {
                        segment.deleteFiles();
                    }
                });
    }

    /**
     * Deletes the segments at or past {@code offset} ({@link #deleteLater}) and truncates the one before, which becomes
     * the active segment, at the batch holding {@code offset}; returns the bytes cut from it. A segment must start
     * below {@code offset}.
     */
    int truncateTo(long offset, long deleteDelayMs) throws IOException {
        List<LogSegment> removed = new ArrayList<>();
        while (segments.lastKey() >= offset) {
            removed.add(segments.pollLastEntry().getValue());
        }
        deleteLater(removed, deleteDelayMs);
        active = segments.lastEntry().getValue();
        return active.truncateTo(offset);
    }

    /** Deletes every segment ({@link #deleteLater}) and starts an empty active one at {@code offset}. */
    void restartAt(long offset, LogConfig config, long now) throws IOException {
        List<LogSegment> removed = List.copyOf(segments.values());
        segments.clear();
        deleteLater(removed, config.fileDeleteDelayMs());
        LogSegment fresh = LogSegment.create(dir, offset, config, now);
        segments.put(offset, fresh);
        active = fresh;
    }

    /**
     * Closes every segment and renames the directory as Kafka's deletion of a topic's partition does, to
     * {@code <topic>-<partition>.<id>-delete} (the topic name cut so the name stays within 255 characters), which
     * {@link FileDeletions} deletes {@code delayMs} ({@code log.segment.delete.delay.ms}) later with all it holds,
     * off the log's lock ({@link #deleteDirectoryIfEmpty} last). The directory's name is free at once for a topic
     * of the same name.
     */
    void renameDirectoryForDeletion(long delayMs) throws IOException {
        for (LogSegment segment : segments.values()) {
            segment.closeForDeletion();
        }
        segments.clear();
        Path renamed = dir.resolveSibling(topicPartition.deleteDirName());
        Files.move(dir, renamed, StandardCopyOption.ATOMIC_MOVE);
        dir = renamed;
        deletions.deleteLater("the deleted log directory " + renamed, delayMs, () -> {
            FileDeletions.deleteContents(renamed);
            deleteDirectoryIfEmpty();
        });
    }

    /**
     * The last step of a move to another directory, under the log's lock, once {@code futureDir} holds a whole,
     * fsynced copy of every segment: this directory is renamed {@code <topic>-<partition>.<id>-delete} (so that a
     * crash from here on finds the partition in one directory only, the future one, which the next start takes, see
     * {@link LogManager#startup}), then {@code futureDir} becomes {@code finalDir}, the segments are opened there and
     * put in the old ones' places, and the old ones let go of their files (a read holding one reads on, whole). The
     * old directory is deleted {@code delayMs} later, as Kafka deletes the source of a move. A failure before the
     * segments are swapped puts both directories back.
     */
    void moveTo(Path futureDir, Path finalDir, LogConfig config, long now, long delayMs) throws IOException {
        Path oldDir = dir;
        Path renamed = oldDir.resolveSibling(topicPartition.deleteDirName());
        NavigableMap<Long, LogSegment> reopened = new TreeMap<>();
        Files.move(oldDir, renamed, StandardCopyOption.ATOMIC_MOVE);
        try {
            DurableFiles.fsyncDirectory(oldDir.getParent());
            Files.move(futureDir, finalDir, StandardCopyOption.ATOMIC_MOVE);
            try {
                DurableFiles.fsyncDirectory(finalDir.getParent());
                for (LogSegment segment : segments.values()) {
                    reopened.put(segment.baseOffset(), LogSegment.open(finalDir, segment.baseOffset(), config, now,
                            true));
                }
            } catch (IOException | RuntimeException e) {
                for (LogSegment segment : reopened.values()) {
                    segment.closeForDeletion();
                }
                Files.move(finalDir, futureDir, StandardCopyOption.ATOMIC_MOVE);
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            Files.move(renamed, oldDir, StandardCopyOption.ATOMIC_MOVE);
            throw e;
        }
        List<LogSegment> old = List.copyOf(segments.values());
        dir = finalDir;
        segments.putAll(reopened);
        active = segments.lastEntry().getValue();
        for (LogSegment segment : old) {
            segment.closeForDeletion();
        }
        deletions.deleteLater("the directory " + renamed + " of a log moved to " + finalDir.getParent(), delayMs,
                () -> FileDeletions.deleteDirectory(renamed));
    }

    /** The partition directory: renamed for deletion once the log is deleted. */
    Path dir() {
        return dir;
    }

    /**
     * The last step of a deletion. The cleaner may be writing a copy of a segment into the directory right now; it
     * finds the log deleted when it tries to swap the copy in, deletes it, and comes here to finish.
     */
    void deleteDirectoryIfEmpty() throws IOException {
        try {
            Files.deleteIfExists(dir);
        } catch (DirectoryNotEmptyException e) {
            log.info("{} still holds the cleaner's copy of a segment; the cleaner deletes it", dir);
        }
    }

    /** Deletes the files of a cleaned copy of the segment at {@code baseOffset} that will not be swapped in. */
    void deleteCleanedCopy(long baseOffset) throws IOException {
        for (Path file : LogSegment.files(dir, baseOffset, LogCleaner.CLEANED_SUFFIX)) {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Fsyncs {@code unsynced} (a flush's, noted under the log's lock; this runs without it). A segment that
     * retention, truncation or deletion closed under the sync no longer holds data to keep.
     */
    void sync(List<LogSegment> unsynced) {
        for (LogSegment segment : unsynced) {
            try {
                segment.flush();
            } catch (ClosedByInterruptException e) {
                // Not a segment retention or truncation let go: an interrupt closed the channel under this flush.
                throw LogException.storageError(topicPartition, "cannot flush: the flushing thread was interrupted", e);
            } catch (ClosedChannelException e) {
                // Closed by retention, truncation or deletion: nothing of it is left to make durable.
            } catch (IOException e) {
                throw LogException.storageError(topicPartition, "cannot flush", e);
            }
        }
    }

    /** Closes every segment, going on past a failure; the last failure is thrown. */
    void closeAll() throws IOException {
        IOException failure = null;
        for (LogSegment segment : segments.values()) {
            try {
                segment.close();
            } catch (IOException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Puts the cleaner's copy of {@code old} (written to {@code .cleaned} files at the same base offset, flushed and
     * closed) in its place. Crash-safe by Kafka's renames: each {@code .cleaned} file becomes {@code .swap}, the log
     * file's last, so a {@code .log.swap} file says the copy is whole; then each {@code .swap} file replaces its
     * original, the log file's last ({@link LogRecovery} finishes a swap a crash cut short). The copy keeps the old
     * file's modification time, as Kafka's cleaner keeps it. The old segment is closed: a read already holding its file
     * reads on from it, one that had not yet taken it reads the copy.
     */
    void replaceWithCleanedCopy(LogSegment old, LogConfig config, long now) throws IOException {
        long baseOffset = old.baseOffset();
        Path[] copy = LogSegment.files(dir, baseOffset, LogCleaner.CLEANED_SUFFIX);
        long lastModified = old.lastModifiedMs();
        Path[] swap = LogSegment.files(dir, baseOffset, LogCleaner.SWAP_SUFFIX);
        Path[] target = LogSegment.files(dir, baseOffset, "");
        try {
            for (int i = copy.length - 1; i >= 0; i--) { // the log file last: its .swap name marks a whole copy
                if (i != 0 && !Files.exists(copy[i])) {
                    continue; // no transaction index: the segment had none either (a cleaning only drops entries)
                }
                Files.move(copy[i], swap[i], StandardCopyOption.ATOMIC_MOVE);
            }
            DurableFiles.fsyncDirectory(dir);
        } catch (IOException e) {
            for (int i = 0; i < copy.length; i++) {
                Files.deleteIfExists(copy[i]);
                Files.deleteIfExists(swap[i]);
            }
            throw e;
        }
        try {
            for (int i = swap.length - 1; i >= 0; i--) {
                if (i == 0 || Files.exists(swap[i])) {
                    Files.move(swap[i], target[i], StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.setLastModifiedTime(target[0], FileTime.fromMillis(lastModified));
            DurableFiles.fsyncDirectory(dir);
        } catch (IOException e) {
            // Part swapped: keep serving the old segment (its files are open), and leave the disk as a restart
            // rebuilds it: no .swap file to bring back, indexes (which may be the copy's) deleted to be rebuilt.
            for (int i = 0; i < swap.length; i++) {
                Files.deleteIfExists(swap[i]);
            }
            for (int i = 1; i < target.length; i++) {
                Files.deleteIfExists(target[i]);
            }
            // Not so the .txnindex, which a restart would not rebuild (it replays from a producer snapshot past
            // this segment): written back from the old segment's entries, which cover either log file (the copy
            // keeps a subset of them, and the markers of all).
            try (TransactionIndex restored = TransactionIndex.open(LogSegment.txnIndexPath(dir, baseOffset, ""))) {
                if (!old.txnIndex().entries().isEmpty()) {
                    restored.rewrite(old.txnIndex().entries());
                }
            }
            throw LogException.storageError(topicPartition, "cannot swap in the cleaned copy of segment "
                    + baseOffset, e);
        }
        segments.put(baseOffset, LogSegment.open(dir, baseOffset, config, now, true));
        old.close();
    }
}
