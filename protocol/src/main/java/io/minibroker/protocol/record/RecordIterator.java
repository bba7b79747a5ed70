package io.minibroker.protocol.record;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Walks the records of one batch. Each record is laid out with varints (zig-zag for signed values):
 *
 * <pre>
 *   length | attributes int8 | timestamp delta varlong | offset delta varint
 *   | key length, key | value length, value | header count, (key length, key, value length, value)...
 * </pre>
 * A length of -1 means null. For example the record with offset delta 1, no key and value "hi" is
 * {@code 10 00 00 02 01 04 68 69 00}: length 8, attributes, timestamp delta 0, offset delta 1, null key,
 * value length 2, "hi", no headers. Closing releases the decompressed copy, if the batch needed one.
 */
public final class RecordIterator implements Iterator<Record>, AutoCloseable {
    /** Length, attributes, timestamp delta, offset delta, key length, value length, header count. */
    private static final int MIN_RECORD_BYTES = 7;

    private final RecordBatch batch;
    private final ByteBuf records;
    private final boolean ownsRecords;
    private final int count;
    private int read;

    RecordIterator(RecordBatch batch, ByteBuf records, boolean ownsRecords) {
        this.batch = batch;
        this.records = records;
        this.ownsRecords = ownsRecords;
        this.count = batch.recordCount();
        if (count < 0 || count > records.readableBytes() / MIN_RECORD_BYTES) {
            close();
            throw corrupt("record count " + count + " cannot fit in " + records.readableBytes() + " bytes");
        }
    }

    @Override
    public boolean hasNext() {
        if (read < count) {
            return true;
        }
        if (records.isReadable()) {
            throw corrupt(records.readableBytes() + " bytes left after the last record");
        }
        return false;
    }

    @Override
    public Record next() {
        if (read >= count) {
            throw new NoSuchElementException();
        }
        try {
            Record record = readRecord();
            read++;
            return record;
        } catch (ProtocolException e) {
            throw new ProtocolException(Errors.CORRUPT_MESSAGE, "record " + read + ": " + e.getMessage(), e);
        }
    }

    private Record readRecord() {
        int length = Wire.readVarint(records);
        if (length < MIN_RECORD_BYTES - 1 || length > records.readableBytes()) {
            throw corrupt("record length " + length + " with " + records.readableBytes() + " bytes left");
        }
        ByteBuf in = records.readSlice(length);
        byte attributes = Wire.readInt8(in);
        long timestampDelta = Wire.readVarlong(in);
        int offsetDelta = Wire.readVarint(in);
        ByteBuf key = readNullableBytes(in);
        ByteBuf value = readNullableBytes(in);
        int headerCount = Wire.readVarint(in);
        if (headerCount < 0 || headerCount > in.readableBytes() / 2) {
            throw corrupt("header count " + headerCount + " cannot fit in " + in.readableBytes() + " bytes");
        }
        List<Header> headers = headerCount == 0 ? Collections.emptyList() : new ArrayList<>(headerCount);
        for (int i = 0; i < headerCount; i++) {
            int keyLength = Wire.readVarint(in);
            if (keyLength < 0) {
                throw corrupt("negative header key length " + keyLength);
            }
            String headerKey = Wire.readUtf8(in, keyLength);
            headers.add(new Header(headerKey, readNullableBytes(in)));
        }
        if (in.isReadable()) {
            throw corrupt("record declared " + length + " bytes but used " + (length - in.readableBytes()));
        }
        long timestamp = batch.isLogAppendTime() ? batch.maxTimestamp() : batch.baseTimestamp() + timestampDelta;
        int baseSequence = batch.baseSequence();
        int sequence = baseSequence < 0 ? baseSequence : (int) ((baseSequence + (long) offsetDelta) % (Integer.MAX_VALUE + 1L));
        return new Record(batch.baseOffset() + offsetDelta, timestamp, sequence, attributes, key, value, headers);
    }

    private static ByteBuf readNullableBytes(ByteBuf in) {
        int length = Wire.readVarint(in);
        if (length == -1) {
            return null;
        }
        if (length < 0) {
            throw corrupt("negative length " + length);
        }
        Wire.require(in, length, "record field");
        return in.readSlice(length);
    }

    @Override
    public void close() {
        if (ownsRecords && records.refCnt() > 0) {
            records.release();
        }
    }

    private static ProtocolException corrupt(String message) {
        return new ProtocolException(Errors.CORRUPT_MESSAGE, message);
    }
}
