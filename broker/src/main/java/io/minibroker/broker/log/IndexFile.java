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
 */
abstract class IndexFile implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
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
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** The whole file, for a subclass to parse and check when it opens; null if its size is torn. */
    final ByteBuffer readAll() throws IOException {
        long size = channel.size();
        if (size % entryBytes != 0) {
            return null;
        }
        ByteBuffer all = ByteBuffer.allocate((int) size);
        while (all.hasRemaining()) {
            if (channel.read(all, all.position()) < 0) {
                return null;
            }
        }
        entries = (int) (size / entryBytes);
        return all.flip();
    }

    /** The buffer to fill with the next entry, then pass to {@link #writeEntry()}. */
    final ByteBuffer entryBuffer() {
        return entryBuffer.clear();
    }

    final void writeEntry() {
        entryBuffer.flip();
        long at = (long) entries * entryBytes;
        try {
            while (entryBuffer.hasRemaining()) {
                at += channel.write(entryBuffer, at);
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
            channel.truncate((long) count * entryBytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate index " + path, e);
        }
        entries = count;
    }

    Path path() {
        return path;
    }

    void flush() throws IOException {
        channel.force(true);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    void closeAndDelete() throws IOException {
        channel.close();
        Files.deleteIfExists(path);
    }
}
