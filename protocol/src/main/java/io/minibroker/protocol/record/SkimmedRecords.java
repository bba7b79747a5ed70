package io.minibroker.protocol.record;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.util.NoSuchElementException;

/**
 * Reads through a compressed batch's records decompressing one piece at a time ({@link PlainChunks}: an LZ4
 * block, a snappy chunk, 8 KB of a gzip or zstd stream), skipping keys, values and headers, as Kafka's
 * validator reads a batch it will store as it came ("skip key value iterator"). A batch that inflates to 60 MB
 * is checked holding one piece of it, where {@link RecordBatch#plainRecords} would hold all 60 MB; what the
 * records hold is not looked at, only their framing (the record layout is in {@link RecordIterator}), which is
 * checked as strictly as {@link RecordIterator} checks it.
 *
 * <p>Each piece's buffer comes from the allocator given, so a budget ({@link InflationBudget}) bounds them too;
 * closing gives it back. Records already plain (an uncompressed batch's body, or {@link RecordBatch#plainRecords})
 * are read the same way as one piece that is only looked at, never copied or released.
 *
 * <p>{@link #readNext} reads a record into this reader's fields and allocates nothing: the leader's validation
 * reads every record of every produced batch this way.
 */
public final class SkimmedRecords implements AutoCloseable {
    /** Length, attributes, timestamp delta, offset delta, key length, value length, header count. */
    private static final int MIN_RECORD_BYTES = 7;
    private static final int MAX_VARINT_BYTES = 5;
    private static final int MAX_VARLONG_BYTES = 10;

    private final RecordBatch batch;
    /** Null when the records are already plain: {@link #piece} is then all of them, and not ours. */
    private final PlainChunks chunks;
    private final ByteBuf piece;
    private final int count;
    /** Decompressed bytes not yet taken into a piece: the batch's limit less what was read so far. */
    private int bytesAllowed;
    /** Bytes of the current record read so far, to check them against its declared length. */
    private int recordBytesRead;
    private int read;
    private long offset;
    private long timestamp;
    private int keyLength;
    private int valueLength;

    SkimmedRecords(RecordBatch batch, PlainChunks chunks, ByteBufAllocator alloc, int maxDecompressedBytes) {
        this.batch = batch;
        this.chunks = chunks;
        this.piece = alloc.heapBuffer(0);
        this.count = batch.recordCount();
        this.bytesAllowed = maxDecompressedBytes;
        if (count < 0 || count > maxDecompressedBytes / MIN_RECORD_BYTES) {
            close();
            throw corrupt("record count " + count + " cannot fit in " + maxDecompressedBytes + " bytes");
        }
    }

    /** Reads through records that are plain already; {@code plainRecords} stays the caller's, untouched. */
    SkimmedRecords(RecordBatch batch, ByteBuf plainRecords) {
        this.batch = batch;
        this.chunks = null;
        this.piece = plainRecords.duplicate();
        this.count = batch.recordCount();
        this.bytesAllowed = 0;
        if (count < 0 || count > piece.readableBytes() / MIN_RECORD_BYTES) {
            throw corrupt("record count " + count + " cannot fit in " + piece.readableBytes() + " bytes");
        }
    }

    public boolean hasNext() {
        if (read < count) {
            return true;
        }
        if (nextPieceHasBytes()) {
            throw corrupt("bytes left after the last record");
        }
        return false;
    }

    /**
     * Reads the next record: {@link #offset}, {@link #timestamp}, {@link #keyLength} and {@link #valueLength} then
     * describe it, until the next call.
     */
    public void readNext() {
        if (read >= count) {
            throw new NoSuchElementException();
        }
        try {
            readRecord();
            read++;
        } catch (ProtocolException e) {
            throw new ProtocolException(Errors.CORRUPT_MESSAGE, "record " + read + ": " + e.getMessage(), e);
        }
    }

    /** The offset of the record {@link #readNext} read. */
    public long offset() {
        return offset;
    }

