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
 *   <li>{@link PartitionLog#completeMove} then holds the log's lock for the rest: the bytes appended to a segment
 *       since its copy (a log file only grows while it is the same segment object and the log was not truncated),
 *       the active segment's indexes, a segment that appeared since (all of them again after a truncation), the
 *       producer snapshots, the leader epochs and {@code partition.metadata}, each fsynced, swaps the directories
 *       and reopens the segments from the new one. Appends to this one partition wait for that: what was appended
 *       during step one and the active segment's indexes, not the segments' bytes copied before.</li>
 * </ol>
 * A follower's copy would re-validate and rewrite every batch, and need its own fetch loop beside the replica
 * fetchers; the files are already Kafka's, so copying them keeps the segments, indexes and snapshots as they were.
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
    /** The log's truncation count when {@link #copyClosedSegments} began: a truncation since has all copied again. */
    private long truncationsAtCopy = -1;
    private volatile boolean cancelled;
    /** Paces step one's copy ({@code replica.alter.log.dirs.io.max.bytes.per.second}); step two is never held. */
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
        copiedBytes = 0;
        copiedEndOffset = log.logStartOffset();
        List<LogSegment> closed = log.closedSegments();
        for (LogSegment segment : closed) {
            if (cancelled) {
                return;
            }
            int size = segment.size();
            try {
                copySegment(segment, 0, size, true);
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
        copyFile(active.logPath(), LogSegment.files(dir, active.baseOffset(), "")[0], 0, size, true);
        copied.put(active, size);
        copiedBytes += size;
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
                copySegment(segment, 0, segment.size(), false);
            } else if (size < segment.size() || segment == segments.active()) {
                segment.writeIndexesOut();
                copySegment(segment, size, segment.size(), false);
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
                copyFile(file, dir.resolve(file.getFileName()), 0, Files.size(file), false);
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
    private void copySegment(LogSegment segment, int fromByte, int size, boolean paced) throws IOException {
        Path[] from = LogSegment.files(segment.logPath().getParent(), segment.baseOffset(), "");
        Path[] to = LogSegment.files(dir, segment.baseOffset(), "");
        copyFile(from[0], to[0], fromByte, size, paced);
        for (int i = 1; i < from.length; i++) {
            if (Files.exists(from[i])) {
                copyFile(from[i], to[i], 0, Files.size(from[i]), paced);
            } else {
                Files.deleteIfExists(to[i]);
            }
        }
    }

    /**
     * The bytes of {@code from} from {@code fromByte} up to {@code size} into {@code to} at the same place ({@code to}
     * cut to {@code fromByte} first: its bytes before are those copied earlier), in chunks that a cancel stops
     * between, fsynced: a copy made before the swap is then on disk before the swap's lock is taken, not forced under
     * it. A {@code paced} copy (step one's) waits before each chunk while the throttle is exceeded and counts what it
     * copies against it; step two's, under the log's lock, is never held back, as appends wait for it.
     */
    private void copyFile(Path from, Path to, long fromByte, long size, boolean paced) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            out.truncate(fromByte);
            out.position(fromByte);
            long position = fromByte;
            while (position < size && !cancelled) {
                if (paced && !awaitThrottle()) {
                    break;
                }
                long moved = in.transferTo(position, Math.min(COPY_CHUNK_BYTES, size - position), out);
                if (moved <= 0) {
                    throw new IOException(from + " ended at " + position + " of the " + size + " bytes to copy");
                }
                if (paced) {
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
