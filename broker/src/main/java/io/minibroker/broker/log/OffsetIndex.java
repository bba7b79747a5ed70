package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A segment's sparse offset index, {@code <base offset>.index}: 8-byte big-endian entries of the last
 * offset of a batch, relative to the segment's base offset (4 bytes), and the file position where that
 * batch starts (4 bytes). An entry is added every {@code index.interval.bytes} of log, so a lookup lands on
 * a batch at most that many bytes before the one wanted and the rest is a short scan of batch headers.
 *
 * <pre>
 * segment 00000000000000000100.log: batches at position 0 (offsets 100-104, 4200 bytes),
 *                                   4200 (105-109, 4300 bytes) and 8500 (110-119)
 * 00000000000000000100.index (interval 4096): [9 | 4200] [19 | 8500]
 * </pre>
 * The first batch gets no entry (nothing was appended before it); the second and third do, each coming
 * more than 4096 bytes after the previous entry. {@code lookup(107)} finds no entry at or below relative
 * offset 7, so the scan starts at position 0 and steps over 100-104 to the batch holding 107;
 * {@code lookup(112)} returns 4200, and the scan steps over 105-109 to find 110-119 at 8500.
 */
final class OffsetIndex extends IndexFile {
    static final int ENTRY_BYTES = 8;

    private final long baseOffset;
    /** The log's size when the index was opened: no entry may point at or past it. */
    private final long logSize;
    private int[] relativeOffsets = new int[16];
    private int[] positions = new int[16];

    private OffsetIndex(Path path, long baseOffset, long logSize, boolean fileExists) throws IOException {
        super(path, ENTRY_BYTES, fileExists);
        this.baseOffset = baseOffset;
        this.logSize = logSize;
    }

    /**
     * Opens (or, if {@code fileExists} is false, creates) the index, reading it now or, {@code lazily}, at its first
     * use, and checks it then: a torn size, offsets or positions that do not increase, or positions beyond
     * {@code logSize} make it corrupt, and it is then emptied ({@link #wasCorrupt()}), for the caller to rebuild.
     */
    static OffsetIndex open(Path path, long baseOffset, long logSize, boolean fileExists, boolean lazily)
            throws IOException {
        OffsetIndex index = new OffsetIndex(path, baseOffset, logSize, fileExists);
        index.load(lazily);
        return index;
    }

    @Override
    boolean parse(ByteBuffer all, int count) {
        relativeOffsets = new int[Math.max(16, count)];
        positions = new int[Math.max(16, count)];
        for (int i = 0; i < count; i++) {
            int relative = all.getInt();
            int position = all.getInt();
            if (relative < 0 || position < 0 || position >= logSize
                    || (i > 0 && (relative <= relativeOffsets[i - 1] || position <= positions[i - 1]))) {
                return false;
            }
            relativeOffsets[i] = relative;
            positions[i] = position;
        }
        return true;
    }

    @Override
    void putEntry(ByteBuffer to, int slot) {
        to.putInt(relativeOffsets[slot]).putInt(positions[slot]);
    }

    /** Records that the batch ending at {@code lastOffset} starts at {@code position}. */
    void append(long lastOffset, int position) {
        add(lastOffset, position);
    }

    @Override
    boolean fillSlot(int slot, long lastOffset, long position) {
        int relative = Math.toIntExact(lastOffset - baseOffset);
        if (slot > 0 && (relative <= relativeOffsets[slot - 1] || position <= positions[slot - 1])) {
            throw new IllegalStateException("offset index entry (" + lastOffset + ", " + position
                    + ") does not follow (" + (baseOffset + relativeOffsets[slot - 1]) + ", " + positions[slot - 1] + ")");
        }
        if (slot == relativeOffsets.length) {
            relativeOffsets = Arrays.copyOf(relativeOffsets, slot * 2);
            positions = Arrays.copyOf(positions, slot * 2);
        }
        relativeOffsets[slot] = relative;
        positions[slot] = (int) position;
        return true;
    }

    /** The position of the last indexed batch whose last offset is at most {@code offset}; 0 if none. */
    int lookup(long offset) {
        int slot = floorSlot(offset);
        return slot < 0 ? 0 : positions[slot];
    }

    /** The position of the last entry, where a scan for the segment's end can start. */
    int lastPosition() {
        int count = entries();
        return count == 0 ? 0 : positions[count - 1];
    }

    /** Drops the entries of batches at or after {@code logPosition}, when the log is truncated there. */
    void truncateToPosition(int logPosition) {
        int keep = entries();
        while (keep > 0 && positions[keep - 1] >= logPosition) {
            keep--;
        }
        truncateEntries(keep);
    }

    private int floorSlot(long offset) {
        long relative = offset - baseOffset;
        if (relative < 0) {
            return -1;
        }
        int target = (int) Math.min(relative, Integer.MAX_VALUE);
        int count = entries();
        int slot = Arrays.binarySearch(relativeOffsets, 0, count, target);
        return slot >= 0 ? slot : -slot - 2;
    }
}
