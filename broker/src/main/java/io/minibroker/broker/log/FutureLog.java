package io.minibroker.broker.log;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A partition's log on its way to another directory of {@code log.dirs}: Kafka's future replica, in a directory of
 * Kafka's name {@code <topic>-<partition>.<id>-future} beside the target's partitions, which becomes
 * {@code <topic>-<partition>} when the move ends.
 *
 * <p>Kafka fills its future log as a follower of the current one, fetching batches on a ReplicaAlterLogDirsThread,
 * and swaps the two once the future log has caught up. Here the copy is of files, in two steps, because a segment
 * that has rolled never changes in place (the cleaner replaces it by a new segment, retention and truncation drop it,
 * all of which show as another segment object or a truncation count moved on):
 * <ol>
 *   <li>{@link #copyClosedSegments} copies every segment but the active one, file for file, each fsynced as it is
 *       copied, without the log's lock, while the partition keeps taking appends and serving reads, and notes which
 *       segment objects it copied and their sizes; {@link #copyActiveSegmentHead} then copies the active segment's
 *       log file as far as it is written, also without the lock;</li>
 *   <li>{@link #catchUp} then copies, still without the lock, what was appended meanwhile, a pass at a time, until a
 *       pass finds less than a chunk ({@value #COPY_CHUNK_BYTES} bytes) to copy, and waits for the throttle;</li>
 *   <li>{@link PartitionLog#completeMove} then holds the log's lock for the rest: the bytes appended to a segment
 *       since its copy (a log file only grows while it is the same segment object and the log was not truncated),
 *       the active segment's indexes, a segment that appeared since (all of them again after a truncation), the
 *       producer snapshots, the leader epochs and {@code partition.metadata}, each fsynced, swaps the directories
 *       and reopens the segments from the new one. Appends to this one partition wait for that: what was appended
 *       during step one and the active segment's indexes, not the segments' bytes copied before.</li>
 * </ol>
 * A follower's copy would re-validate and rewrite every batch, and need its own fetch loop beside the replica
 * fetchers; the files are already Kafka's, so copying them keeps the segments, indexes and snapshots as they were.
 *
 * <p>{@code replica.alter.log.dirs.io.max.bytes.per.second} throttles the whole copy, as Kafka's alter-log-dirs
 * quota throttles its future replica's fetches until the swap: no chunk of a segment's log is copied while the
 * throttle is exceeded, and every byte of log copied is counted against it, step two's too (which waits for it
 * before taking the lock, then copies the little left unheld, as appends wait). What is counted is the segments'
 * log bytes, Kafka's record bytes ({@code ReplicaAlterLogDirsThread} records each fetched partition's
 * {@code records.sizeInBytes()}); the indexes and snapshots, which Kafka's future replica writes for itself, are
 * copied without being counted or held.
 */
public final class FutureLog {
    /**
     * How much one transfer copies: Kafka's future replica fetches at most {@code replica.fetch.max.bytes} (1 MB by
     * default) at a time and checks its throttle between fetches; a cancel stops the copy between chunks too.
     */
    private static final long COPY_CHUNK_BYTES = 1 << 20;

    private final PartitionLog log;
    private final Path targetLogDir;
    private final Path dir;
    /** The segments copied and their sizes then: a segment still in the log, the same object and size, is copied. */
    private final Map<LogSegment, Integer> copied = new HashMap<>();
    /** Segments whose log was copied while they were active, without their indexes (which grow with them). */
    private final Set<LogSegment> withoutIndexes = new HashSet<>();
    /** The log's truncation count when {@link #copyClosedSegments} began: a truncation since has all copied again. */
    private long truncationsAtCopy = -1;
    private volatile boolean cancelled;
    /** Paces the copy ({@code replica.alter.log.dirs.io.max.bytes.per.second}); step two is counted, not held. */
    private final Supplier<ByteThrottle> throttle;
    /** How long the copy waits before asking the throttle again, as Kafka's fetcher backs off when it may not fetch. */
    private final LongSupplier throttleBackoffMs;
    /** What a throttled copy waits on: {@link #cancel} wakes it. */
    private final Object pacing = new Object();
    /**
     * Bytes of log copied by step one and the offset the copied segments reach: what DescribeLogDirs tells of the
     * future replica (step two, under the log's lock, ends with the move, and the log is listed in its new place).
     */
    private volatile long copiedBytes;
    private volatile long copiedEndOffset;

    FutureLog(PartitionLog log, Path targetLogDir, Supplier<ByteThrottle> throttle, LongSupplier throttleBackoffMs) {
        this.log = log;
        this.targetLogDir = targetLogDir;
        this.throttle = throttle;
        this.throttleBackoffMs = throttleBackoffMs;
        this.dir = targetLogDir.resolve(log.topicPartition().futureDirName());
        this.copiedEndOffset = log.logStartOffset();
    }

    /** The log being moved: the current replica. */
    public PartitionLog log() {
        return log;
    }

    /** The directory of {@code log.dirs} the log moves to. */
    public Path targetLogDir() {
        return targetLogDir;
    }

    Path dir() {
        return dir;
    }

    /** Bytes of segments copied so far: the future replica's size. */
    public long copiedBytes() {
        return copiedBytes;
    }

    /** The offset the segments copied so far reach: the future replica's log end. */
    public long copiedEndOffset() {
        return copiedEndOffset;
    }

    boolean isCancelled() {
        return cancelled;
    }

    /** Stops the copy at its next chunk; the caller deletes the directory ({@link #deleteDir}). */
    void cancel() {
        synchronized (log) { // not while the move ends under the log's lock: it finishes or never starts
            cancelled = true;
        }
        synchronized (pacing) {
            pacing.notifyAll();
        }
    }

    /** Step one, without the log's lock: every segment but the active one, as the log has them now. */
    void copyClosedSegments() throws IOException {
        Files.createDirectories(dir);
        truncationsAtCopy = log.truncationCount();
        copied.clear(); // a second pass, after a truncation, copies them all again
        withoutIndexes.clear();
        copiedBytes = 0;
        copiedEndOffset = log.logStartOffset();
        List<LogSegment> closed = log.closedSegments();
        for (LogSegment segment : closed) {
            if (cancelled) {
                return;
            }
            int size = segment.size();
            try {
                copySegment(segment, 0, size, Pacing.PACED);
            } catch (IOException e) {
                if (log.hasSegment(segment)) {
                    throw e;
                }
                continue; // retention or the cleaner took it meanwhile: the log has no use for its copy
            }
            copied.put(segment, size);
            copiedBytes += size;
            copiedEndOffset = Math.max(copiedEndOffset, segment.nextOffset());
        }
    }

    /**
     * Whether the log was truncated since {@link #copyClosedSegments} began: then step two would copy every segment
     * again under the log's lock, and step one is better run again first.
     */
    boolean truncatedSinceCopy() {
        return log.truncationCount() != truncationsAtCopy;
    }

    /**
     * The end of step one, still without the log's lock: the active segment's log file as far as it is written now,
     * so that step two copies only what is appended after it (and the segment's indexes, which change as it grows).
     */
    void copyActiveSegmentHead() throws IOException {
        LogSegment active = log.activeSegment();
        long endOffset = active.nextOffset(); // read before the size: the bytes copied reach at least this offset
        int size = active.size();
        if (cancelled) {
            return;
        }
        copyFile(active.logPath(), LogSegment.files(dir, active.baseOffset(), "")[0], 0, size, Pacing.PACED);
        copied.put(active, size);
        withoutIndexes.add(active);
        copiedBytes += size;
        copiedEndOffset = Math.max(copiedEndOffset, endOffset);
    }

    /**
     * Between the steps, without the log's lock: copies what was appended since, paced, a pass at a time (the rest
     * of each segment copied before, segments rolled since, the active segment's log as far as it is written), until
     * a pass finds less than a chunk to copy, then waits for the throttle; so only that little, and what comes
     * meanwhile, is left to step two. As Kafka's future replica, which fetches, throttled, until it has caught up:
     * appends faster than the throttle allows keep it from ending. Stops at a truncation (step two copies it all
     * again, see {@link #truncatedSinceCopy}) or a cancel.
     */
    void catchUp() throws IOException {
        long copiedByPass;
        do {
            if (cancelled || truncatedSinceCopy() || log.isDeleted()) {
                return;
            }
            long before = copiedBytes;
            for (LogSegment segment : log.closedSegments()) {
                copyAppended(segment, true);
            }
            copyAppended(log.activeSegment(), false);
            copiedByPass = copiedBytes - before;
        } while (copiedByPass >= COPY_CHUNK_BYTES);
        awaitThrottle();
    }

    /**
     * What {@code segment}'s log holds past its copy, paced; a {@code closed} one's indexes too, now final (one copied
     * while it was active, and rolled since, has none copied yet). A segment the log dropped meanwhile is skipped.
     */
    private void copyAppended(LogSegment segment, boolean closed) throws IOException {
        Integer copiedSize = copied.get(segment);
        int from = copiedSize == null ? 0 : copiedSize;
        long endOffset = segment.nextOffset(); // read before the size: the bytes copied reach at least this offset
        int size = segment.size();
        if (cancelled || from > size || (from == size && (!closed || !withoutIndexes.contains(segment)))) {
            return; // nothing new; or cut since (a truncation), which step two copies again
        }
        try {
            if (closed) {
                copySegment(segment, from, size, Pacing.PACED);
            } else {
                copyFile(segment.logPath(), LogSegment.files(dir, segment.baseOffset(), "")[0], from, size,
                        Pacing.PACED);
            }
        } catch (IOException e) {
            if (log.hasSegment(segment)) {
                throw e;
            }
            return; // retention or the cleaner took it meanwhile
        }
        copied.put(segment, size);
        if (closed) {
            withoutIndexes.remove(segment);
        } else {
            withoutIndexes.add(segment);
        }
        copiedBytes += size - from;
        copiedEndOffset = Math.max(copiedEndOffset, endOffset);
    }

    /**
     * Step two's copy, under the log's lock: what step one did not copy of each segment as it is now (only the bytes
     * appended since, for a segment copied before, the same object, in a log not truncated since) and the directory's
     * other files; the copies of segments the log no longer has are deleted. Everything is fsynced.
     */
    void copyRemainingUnderLock(LogSegments segments, long truncations) throws IOException {
        boolean truncated = truncations != truncationsAtCopy;
        Set<String> kept = new HashSet<>();
        for (LogSegment segment : segments.all()) {
            Integer size = copied.get(segment);
            if (truncated || size == null || size > segment.size()) {
                segment.writeIndexesOut();
                copySegment(segment, 0, segment.size(), Pacing.COUNTED);
            } else if (size < segment.size() || segment == segments.active() || withoutIndexes.contains(segment)) {
                segment.writeIndexesOut();
                copySegment(segment, size, segment.size(), Pacing.COUNTED);
            }
            for (Path file : LogSegment.files(dir, segment.baseOffset(), "")) {
                kept.add(file.getFileName().toString());
            }
        }
        // Copies of segments the log dropped meanwhile.
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                if (!kept.contains(file.getFileName().toString())) {
                    Files.delete(file);
                }
            }
        }
        // The producer snapshots; the leader epochs and partition.metadata are written by their owners as they move.
        try (DirectoryStream<Path> files = Files.newDirectoryStream(segments.dir(), "*" + ProducerSnapshot.SUFFIX)) {
            for (Path file : files) {
                copyFile(file, dir.resolve(file.getFileName()), 0, Files.size(file), Pacing.NONE);
            }
        }
    }

    /** Deletes the directory and what it holds: a cancelled move's, or one that failed. */
    void deleteDir() throws IOException {
        FileDeletions.deleteDirectory(dir);
    }

    /**
     * The segment's files: its log file's bytes from {@code from} (those before are copied already) up to
     * {@code size}, its indexes whole; an index file it has not written is left out.
     */
    private void copySegment(LogSegment segment, int fromByte, int size, Pacing pacing) throws IOException {
        Path[] from = LogSegment.files(segment.logPath().getParent(), segment.baseOffset(), "");
        Path[] to = LogSegment.files(dir, segment.baseOffset(), "");
        copyFile(from[0], to[0], fromByte, size, pacing);
        for (int i = 1; i < from.length; i++) {
            if (Files.exists(from[i])) {
                copyFile(from[i], to[i], 0, Files.size(from[i]), Pacing.NONE);
            } else {
                Files.deleteIfExists(to[i]);
            }
        }
    }

    /** How a file's copy stands to the throttle. */
    private enum Pacing {
        /** A segment's log off the log's lock: each chunk waits while the throttle is exceeded, and is counted. */
        PACED,
        /** A segment's log under the log's lock (step two): counted, never held, as appends wait for it. */
        COUNTED,
        /** Indexes and snapshots: Kafka's future replica writes its own, which its quota does not count. */
        NONE
    }

    /**
     * The bytes of {@code from} from {@code fromByte} up to {@code size} into {@code to} at the same place ({@code to}
     * cut to {@code fromByte} first: its bytes before are those copied earlier), in chunks that a cancel stops
     * between, fsynced: a copy made before the swap is then on disk before the swap's lock is taken, not forced under
     * it; each chunk waits for the throttle and is counted against it as {@code pacing} says.
     */
    private void copyFile(Path from, Path to, long fromByte, long size, Pacing pacing) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            out.truncate(fromByte);
            out.position(fromByte);
            long position = fromByte;
            while (position < size && !cancelled) {
                if (pacing == Pacing.PACED && !awaitThrottle()) {
                    break;
                }
                long moved = in.transferTo(position, Math.min(COPY_CHUNK_BYTES, size - position), out);
                if (moved <= 0) {
                    throw new IOException(from + " ended at " + position + " of the " + size + " bytes to copy");
                }
                if (pacing != Pacing.NONE) {
                    throttle.get().record(moved);
                }
                position += moved;
            }
            if (!cancelled) {
                out.force(true);
            }
        }
    }

    /**
     * Waits while the throttle is exceeded, asking it again every {@link #throttleBackoffMs} (its rate is on the
     * broker's clock, so a test's manual clock moves it on); false if the move was cancelled meanwhile.
     */
    private boolean awaitThrottle() throws InterruptedIOException {
        while (!cancelled && throttle.get().isExceeded()) {
            synchronized (pacing) {
                try {
                    pacing.wait(Math.max(1, throttleBackoffMs.getAsLong()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while the move of " + log.topicPartition()
                            + " was throttled");
                }
            }
        }
        return !cancelled;
    }
}
