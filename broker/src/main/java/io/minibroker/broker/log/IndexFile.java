package io.minibroker.broker.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file under an index: fixed-size entries appended at the end, nothing else. Files are kept at their
 * exact used size rather than preallocated to {@code segment.index.bytes} and memory-mapped as Kafka does:
 * the subclasses keep their entries in arrays (a few bytes per {@code index.interval.bytes} of log), so the
 * file is only written, never searched, and an exact size needs no trimming on roll or close and shows a
 * torn last entry after a crash as a size that is not a multiple of the entry size.
 *
 * <p>The file is opened only when it is changed, and then stays open until the index is closed: when a run of
 * entries is written to it (a page's worth gathered, or a flush, roll or close writing those waiting) or it is cut
 * (a truncation into the entries it holds, a torn file emptied). A broker with 10,000 partitions has 10,000 segments
 * whose indexes are read once when they open and mostly never written (an entry comes every
 * {@code index.interval.bytes} of log, and a rolled segment's indexes are final), so keeping both index files of
 * every segment open would triple the broker's descriptors per partition against Kafka's one (whose indexes are
 * memory maps) and exhaust a 20,000-descriptor limit at ~6,700 partitions.
 *
 * <p>New entries are written to the file in runs, not one by one: the entries not yet in the file stay in the
 * subclass's arrays (where every lookup reads them anyway) until a page's worth has gathered ({@link #PAGE_BYTES}),
 * the segment rolls, or the index is flushed, truncated or closed; then one positioned write puts them all at the
 * file's end. Kafka's indexes are memory maps, where an entry costs no system call either; entries written with a
 * call each made one or two more writes per produced batch (an offset entry, and a time entry if the max timestamp
 * grew) than the segment's own, batches being larger than {@code index.interval.bytes}. The file is thus a prefix
 * of the entries until one of those events, and a sound index however short: after an unclean shutdown the segments
 * from the recovery point on are recovered and their indexes rebuilt from the log, as Kafka's are
 * ({@link LogRecovery}); the segments before it were flushed, which writes the entries out first.
 *
 * <p>A trusted segment's index (after a clean shutdown, or flushed before the recovery point) may be opened
 * lazily, as Kafka's {@code LazyIndex}: its file is read at the first use of its entries (a lookup, an append, a
 * truncation), not by the constructor. Opening a segment with batches uses them at once (its end state is restored
 * from the last entries), so a start still reads both indexes of every non-empty segment; only an empty segment's
 * stay unread until it is written to or searched. A file found torn or disordered when read is emptied: lookups in
 * its segment scan from the segment's start, which is slower but finds the same batches, until the segment's
 * recovery rebuilds it.
 */
abstract class IndexFile implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(IndexFile.class);
    /** How many bytes of new entries gather in memory before they are written: a page of the file. */
    static final int PAGE_BYTES = 4096;

    /** Changed once, when its segment is deleted ({@link #renameForDeletion}), under this object's monitor. */
    private volatile Path path;
    /**
     * Null until the first write or truncation. Opened under this object's monitor, by the partition's writer or by
     * the flusher writing the tail; volatile for the closer, which closes what is open.
     */
    private volatile FileChannel channel;
    private final int entryBytes;
    /** How many entries make a page's worth ({@link #PAGE_BYTES} or just over): a run written at once. */
    private final int entriesPerPage;
    /**
     * Volatile because readers search the subclasses' arrays alongside the writer: an entry's array slots
     * are filled before this count moves, so a reader that reads the count first sees them.
     */
    private volatile int entries;
    /**
     * How many of the entries the file holds; the rest are only in the arrays. Guarded by this object's monitor: the
     * writer's appends and truncations, and the flusher's write of the tail, which runs beside them, all take it.
     */
    private int written;
    /**
     * Whether the file's entries have been read (and checked) into the subclass's arrays: written once, under this
     * object's monitor, after the arrays and {@link #entries}, so a thread that reads it true sees them.
     */
    private volatile boolean loaded;
    /** Whether the file was found torn or disordered when read, and emptied: until it is rebuilt ({@link #clear}). */
    private volatile boolean corrupt;

    /**
     * @param fileExists whether the file is there (as the segment's directory listing says): if not, it is
     *                   created empty, as Kafka gives every segment its index files from the start
     */
    IndexFile(Path path, int entryBytes, boolean fileExists) throws IOException {
        this.path = path;
        this.entryBytes = entryBytes;
        this.entriesPerPage = (PAGE_BYTES + entryBytes - 1) / entryBytes;
        if (!fileExists) {
            Files.createFile(path);
            loaded = true; // nothing to read
        }
    }

    /**
     * Reads the entries now (an index opened eagerly) or at their first use ({@code lazily}, for a trusted segment):
     * for the subclasses' {@code open}.
     */
    final void load(boolean lazily) throws IOException {
        if (!lazily) {
            loadNow();
        }
    }

    /**
     * Checks the {@code count} entries of {@code all} and keeps them in the subclass's arrays; false if they are
     * disordered or out of bounds. Called once, before {@link #entries()} says how many there are.
     */
    abstract boolean parse(ByteBuffer all, int count);

    /** Puts the entry in {@code slot} of the subclass's arrays into {@code to}, as the file holds it. */
    abstract void putEntry(ByteBuffer to, int slot);

    /**
     * Puts the entry ({@code key}, {@code value}) into {@code slot}, the arrays' next, growing them if they are full;
     * false if the subclass keeps no entry for it. Throws if the entry does not follow the last one. Called under this
     * object's monitor, by {@link #add}.
     */
    abstract boolean fillSlot(int slot, long key, long value);

    private synchronized void loadNow() throws IOException {
        if (loaded) {
            return;
        }
        ByteBuffer all = readAll();
        boolean sound = all != null && parse(all, all.remaining() / entryBytes);
        if (sound) {
            entries = all.limit() / entryBytes;
        } else {
            corrupt = true;
            openForWrite().truncate(0); // emptied: the caller rebuilds it, or lookups scan from the segment's start
            entries = 0;
        }
        written = entries;
        loaded = true;
    }

    /** Loads a lazily opened index's entries at their first use. */
    private void ensureLoaded() {
        if (!loaded) {
            try {
                loadNow();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read index " + path, e);
            }
            if (corrupt) {
                log.warn("Emptied the index {}: torn or disordered when first read", path);
            }
        }
    }

    /** Whether the file was torn or disordered, and emptied; reads it if that has not been done yet. */
    final boolean wasCorrupt() {
        ensureLoaded();
        return corrupt;
    }

    /** The whole file; null if its size is torn. */
    private ByteBuffer readAll() throws IOException {
        try (FileChannel reader = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = reader.size();
            if (size % entryBytes != 0) {
                return null;
            }
            ByteBuffer all = ByteBuffer.allocate((int) size);
            while (all.hasRemaining()) {
                if (reader.read(all, all.position()) < 0) {
                    return null;
                }
            }
            return all.flip();
        }
    }

    private FileChannel openForWrite() throws IOException {
        FileChannel open = channel;
        if (open == null) {
            open = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            channel = open;
        }
        return open;
    }

    /**
     * Adds an entry after the last ({@link #fillSlot}) under this object's monitor, which the flusher's write of the
     * waiting entries takes too, so that it reads the slots (and arrays grown for them) whole. The entry reaches the
     * file with the next run of entries written ({@link #writeTail()}), at once if a page's worth is now waiting.
     *
     * <p>A page that cannot be written stays waiting in the arrays, where lookups read it, and is tried again with
     * the next page, a roll, a flush (which reports the failure as a storage error) or a close. Throwing would fail
     * an append whose batch is already in the log file but not counted in the segment's size: the next batch would
     * be written over it, and its index entry, at the same position, refused as out of order until a restart.
     */
    final synchronized void add(long key, long value) {
        int slot = entries();
        if (!fillSlot(slot, key, value)) {
            return;
        }
        int count = slot + 1;
        entries = count;
        if ((count - written) % entriesPerPage == 0) {
            try {
                writeTail();
            } catch (IOException e) {
                log.warn("Could not write {} index entries to {}; they wait for the next write", count - written,
                        path, e);
            }
        }
    }

    /** Writes the entries the file does not hold yet at its end, in one positioned write. */
    final synchronized void writeTail() throws IOException {
        int count = entries;
        int from = written;
        if (count <= from) {
            return;
        }
        ByteBuffer tail = ByteBuffer.allocate((count - from) * entryBytes);
        for (int slot = from; slot < count; slot++) {
            putEntry(tail, slot);
        }
        tail.flip();
        long at = (long) from * entryBytes;
        FileChannel open = openForWrite();
        while (tail.hasRemaining()) {
            at += open.write(tail, at);
        }
        written = count;
    }

    /** How many entries there are: the subclasses' arrays are read up to it, so this loads a lazy index. */
    final int entries() {
        ensureLoaded();
        return entries;
    }

    /**
     * Keeps the first {@code count} entries. The file is cut only if it holds more than that (dropping entries not
     * written yet needs no call), and not opened otherwise: recovering 10,000 empty segments holds no index
     * descriptors.
     */
    final synchronized void truncateEntries(int count) {
        ensureLoaded();
        if (count == entries) {
            return;
        }
        if (count < written) {
            try {
                openForWrite().truncate((long) count * entryBytes);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot truncate index " + path, e);
            }
            written = count;
        }
        entries = count;
    }

    /**
     * Empties the index for its segment's recovery to rebuild it: a corruption found before no longer holds, so that
     * a later truncation of the segment takes the rebuilt index as sound rather than recovering it all again.
     */
    final void clear() {
        truncateEntries(0);
        corrupt = false;
    }

    Path path() {
        return path;
    }

    /** Writes the entries not in the file yet and forces it; nothing to force while it has not been opened. */
    void flush() throws IOException {
        writeTail();
        FileChannel open = channel;
        if (open != null) {
            open.force(true);
        }
    }

    /** Writes the entries not in the file yet, then closes it. */
    @Override
    public void close() throws IOException {
        try {
            writeTail();
        } finally {
            closeChannel();
        }
    }

    private void closeChannel() throws IOException {
        FileChannel open = channel;
        if (open != null) {
            open.close();
        }
    }

    /** Whether the file is held open (from its first write or truncation on), for tests of the descriptors kept. */
    boolean isOpen() {
        return channel != null;
    }

    /**
     * Closes the file for good: the entries not written yet stay unwritten, so that a flush already under way (beside
     * a retention, truncation or deletion of the segment) finds nothing to write rather than reopening the file.
     */
    synchronized void closeForDeletion() throws IOException {
        written = entries;
        closeChannel();
    }

    /** {@link #closeForDeletion()}, then renames the file for its deletion ({@link FileDeletions#renameForDeletion}). */
    synchronized void renameForDeletion() throws IOException {
        closeForDeletion();
        path = FileDeletions.renameForDeletion(path);
    }

    /** Deletes the file, renamed or not. */
    void deleteIfExists() throws IOException {
        Files.deleteIfExists(path);
    }
}
