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
 * closing gives it back.
 */
public final class SkimmedRecords implements AutoCloseable {
    /** Length, attributes, timestamp delta, offset delta, key length, value length, header count. */
    private static final int MIN_RECORD_BYTES = 7;
    private static final int MAX_VARINT_BYTES = 5;
    private static final int MAX_VARLONG_BYTES = 10;

    private final RecordBatch batch;
    private final PlainChunks chunks;
    private final ByteBuf piece;
    private final int count;
    /** Decompressed bytes not yet taken into a piece: the batch's limit less what was read so far. */
    private int bytesAllowed;
    /** Bytes of the current record read so far, to check them against its declared length. */
    private int recordBytesRead;
    private int read;

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

    public boolean hasNext() {
        if (read < count) {
            return true;
        }
        if (nextPieceHasBytes()) {
            throw corrupt("bytes left after the last record");
        }
        return false;
    }

    public SkimmedRecord next() {
        if (read >= count) {
            throw new NoSuchElementException();
        }
        try {
            SkimmedRecord record = readRecord();
            read++;
            return record;
        } catch (ProtocolException e) {
            throw new ProtocolException(Errors.CORRUPT_MESSAGE, "record " + read + ": " + e.getMessage(), e);
        }
    }

    private SkimmedRecord readRecord() {
        int length = readVarint();
        if (length < MIN_RECORD_BYTES - 1) {
            throw corrupt("record length " + length);
        }
        recordBytesRead = 0;
        readByte(); // attributes: nothing in them is checked, as RecordIterator does not
        long timestampDelta = readVarlong();
        int offsetDelta = readVarint();
        int keyLength = skipNullableBytes();
        int valueLength = skipNullableBytes();
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
        long timestamp = batch.isLogAppendTime() ? batch.maxTimestamp() : batch.baseTimestamp() + timestampDelta;
        return new SkimmedRecord(batch.baseOffset() + offsetDelta, timestamp, keyLength, valueLength);
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
