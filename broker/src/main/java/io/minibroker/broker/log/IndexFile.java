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
 * <p>The file is held open only from its first change on: a broker with 10,000 partitions has 10,000 segments
 * whose indexes are read once when they open and mostly never written (an entry comes every
 * {@code index.interval.bytes} of log, and a rolled segment's indexes are final), so keeping both index files of
 * every segment open would triple the broker's descriptors per partition against Kafka's one (whose indexes are
 * memory maps) and exhaust a 20,000-descriptor limit at ~6,700 partitions.
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

    private final Path path;
    /**
     * Null until the first write or truncation. Opened and used by the partition's single writer; volatile for
     * the flusher and closer, which only flush or close what is open.
     */
    private volatile FileChannel channel;
    private final int entryBytes;
    /** Reused for every entry written; the single writer of a partition owns it. */
    private final ByteBuffer entryBuffer;
    /**
     * Volatile because readers search the subclasses' arrays alongside the writer: an entry's array slots
     * are filled before this count moves, so a reader that reads the count first sees them.
     */
    private volatile int entries;
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
        this.entryBuffer = ByteBuffer.allocate(entryBytes);
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

    /** The buffer to fill with the next entry, then pass to {@link #writeEntry()}. */
    final ByteBuffer entryBuffer() {
        return entryBuffer.clear();
    }

    final void writeEntry() {
        entryBuffer.flip();
        long at = (long) entries * entryBytes;
        try {
            FileChannel open = openForWrite();
            while (entryBuffer.hasRemaining()) {
                at += open.write(entryBuffer, at);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write index " + path, e);
        }
        entries++;
    }

    /** How many entries there are: the subclasses' arrays are read up to it, so this loads a lazy index. */
    final int entries() {
        ensureLoaded();
        return entries;
    }

    /**
     * Keeps the first {@code count} entries. Keeping them all changes nothing (the file holds exactly the entries
     * once read): the file is not opened for it, so recovering 10,000 empty segments holds no index descriptors.
     */
    final void truncateEntries(int count) {
        ensureLoaded();
        if (count == entries) {
            return;
        }
        try {
            openForWrite().truncate((long) count * entryBytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate index " + path, e);
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

    /** Nothing to force while the file has not been opened for a change. */
    void flush() throws IOException {
        FileChannel open = channel;
        if (open != null) {
            open.force(true);
        }
    }

    @Override
    public void close() throws IOException {
        FileChannel open = channel;
        if (open != null) {
            open.close();
        }
    }

    /** Whether the file is held open (it is from its first change on), for tests of the descriptors kept. */
    boolean isOpen() {
        return channel != null;
    }

    void closeAndDelete() throws IOException {
        close();
        Files.deleteIfExists(path);
    }
}
