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
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;
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
 * a flush and for the cleaner; {@link #sync} runs without it, so an append never waits for an fsync. Lookups take
 * no lock: they walk a concurrent map, so a read finds its segment while the writer rolls, deletes or swaps.
 */
final class LogSegments {
    private static final Logger log = LoggerFactory.getLogger(LogSegments.class);

    private final TopicPartition topicPartition;
    private final Path dir;
    private final ConcurrentSkipListMap<Long, LogSegment> segments;
    private volatile LogSegment active;

    LogSegments(TopicPartition topicPartition, Path dir, NavigableMap<Long, LogSegment> loaded) {
        this.topicPartition = topicPartition;
        this.dir = dir;
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

    /** Whether the first segment may be deleted: it is not the active one. */
    boolean firstIsDeletable() {
        return segments.firstEntry().getValue() != active;
    }

    /** Where the segment after the first starts; only while {@link #firstIsDeletable()}. */
    long secondBaseOffset() {
        return segments.higherKey(segments.firstKey());
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

    /** Takes the first segment out of the map (the caller deletes it). */
    LogSegment removeFirst() {
        return segments.pollFirstEntry().getValue();
    }

    /**
     * Deletes the segments at or past {@code offset} and truncates the one before, which becomes the active segment,
     * at the batch holding {@code offset}; returns the bytes cut from it. A segment must start below {@code offset}.
     */
    int truncateTo(long offset) throws IOException {
        while (segments.lastKey() >= offset) {
            segments.pollLastEntry().getValue().closeAndDelete();
        }
        active = segments.lastEntry().getValue();
        return active.truncateTo(offset);
    }

    /** Deletes every segment and starts an empty active one at {@code offset}. */
    void restartAt(long offset, LogConfig config, long now) throws IOException {
        deleteAll();
        LogSegment fresh = LogSegment.create(dir, offset, config, now);
        segments.put(offset, fresh);
        active = fresh;
    }

    /** Closes and deletes every segment's files; the map is left empty. */
    void deleteAll() throws IOException {
        for (LogSegment segment : segments.values()) {
            segment.closeAndDelete();
        }
        segments.clear();
    }

    /**
     * Deletes every segment and whatever else the directory holds, then the directory unless the cleaner is writing
     * a copy into it ({@link #deleteDirectoryIfEmpty}).
     */
    void deleteDirectory() throws IOException {
        deleteAll();
        try (Stream<Path> leftovers = Files.walk(dir)) {
            for (Path path : leftovers.sorted(Comparator.reverseOrder()).toList()) {
                if (!path.equals(dir)) {
                    Files.deleteIfExists(path);
                }
            }
        }
        deleteDirectoryIfEmpty();
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
