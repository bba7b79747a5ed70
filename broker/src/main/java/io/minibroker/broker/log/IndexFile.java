package io.minibroker.broker.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

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
 */
abstract class IndexFile implements AutoCloseable {
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

    IndexFile(Path path, int entryBytes) throws IOException {
        this.path = path;
        this.entryBytes = entryBytes;
        this.entryBuffer = ByteBuffer.allocate(entryBytes);
        if (!Files.exists(path)) {
            Files.createFile(path); // as Kafka, every segment has its index files from the start
        }
    }

    /** The whole file, for a subclass to parse and check when it opens; null if its size is torn. */
    final ByteBuffer readAll() throws IOException {
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
            entries = (int) (size / entryBytes);
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

    final int entries() {
        return entries;
    }

    /** Keeps the first {@code count} entries. */
    final void truncateEntries(int count) {
        try {
            openForWrite().truncate((long) count * entryBytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate index " + path, e);
        }
        entries = count;
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
