package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;
import java.util.zip.CRC32C;
import org.slf4j.Logger;

/**
 * A producer-state snapshot file, Kafka's {@code <offset>.snapshot} (ProducerStateManager, snapshot version 1): the
 * state of every producer the log holds batches of below {@code offset}, so that opening the log replays only the
 * batches from there on instead of the whole log.
 *
 * <pre>
 * version (int16, 1) | crc (uint32: CRC-32C of everything after it) | entry count (int32) | entries
 * entry (46 bytes): producerId (int64) | epoch (int16) | lastSequence (int32) | lastOffset (int64)
 *                   | offsetDelta (int32: last sequence - first sequence of its last batch) | timestamp (int64)
 *                   | coordinatorEpoch (int32) | currentTxnFirstOffset (int64, -1 if no transaction is open)
 * </pre>
 * big-endian. A producer known only by a marker has lastOffset -1 (no batch). Written whole to a temporary file and
 * renamed; a file that does not read back (torn, CRC, unknown version) is {@link Corrupt}, and the log falls back to
 * an older one or to replaying the whole log.
 */
public record ProducerSnapshot(long offset, List<Entry> entries) {

    static final String SUFFIX = ".snapshot";
    private static final short VERSION = 1;
    private static final int CRC_OFFSET = 2;
    private static final int ENTRIES_OFFSET = CRC_OFFSET + 4;
    private static final int ENTRY_BYTES = 8 + 2 + 4 + 8 + 4 + 8 + 4 + 8;

    /** One producer's state: its epoch, its last batch's sequences, offset and timestamp, its marker and open txn. */
    public record Entry(long producerId, short epoch, int lastSequence, long lastOffset, int offsetDelta, long timestamp,
                 int coordinatorEpoch, long currentTxnFirstOffset) {
        /** Whether the producer has expired at {@code now}: Kafka's isProducerExpired, as {@link LogProducers}'. */
        boolean expiredAt(long now, long expirationMs) {
            return currentTxnFirstOffset < 0 && LogProducers.idleSince(timestamp, now, expirationMs);
        }
    }

    /** A snapshot file that cannot be read back. */
    static final class Corrupt extends IOException {
        Corrupt(Path path, String why) {
            super(path + ": " + why);
        }
    }

    static Path path(Path dir, long offset) {
        return dir.resolve(LogSegment.fileName(offset, SUFFIX));
    }

    /** The offsets of the snapshot files among the file {@code names} of a partition directory, ascending. */
    static TreeSet<Long> offsets(Collection<String> names) {
        TreeSet<Long> offsets = new TreeSet<>();
        for (String name : names) {
            if (name.endsWith(SUFFIX) && name.length() == 20 + SUFFIX.length()) {
                try {
                    offsets.add(Long.parseLong(name.substring(0, 20)));
                } catch (NumberFormatException e) {
                    // not one of ours
                }
            }
        }
        return offsets;
    }

    /** Writes this snapshot to {@code dir}, replacing one of the same offset; fsynced only if {@code sync}. */
    void write(Path dir, boolean sync) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(ENTRIES_OFFSET + 4 + entries.size() * ENTRY_BYTES);
        buffer.putShort(VERSION).putInt(0).putInt(entries.size());
        for (Entry entry : entries) {
            buffer.putLong(entry.producerId()).putShort(entry.epoch()).putInt(entry.lastSequence())
                    .putLong(entry.lastOffset()).putInt(entry.offsetDelta()).putLong(entry.timestamp())
                    .putInt(entry.coordinatorEpoch()).putLong(entry.currentTxnFirstOffset());
        }
        buffer.putInt(CRC_OFFSET, (int) crc(buffer.array()));
        buffer.flip();
        Path target = path(dir, offset);
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            if (sync) {
                channel.force(true);
            }
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Reads the snapshot at {@code offset} in {@code dir}. */
    static ProducerSnapshot read(Path dir, long offset) throws IOException {
        Path path = path(dir, offset);
        byte[] bytes = Files.readAllBytes(path);
        if (bytes.length < ENTRIES_OFFSET + 4) {
            throw new Corrupt(path, "too short (" + bytes.length + " bytes)");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        short version = buffer.getShort();
        if (version != VERSION) {
            throw new Corrupt(path, "unknown version " + version);
        }
        long storedCrc = Integer.toUnsignedLong(buffer.getInt());
        if (storedCrc != crc(bytes)) {
            throw new Corrupt(path, "CRC mismatch");
        }
        int count = buffer.getInt();
        if (count < 0 || (long) count * ENTRY_BYTES != buffer.remaining()) {
            throw new Corrupt(path, count + " entries in " + buffer.remaining() + " bytes");
        }
        List<Entry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entries.add(new Entry(buffer.getLong(), buffer.getShort(), buffer.getInt(), buffer.getLong(),
                    buffer.getInt(), buffer.getLong(), buffer.getInt(), buffer.getLong()));
        }
        return new ProducerSnapshot(offset, List.copyOf(entries));
    }

    /**
     * The newest snapshot in {@code dir} at or below {@code maxOffset}, of those at {@code offsets} (the files there,
     * kept in step: the ones deleted are removed), deleting those past {@code logEnd} (a cut log's) and any that does
     * not read back; empty if none is left.
     */
    static Optional<ProducerSnapshot> latest(Path dir, NavigableSet<Long> offsets, long logEnd, long maxOffset,
                                             Logger log) throws IOException {
        for (long offset : List.copyOf(offsets.descendingSet())) {
            if (offset > logEnd) {
                Files.deleteIfExists(path(dir, offset));
                offsets.remove(offset);
                continue;
            }
            if (offset > maxOffset) {
                continue;
            }
            try {
                return Optional.of(read(dir, offset));
            } catch (Corrupt | NoSuchFileException e) {
                log.warn("Deleting a producer snapshot that does not read back: {}", e.getMessage());
                Files.deleteIfExists(path(dir, offset));
                offsets.remove(offset);
            }
        }
        return Optional.empty();
    }

    /**
     * Deletes the snapshots at {@code offsets} in {@code dir} below {@code offset}, keeping the newest of them (a base
     * to replay from); {@code offsets} follows.
     */
    static void deleteBefore(Path dir, NavigableSet<Long> offsets, long offset) throws IOException {
        TreeSet<Long> below = new TreeSet<>(offsets.headSet(offset, false));
        if (!below.isEmpty()) {
            below.pollLast();
        }
        for (long old : below) {
            Files.deleteIfExists(path(dir, old));
            offsets.remove(old);
        }
    }

    private static long crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, ENTRIES_OFFSET, bytes.length - ENTRIES_OFFSET);
        return crc.getValue();
    }
}
