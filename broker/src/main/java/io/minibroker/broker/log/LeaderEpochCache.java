package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A partition's leader epochs and the offset each began at, as Kafka's LeaderEpochFileCache (KIP-101): an epoch's
 * records run from its start offset to the next epoch's. Kept in {@code leader-epoch-checkpoint} in the partition
 * directory, in Kafka's format: a version line ({@code 0}), a count line, then {@code epoch startOffset} lines in
 * ascending order; rewritten whole (a temporary file, fsynced, renamed) by {@link #flush}. A new log's is created
 * empty and not fsynced ({@link #createEmpty}), as Kafka's CheckpointFile creates it, and an empty file reads as
 * no epochs, as in Kafka: creating a topic of 50 partitions costs no fsync per partition.
 *
 * <p>Changes are made in memory and written by a separate {@link #flush}, so that a leader's append on an event
 * loop never waits for the fsync: its {@link PartitionLog} writes at once only on threads that may wait, and
 * leaves a leader append's new epoch to the produce's disk work. One entry is not even a change to write: the epoch
 * a single node leads in from its log end before any batch of it ({@link #assignInMemory}), which is written with
 * that epoch's first batch (or with any other change before it). The ordering kept is Kafka's: the checkpoint has
 * every epoch of the records acknowledged (Kafka's assign writes synchronously before the append returns; here
 * the produce is answered only after the write) and of the records below the recovery point (a log flush writes
 * the checkpoint before it fsyncs the segments); the epochs of records above the recovery point that a crash
 * left without their entry are read back from the batches when the log is recovered.
 *
 * <p>Thread-safe: changes and reads hold this object's monitor, a write holds a lock of its own around the file
 * and takes the monitor only to copy the entries, so a change never waits for a write under way.
 */
public final class LeaderEpochCache {

    static final String FILE_NAME = "leader-epoch-checkpoint";
    private static final int VERSION = 0;
    /** Kafka's UNDEFINED_EPOCH and UNDEFINED_EPOCH_OFFSET. */
    public static final int UNDEFINED_EPOCH = -1;
    public static final long UNDEFINED_OFFSET = -1;

    /** An epoch and the offset where it ends (OffsetForLeaderEpoch's answer). */
    public record EpochEnd(int epoch, long endOffset) {
        static final EpochEnd UNDEFINED = new EpochEnd(UNDEFINED_EPOCH, UNDEFINED_OFFSET);
    }

    /** The checkpoint file: changed under {@link #fileLock} when the log moves to another directory. */
    private volatile Path path;
    private final TreeMap<Integer, Long> epochs = new TreeMap<>();
    /**
     * Counts changes; the checkpoint on disk has the entries as of change {@link #written}, -1 while there is no
     * file (a new cache), so that its first flush writes one even with no entry. Both only grow, and are
     * changed under the monitor but volatile, so {@link #flushPending} reads them without it.
     */
    private volatile long changes;
    private volatile long written = -1;
    /**
     * The latest epoch when it was {@link #assignInMemory assigned in memory} and no batch of it was appended since,
     * else {@link #UNDEFINED_EPOCH}: its entry is not counted in {@link #changes} until the first batch makes it one
     * the checkpoint must hold.
     */
    private int assignedWithoutBatch = UNDEFINED_EPOCH;
    private final Object fileLock = new Object();

    private LeaderEpochCache(Path path) {
        this.path = path;
    }

    /** An empty cache writing to {@code dir}'s checkpoint; its entries come from {@link #assign}. */
    static LeaderEpochCache empty(Path dir) {
        return new LeaderEpochCache(dir.resolve(FILE_NAME));
    }

    /** The cache {@code dir}'s checkpoint holds (none if it is empty); an IOException if it is missing or malformed. */
    static LeaderEpochCache read(Path dir) throws IOException {
        LeaderEpochCache cache = empty(dir);
        List<String> lines;
        try {
            // The bytes, then their lines: a reader would allocate 24 KB of buffers for a file of a few bytes, at
            // each of the 10,000 partitions a start may open (a quarter of the opening's samples went to this).
            lines = new String(Files.readAllBytes(cache.path), StandardCharsets.UTF_8).lines().toList();
        } catch (NoSuchFileException e) {
            throw new IOException("no " + FILE_NAME + " in " + dir, e);
        }
        if (lines.isEmpty()) { // as a new log's checkpoint is created
            cache.written = cache.changes;
            return cache;
        }
        try {
            if (lines.size() < 2 || Integer.parseInt(lines.get(0).trim()) != VERSION) {
                throw new IOException("unrecognised header in " + cache.path);
            }
            int count = Integer.parseInt(lines.get(1).trim());
            if (lines.size() != count + 2) {
                throw new IOException(cache.path + " announces " + count + " entries but has " + (lines.size() - 2));
            }
            long previousStart = -1;
            int previousEpoch = -1;
            for (String line : lines.subList(2, lines.size())) {
                String[] fields = line.trim().split(" ");
                if (fields.length != 2) {
                    throw new IOException("malformed line in " + cache.path + ": " + line);
                }
                int epoch = Integer.parseInt(fields[0]);
                long start = Long.parseLong(fields[1]);
                if (epoch <= previousEpoch || start < previousStart || start < 0) {
                    throw new IOException("entries out of order in " + cache.path + ": " + line);
                }
                cache.epochs.put(epoch, start);
                previousEpoch = epoch;
                previousStart = start;
            }
            cache.written = cache.changes; // the file holds them
            return cache;
        } catch (IllegalArgumentException e) {
            throw new IOException("malformed " + cache.path, e);
        }
    }

    /**
     * Records that {@code epoch} starts at {@code startOffset}, if it is newer than the latest epoch known (a batch's
     * epoch, or a leader's): a change to write. Entries starting at or after it are stale (a log that was truncated
     * without them) and go. The first batch of an epoch {@link #assignInMemory assigned in memory} keeps that entry's
     * start (the log end it was assigned at, where the batch is) and makes it a change to write. Returns whether the
     * entries to write changed.
     */
    synchronized boolean assign(int epoch, long startOffset) {
        if (epoch >= 0 && epoch == assignedWithoutBatch) {
            assignedWithoutBatch = UNDEFINED_EPOCH;
            changes++;
            return true;
        }
        if (put(epoch, startOffset) < 0) {
            return false;
        }
        assignedWithoutBatch = UNDEFINED_EPOCH; // no longer the latest: written with this change
        changes++;
        return true;
    }

    /**
     * A single node leads in {@code epoch} from {@code logEndOffset}, before any batch of it: the entry is made as
     * {@link #assign} makes it, so that the epoch is answered at once (Kafka assigns it as its replica becomes
     * leader), but is not a change to write by itself. Kafka's synchronous write of it buys nothing that outlives a
     * restart: its LogLoader drops an entry starting at the log end (truncateFromEnd), and a new leader assigns its
     * epoch again. Here the epoch's first batch makes it a change, written before the batch is acknowledged.
     */
    synchronized void assignInMemory(int epoch, long logEndOffset) {
        int dropped = put(epoch, logEndOffset);
        if (dropped < 0) {
            return;
        }
        if (dropped > 0) {
            changes++; // stale entries the checkpoint may hold went
        }
        assignedWithoutBatch = epoch;
    }

    /**
     * Puts {@code epoch} at {@code startOffset} if it is newer than the latest, dropping the entries from there on:
     * how many it dropped, -1 if it is not newer.
     */
    private int put(int epoch, long startOffset) {
        if (epoch < 0 || (!epochs.isEmpty() && epoch <= epochs.lastKey())) {
            return -1;
        }
        int before = epochs.size();
        epochs.values().removeIf(start -> start >= startOffset);
        int dropped = before - epochs.size();
        epochs.put(epoch, startOffset);
        return dropped;
    }

    /** The log was truncated to end at {@code endOffset}: epochs starting there or later go. */
    synchronized void truncateFromEnd(long endOffset) {
        if (epochs.values().removeIf(start -> start >= endOffset)) {
            changes++;
            if (!epochs.containsKey(assignedWithoutBatch)) {
                assignedWithoutBatch = UNDEFINED_EPOCH;
            }
        }
    }

    /**
     * The log now starts at {@code startOffset}: epochs wholly before it go, and the one holding it starts there
     * (Kafka's truncateFromStart).
     */
    synchronized void truncateFromStart(long startOffset) {
        Map.Entry<Integer, Long> holding = null;
        for (Map.Entry<Integer, Long> entry : epochs.entrySet()) {
            if (entry.getValue() <= startOffset) {
                holding = entry;
            }
        }
        if (holding == null || holding.getValue() == startOffset && holding.getKey().equals(epochs.firstKey())) {
            return;
        }
        int keep = holding.getKey();
        epochs.headMap(keep, false).clear();
        epochs.put(keep, startOffset);
        changes++;
    }

    /** Empties the cache (the log was emptied) and its file. */
    synchronized void clear() {
        if (!epochs.isEmpty()) {
            epochs.clear();
            changes++;
        }
        assignedWithoutBatch = UNDEFINED_EPOCH;
    }

    /** The latest epoch, or {@link #UNDEFINED_EPOCH} if none is known. */
    public synchronized int latestEpoch() {
        return epochs.isEmpty() ? UNDEFINED_EPOCH : epochs.lastKey();
    }

    /** Where the latest epoch starts, or -1 if no epoch is known. */
    public synchronized long latestEpochStartOffset() {
        return epochs.isEmpty() ? -1 : epochs.lastEntry().getValue();
    }

    /** The epoch holding {@code offset}: the latest one starting at or before it; -1 if none does. */
    public synchronized int epochForOffset(long offset) {
        int holding = UNDEFINED_EPOCH;
        for (Map.Entry<Integer, Long> entry : epochs.entrySet()) {
            if (entry.getValue() <= offset) {
                holding = entry.getKey();
            }
        }
        return holding;
    }

    /** A copy of the entries, epoch to start offset, ascending. */
    public synchronized Map<Integer, Long> entries() {
        return new TreeMap<>(epochs);
    }

    /**
     * Where {@code requested} ends, as Kafka answers OffsetForLeaderEpoch: for the latest epoch, the log end; for an
     * older one, the start of the next epoch known, together with the greatest known epoch not above it (the
     * requested epoch itself when it is older than all); undefined for an epoch newer than any known.
     */
    public synchronized EpochEnd endOffsetFor(int requested, long logEndOffset) {
        if (requested == UNDEFINED_EPOCH || epochs.isEmpty()) {
            return EpochEnd.UNDEFINED;
        }
        if (requested == epochs.lastKey()) {
            return new EpochEnd(requested, logEndOffset);
        }
        Map.Entry<Integer, Long> higher = epochs.higherEntry(requested);
        if (higher == null) {
            return EpochEnd.UNDEFINED;
        }
        Map.Entry<Integer, Long> floor = epochs.floorEntry(requested);
        return new EpochEnd(floor == null ? requested : floor.getKey(), higher.getValue());
    }

    /**
     * Whether a change is not in the checkpoint on disk yet; asked after every leader append on an event loop, so
     * without the monitor. Reading {@code written} before {@code changes} can only err towards "pending" (a
     * harmless extra flush): a flush writes at most the changes made so far, and both counters only grow.
     */
    boolean flushPending() {
        long flushed = written;
        return flushed != changes;
    }

    /**
     * Creates the checkpoint of a new log, whose cache has no epoch yet, as an empty file, not fsynced: a crash
     * that loses it loses no epoch, and a log without a checkpoint has its epochs read back from its batches (here
     * none). The first epoch assigned is written by {@link #flush}, fsynced, before its records are acknowledged.
     */
    void createEmpty() throws IOException {
        synchronized (fileLock) {
            try {
                Files.createFile(path);
            } catch (FileAlreadyExistsException e) { // one unreadable: replaced by a whole one
                flush();
                return;
            }
            synchronized (this) {
                if (changes == 0) {
                    written = 0;
                }
            }
        }
    }

    /**
     * A log's move to another directory: copies the checkpoint into {@code futureDir} (fsynced), runs {@code swap} (which
     * renames that directory to {@code finalDir}) and keeps the file in {@code finalDir} from then on. All of it under
     * the file lock, so that no flush writes into a directory being renamed.
     */
    void moveDuring(Path futureDir, Path finalDir, FileDeletions.Deletion swap) throws IOException {
        synchronized (fileLock) {
            if (Files.exists(path)) {
                DurableFiles.writeAtomically(futureDir.resolve(FILE_NAME), Files.readString(path));
            }
            swap.delete();
            path = finalDir.resolve(FILE_NAME);
        }
    }

    /**
     * Writes the entries whole to the checkpoint if a change is not there yet: a temporary file, fsynced, renamed
     * over the old one. Every change made before the call is on disk when it returns.
     */
    void flush() throws IOException {
        if (!flushPending()) {
            return; // the usual case, on every append: no file lock, no file-system call
        }
        synchronized (fileLock) {
            String text;
            long version;
            synchronized (this) {
                if (written == changes) {
                    return; // another flush wrote it meanwhile
                }
                version = changes;
                StringBuilder entries = new StringBuilder();
                entries.append(VERSION).append('\n').append(epochs.size()).append('\n');
                epochs.forEach((epoch, start) -> entries.append(epoch).append(' ').append(start).append('\n'));
                text = entries.toString();
            }
            DurableFiles.writeAtomically(path, text);
            synchronized (this) {
                written = Math.max(written, version);
            }
        }
    }
}