    /** Its timestamp: the batch's for a LogAppendTime batch. */
    public long timestamp() {
        return timestamp;
    }

    /** The length of its key, -1 for null. */
    public int keyLength() {
        return keyLength;
    }

    /** The length of its value, -1 for null. */
    public int valueLength() {
        return valueLength;
    }

    private void readRecord() {
        int length = readVarint();
        if (length < MIN_RECORD_BYTES - 1) {
            throw corrupt("record length " + length);
        }
        recordBytesRead = 0;
        readByte(); // attributes: nothing in them is checked, as RecordIterator does not
        long timestampDelta = readVarlong();
        int offsetDelta = readVarint();
        int keyBytes = skipNullableBytes();
        int valueBytes = skipNullableBytes();
        int headerCount = readVarint();
        if (headerCount < 0 || headerCount > (length - recordBytesRead) / 2) {
            throw corrupt("header count " + headerCount + " cannot fit in " + (length - recordBytesRead) + " bytes");
        }
        for (int i = 0; i < headerCount; i++) {
            int headerKeyLength = readVarint();
            if (headerKeyLength < 0) {
                throw corrupt("negative header key length " + headerKeyLength);
            }
            if (headerKeyLength > Wire.MAX_STRING_BYTES) { // a string, as RecordIterator reads it
                throw corrupt("header key of " + headerKeyLength + " bytes exceeds " + Wire.MAX_STRING_BYTES);
            }
            skip(headerKeyLength);
            skipNullableBytes();
            if (recordBytesRead > length) {
                break;
            }
        }
        if (recordBytesRead != length) {
            throw corrupt("record declared " + length + " bytes but used " + recordBytesRead);
        }
        offset = batch.baseOffset() + offsetDelta;
        timestamp = batch.isLogAppendTime() ? batch.maxTimestamp() : batch.baseTimestamp() + timestampDelta;
        keyLength = keyBytes;
        valueLength = valueBytes;
    }

    /** Skips a varint-sized field; returns its length, -1 for null. */
    private int skipNullableBytes() {
        int length = readVarint();
        if (length < -1) {
            throw corrupt("negative length " + length);
        }
        if (length > 0) {
            skip(length);
        }
        return length;
    }

    private int readVarint() {
        int raw = 0;
        for (int i = 0; i < MAX_VARINT_BYTES; i++) {
            byte b = readByte();
            raw |= (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw corrupt("varint of more than five bytes");
    }

    private long readVarlong() {
        long raw = 0;
        for (int i = 0; i < MAX_VARLONG_BYTES; i++) {
            byte b = readByte();
            raw |= (long) (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw corrupt("varlong of more than ten bytes");
    }

    private byte readByte() {
        if (!piece.isReadable() && !nextPieceHasBytes()) {
            throw corrupt("records end in the middle of record " + read);
        }
        recordBytesRead++;
        return piece.readByte();
    }

    private void skip(int bytes) {
        int left = bytes;
        while (left > 0) {
            if (!piece.isReadable() && !nextPieceHasBytes()) {
                throw corrupt("records end in the middle of record " + read);
            }
            int step = Math.min(left, piece.readableBytes());
            piece.skipBytes(step);
            left -= step;
        }
        recordBytesRead += bytes;
    }

    /** Whether bytes remain: reads pieces until one has some, or the records end. */
    private boolean nextPieceHasBytes() {
        if (chunks == null) {
            return piece.isReadable();
        }
        while (!piece.isReadable()) {
            piece.clear();
            if (!chunks.readBlock(piece, bytesAllowed)) {
                return false;
            }
            bytesAllowed -= piece.readableBytes();
        }
        return true;
    }

    @Override
    public void close() {
        if (chunks == null) {
            return; // the plain records are the caller's
        }
        try {
            chunks.close();
        } finally {
            if (piece.refCnt() > 0) {
                piece.release();
            }
        }
    }

    private static ProtocolException corrupt(String message) {
        return new ProtocolException(Errors.CORRUPT_MESSAGE, message);
    }
}
