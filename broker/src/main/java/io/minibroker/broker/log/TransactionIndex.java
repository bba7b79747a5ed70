package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A segment's aborted transaction index, Kafka's {@code .txnindex}: one {@link AbortedTxn} per ABORT marker the
 * segment holds, in marker order. The file is created with its first entry, so a segment without aborted
 * transactions has none, as in Kafka. Entries are also kept in memory (a transaction index is small): fetches read
 * them without a lock, from an immutable list the single writer replaces. As {@link IndexFile}'s, the file is held
 * open only from its next change on: a rolled segment's index is read once when it opens and rarely written again,
 * and every segment with an aborted transaction holding a descriptor would multiply the broker's descriptors.
 *
 * <p>Opening keeps the whole entries of an existing file and cuts a torn or unreadable tail: the log's recovery
 * replays the markers and writes back any entry missing.
 */
final class TransactionIndex implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TransactionIndex.class);
    static final String SUFFIX = ".txnindex";

    /** Changed once, when its segment is deleted ({@link #renameForDeletion}), by the log's writer. */
    private volatile Path path;
    /** Whether the file exists: from its first entry on, or it did when the index was opened. */
    private volatile boolean exists;
    /**
     * Null until the first change. Opened and used by the partition's single writer; volatile for the flusher and
     * closer, which only flush or close what is open.
     */
    private volatile FileChannel channel;
    private volatile List<AbortedTxn> entries;

    private TransactionIndex(Path path, boolean exists, List<AbortedTxn> entries) {
        this.path = path;
        this.exists = exists;
        this.entries = entries;
    }

    /** The index at {@code path}: its entries if the file exists, empty (and no file yet) otherwise. */
    static TransactionIndex open(Path path) throws IOException {
        return open(path, Files.exists(path));
    }

    /** {@link #open(Path)} where a directory listing already said whether the file exists. */
    static TransactionIndex open(Path path, boolean fileExists) throws IOException {
        if (!fileExists) {
            return new TransactionIndex(path, false, List.of());
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            List<AbortedTxn> read = new ArrayList<>();
            ByteBuffer buffer = ByteBuffer.allocate(AbortedTxn.BYTES);
            long position = 0;
            long size = channel.size();
            while (size - position >= AbortedTxn.BYTES) {
                buffer.clear();
                if (!readFully(channel, buffer, position)) {
                    break;
                }
                buffer.flip();
                if (buffer.getShort() != AbortedTxn.VERSION) {
                    break;
                }
                AbortedTxn entry = new AbortedTxn(buffer.getLong(), buffer.getLong(), buffer.getLong(),
                        buffer.getLong());
                if (!read.isEmpty() && entry.lastOffset() <= read.get(read.size() - 1).lastOffset()) {
                    break;
                }
                read.add(entry);
                position += AbortedTxn.BYTES;
            }
            if (position != size) {
                log.warn("Cutting {} at {} bytes of {}: a torn or unreadable entry", path, position, size);
                channel.truncate(position);
            }
            return new TransactionIndex(path, true, Collections.unmodifiableList(read));
        }
    }

    /** The file, created if it does not exist yet, held open from here on. */
    private FileChannel openForWrite() throws IOException {
        FileChannel open = channel;
        if (open == null) {
            open = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            channel = open;
            exists = true;
        }
        return open;
    }

    private static boolean readFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Appends an entry; its marker must come after every indexed one (Kafka refuses the same). */
    void append(AbortedTxn entry) throws IOException {
        List<AbortedTxn> current = entries;
        if (!current.isEmpty() && entry.lastOffset() <= current.get(current.size() - 1).lastOffset()) {
            throw new IllegalArgumentException("aborted transaction ending at " + entry.lastOffset()
                    + " is not after the last one indexed in " + path);
        }
        FileChannel open = openForWrite();
        ByteBuffer buffer = ByteBuffer.allocate(AbortedTxn.BYTES);
        buffer.putShort(AbortedTxn.VERSION).putLong(entry.producerId()).putLong(entry.firstOffset())
                .putLong(entry.lastOffset()).putLong(entry.lastStableOffset()).flip();
        long position = (long) current.size() * AbortedTxn.BYTES;
        while (buffer.hasRemaining()) {
            position += open.write(buffer, position);
        }
        List<AbortedTxn> next = new ArrayList<>(current.size() + 1);
        next.addAll(current);
        next.add(entry);
        entries = Collections.unmodifiableList(next);
    }

    /**
     * Writes {@code written} as the whole index, creating the file even when empty: a cleaner's copy, whose file
     * replaces the segment's when it is swapped in.
     */
    void rewrite(List<AbortedTxn> written) throws IOException {
        openForWrite().truncate(0);
        entries = List.of();
        for (AbortedTxn entry : written) {
            append(entry);
        }
    }

    /** Whether the index has a file (it has had an entry). */
    boolean exists() {
        return exists;
    }

    /** Whether the file is held open (it is from its next change on), for tests of the descriptors kept. */
    boolean isOpen() {
        return channel != null;
    }

    /** The entries, oldest marker first. */
    List<AbortedTxn> entries() {
        return entries;
    }

    /**
     * Whether every entry indexed is of a marker before {@code lastOffset}: an entry for the marker there is missing
     * and may be written back. (One the cleaner dropped, its transaction having no record left, is not: a replay
     * writes back only transactions with a batch before their marker.)
     */
    boolean endsBefore(long lastOffset) {
        List<AbortedTxn> current = entries;
        return current.isEmpty() || current.get(current.size() - 1).lastOffset() < lastOffset;
    }

    /**
     * Adds to {@code into} the entries of transactions that overlap {@code [fetchOffset, upperBoundOffset)} (Kafka's
     * collectAbortedTxns); true when the search may stop here: an entry's last stable offset reached the bound, so no
     * later segment holds a transaction that starts below it.
     */
    boolean collect(long fetchOffset, long upperBoundOffset, List<AbortedTxn> into) {
        for (AbortedTxn entry : entries) {
            if (entry.lastOffset() >= fetchOffset && entry.firstOffset() < upperBoundOffset) {
                into.add(entry);
            }
            if (entry.lastStableOffset() >= upperBoundOffset) {
                return true;
            }
        }
        return false;
    }

    /** Removes the entries of markers at or past {@code offset} (the log was cut there). */
    void truncateTo(long offset) throws IOException {
        List<AbortedTxn> current = entries;
        int keep = 0;
        while (keep < current.size() && current.get(keep).lastOffset() < offset) {
            keep++;
        }
        if (keep == current.size()) {
            return;
        }
        entries = List.copyOf(current.subList(0, keep));
        if (exists) {
            openForWrite().truncate((long) keep * AbortedTxn.BYTES);
        }
    }

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

    /**
     * Closes the file and renames it for its deletion ({@link FileDeletions#renameForDeletion}); named so even if it
     * does not exist, so that the deletion never takes a file a new segment of the same base offset made.
     */
    void renameForDeletion() throws IOException {
        close();
        path = FileDeletions.renameForDeletion(path);
    }

    /** Deletes the file, renamed or not. */
    void deleteIfExists() throws IOException {
        Files.deleteIfExists(path);
    }
}
