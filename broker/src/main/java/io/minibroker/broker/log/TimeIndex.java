package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A segment's sparse time index, {@code <base offset>.timeindex}: 12-byte big-endian entries of a
 * timestamp (8 bytes) and an offset relative to the segment's base offset (4 bytes). An entry says "every
 * record up to and including the batch ending at this offset has a timestamp at most this one": it is the
 * segment's running max timestamp, written alongside an offset index entry and only when it has grown, so
 * both columns increase.
 *
 * <pre>
 * segment base 100; batches 100-104 (max ts 1000), 105-109 (900), 110-119 (1500), 120-129 (1600);
 * index points (every index.interval.bytes) fall on the 2nd and 3rd batches
 * 00000000000000000100.timeindex: [1000 | 4] [1500 | 19]
 * </pre>
 * At the 2nd batch the running max is still 1000, reached at offset 104; at the 3rd it has grown to 1500
 * at 119. The 4th batch raised it to 1600 but was no index point; that entry waits for the next point, or
 * for the roll, which writes the segment's final max. To find the first record with a timestamp of at
 * least 1200, {@link #lastOffsetBefore}(1200) returns 104: no record up to 104 qualifies, so the scan of
 * batch headers starts at the indexed batch at or before 104 and stops at the first batch whose max
 * timestamp reaches 1200 (110-119).
 */
final class TimeIndex extends IndexFile {
    static final int ENTRY_BYTES = 12;

    private final long baseOffset;
    private long[] timestamps = new long[16];
    private int[] relativeOffsets = new int[16];

    private TimeIndex(Path path, long baseOffset, boolean fileExists) throws IOException {
        super(path, ENTRY_BYTES, fileExists);
        this.baseOffset = baseOffset;
    }

    /**
     * Opens (or, if {@code fileExists} is false, creates) the index, read now or, {@code lazily}, at its first use; a
     * torn or disordered file is emptied then and {@link #wasCorrupt()} says so.
     */
    static TimeIndex open(Path path, long baseOffset, boolean fileExists, boolean lazily) throws IOException {
        TimeIndex index = new TimeIndex(path, baseOffset, fileExists);
        index.load(lazily);
        return index;
    }

    @Override
    boolean parse(ByteBuffer all, int count) {
        timestamps = new long[Math.max(16, count)];
        relativeOffsets = new int[Math.max(16, count)];
        for (int i = 0; i < count; i++) {
            long timestamp = all.getLong();
            int relative = all.getInt();
            if (relative < 0 || (i > 0 && (timestamp <= timestamps[i - 1] || relative < relativeOffsets[i - 1]))) {
                return false;
            }
            timestamps[i] = timestamp;
            relativeOffsets[i] = relative;
        }
        return true;
    }

    @Override
    void putEntry(ByteBuffer to, int slot) {
        to.putLong(timestamps[slot]).putInt(relativeOffsets[slot]);
    }

    /** Adds an entry if {@code maxTimestamp} is above the last one; the segment calls it on every index point. */
    void maybeAppend(long maxTimestamp, long offset) {
        add(maxTimestamp, offset);
    }

    @Override
    boolean fillSlot(int slot, long maxTimestamp, long offset) {
        if (maxTimestamp < 0 || (slot > 0 && maxTimestamp <= timestamps[slot - 1])) {
            return false;
        }
        int relative = Math.toIntExact(offset - baseOffset);
        if (slot > 0 && relative < relativeOffsets[slot - 1]) {
            throw new IllegalStateException("time index offset " + offset + " goes backwards");
        }
        if (slot == timestamps.length) {
            timestamps = Arrays.copyOf(timestamps, slot * 2);
            relativeOffsets = Arrays.copyOf(relativeOffsets, slot * 2);
        }
        timestamps[slot] = maxTimestamp;
        relativeOffsets[slot] = relative;
        return true;
    }

    /**
     * The offset of the last entry whose timestamp is below {@code timestamp}: every record up to the batch
     * holding it is older. -1 if no entry is, so a search starts at the segment's beginning.
     */
    long lastOffsetBefore(long timestamp) {
        int count = entries();
        int low = 0;
        int high = count - 1;
        int found = -1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (timestamps[mid] < timestamp) {
                found = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return found < 0 ? -1 : baseOffset + relativeOffsets[found];
    }

    /** The largest timestamp recorded, or -1 when empty. */
    long lastTimestamp() {
        int count = entries();
        return count == 0 ? -1 : timestamps[count - 1];
    }

    /** The offset recorded with {@link #lastTimestamp()}, or -1 when empty. */
    long lastTimestampOffset() {
        int count = entries();
        return count == 0 ? -1 : baseOffset + relativeOffsets[count - 1];
    }

    /** Drops the entries for offsets at or above {@code offset}, when the log is truncated there. */
    void truncateToOffset(long offset) {
        int keep = entries();
        while (keep > 0 && baseOffset + relativeOffsets[keep - 1] >= offset) {
            keep--;
        }
        truncateEntries(keep);
    }
}
