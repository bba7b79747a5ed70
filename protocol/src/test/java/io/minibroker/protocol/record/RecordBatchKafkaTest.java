package io.minibroker.protocol.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.ProduceRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Record batches written by kafka-clients read back field by field with our view, and the reverse. */
class RecordBatchKafkaTest {
    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);
    private static final long BASE_OFFSET = 1_000L;
    private static final long PRODUCER_ID = 4242L;
    private static final short PRODUCER_EPOCH = 7;
    private static final int BASE_SEQUENCE = 33;
    private static final int LEADER_EPOCH = 12;
    private static final long T0 = 1_700_000_000_000L;

    private static List<SimpleRecord> sampleRecords() {
        List<SimpleRecord> records = new ArrayList<>();
        records.add(new SimpleRecord(T0, bytes("k1"), bytes("v1"),
                new RecordHeader[] {new RecordHeader("h1", bytes("x")), new RecordHeader("h2", (byte[]) null)}));
        records.add(new SimpleRecord(T0 + 5, (byte[]) null, bytes("value without key")));
        records.add(new SimpleRecord(T0 - 3, bytes("tombstone"), (byte[]) null));
        records.add(new SimpleRecord(T0 + 100, (byte[]) null, (byte[]) null));
        byte[] big = new byte[200_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i % 251);
        }
        records.add(new SimpleRecord(T0 + 7, bytes("big"), big));
        return records;
    }

    private static ByteBuf kafkaBatch(CompressionType compression, boolean transactional) {
        ByteBuffer buffer = ByteBuffer.allocate(1024);
        MemoryRecordsBuilder builder = MemoryRecords.builder(buffer, org.apache.kafka.common.record.internal.RecordBatch.MAGIC_VALUE_V2,
                Compression.of(compression.name().toLowerCase()).build(), TimestampType.CREATE_TIME, BASE_OFFSET,
                -1L, PRODUCER_ID, PRODUCER_EPOCH, BASE_SEQUENCE, transactional, false, LEADER_EPOCH);
        for (SimpleRecord r : sampleRecords()) {
            builder.append(r);
        }
        ByteBuffer built = builder.build().buffer();
        return Unpooled.wrappedBuffer(built);
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void readsKafkaBatchFieldByField(CompressionType compression) {
        ByteBuf bytes = kafkaBatch(compression, true);
        MutableRecordBatch kafka = MemoryRecords.readableRecords(bytes.nioBuffer()).batches().iterator().next();

        RecordBatches batches = RecordBatches.of(bytes);
        RecordBatch batch = batches.next();
        assertThat(batches.hasNext()).isFalse();
        assertThat(batches.trailingBytes()).isZero();

        batch.ensureValid();
        assertThat(batch.sizeInBytes()).isEqualTo(kafka.sizeInBytes());
        assertThat(batch.baseOffset()).isEqualTo(kafka.baseOffset());
        assertThat(batch.lastOffset()).isEqualTo(kafka.lastOffset());
        assertThat(batch.partitionLeaderEpoch()).isEqualTo(LEADER_EPOCH);
        assertThat(batch.magic()).isEqualTo((byte) 2);
        assertThat(batch.checksum()).isEqualTo(kafka.checksum());
        assertThat(batch.compression().id()).isEqualTo(kafka.compressionType().id);
        assertThat(batch.compression()).isEqualTo(compression);
        assertThat(batch.isLogAppendTime()).isFalse();
        assertThat(batch.isTransactional()).isTrue();
        assertThat(batch.isControl()).isFalse();
        assertThat(batch.baseTimestamp()).isEqualTo(T0);
        assertThat(batch.maxTimestamp()).isEqualTo(kafka.maxTimestamp());
        assertThat(batch.producerId()).isEqualTo(PRODUCER_ID);
        assertThat(batch.producerEpoch()).isEqualTo(PRODUCER_EPOCH);
        assertThat(batch.baseSequence()).isEqualTo(BASE_SEQUENCE);
        assertThat(batch.recordCount()).isEqualTo(kafka.countOrNull());

        List<org.apache.kafka.common.record.internal.Record> expected = new ArrayList<>();
        kafka.forEach(expected::add);
        try (RecordIterator records = batch.records(ALLOC)) {
            for (org.apache.kafka.common.record.internal.Record k : expected) {
                assertThat(records.hasNext()).isTrue();
                assertSameRecord(records.next(), k);
            }
            assertThat(records.hasNext()).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void aRecompressedBatchIsTheSameBatchToKafkaUnderTheNewCodec(CompressionType target) {
        for (CompressionType source : CompressionType.values()) {
            ByteBuf original = kafkaBatch(source, true);
            RecordBatch sent = RecordBatches.of(original).next();
            ByteBuf plain = sent.plainRecords(ALLOC, RecordBatch.DEFAULT_MAX_DECOMPRESSED_BYTES);
            ByteBuf recompressed;
            try {
                recompressed = sent.recompressed(ALLOC, target, plain);
            } finally {
                plain.release();
            }
            try {
                MutableRecordBatch before = MemoryRecords.readableRecords(original.nioBuffer()).batches().iterator().next();
                MutableRecordBatch after = MemoryRecords.readableRecords(recompressed.nioBuffer()).batches().iterator().next();
                after.ensureValid(); // Kafka's own CRC check
                assertThat((int) after.compressionType().id).as("%s to %s", source, target).isEqualTo(target.id());
                assertThat(after.baseOffset()).isEqualTo(before.baseOffset());
                assertThat(after.lastOffset()).isEqualTo(before.lastOffset());
                assertThat(after.partitionLeaderEpoch()).isEqualTo(LEADER_EPOCH);
                assertThat(after.isTransactional()).isTrue();
                assertThat(after.producerId()).isEqualTo(PRODUCER_ID);
                assertThat(after.producerEpoch()).isEqualTo(PRODUCER_EPOCH);
                assertThat(after.baseSequence()).isEqualTo(BASE_SEQUENCE);
                assertThat(after.maxTimestamp()).isEqualTo(before.maxTimestamp());
                List<org.apache.kafka.common.record.internal.Record> expected = new ArrayList<>();
                before.forEach(expected::add);
                try (RecordIterator records = RecordBatches.of(recompressed).next().records(ALLOC)) {
                    for (org.apache.kafka.common.record.internal.Record k : expected) {
                        assertSameRecord(records.next(), k);
                    }
                    assertThat(records.hasNext()).isFalse();
                }
            } finally {
                recompressed.release();
            }
        }
    }

    private static void assertSameRecord(Record ours, org.apache.kafka.common.record.internal.Record kafka) {
        assertThat(ours.offset()).isEqualTo(kafka.offset());
        assertThat(ours.timestamp()).isEqualTo(kafka.timestamp());
        assertThat(ours.sequence()).isEqualTo(kafka.sequence());
        assertThat(nullableBytes(ours.key())).isEqualTo(kafka.hasKey() ? bytes(kafka.key()) : null);
        assertThat(nullableBytes(ours.value())).isEqualTo(kafka.hasValue() ? bytes(kafka.value()) : null);
        assertThat(ours.headers()).hasSize(kafka.headers().length);
        for (int i = 0; i < ours.headers().size(); i++) {
            assertThat(ours.headers().get(i).key()).isEqualTo(kafka.headers()[i].key());
            assertThat(nullableBytes(ours.headers().get(i).value())).isEqualTo(kafka.headers()[i].value());
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void anEmptyCopyIsKafkasEmptyBatchSpanningTheSameOffsets(CompressionType compression) {
        ByteBuf original = kafkaBatch(compression, false);
        ByteBuf empty = RecordBatches.of(original).next().emptyCopy(ALLOC);
        try {
            MutableRecordBatch before = MemoryRecords.readableRecords(original.nioBuffer()).batches().iterator().next();
            MutableRecordBatch after = MemoryRecords.readableRecords(empty.nioBuffer()).batches().iterator().next();
            after.ensureValid();
            assertThat(after.countOrNull()).isZero();
            assertThat(after.iterator().hasNext()).isFalse();
            assertThat(after.compressionType().id).isZero();
            assertThat(after.baseOffset()).isEqualTo(before.baseOffset());
            assertThat(after.lastOffset()).isEqualTo(before.lastOffset());
            assertThat(after.maxTimestamp()).isEqualTo(before.maxTimestamp());
            assertThat(after.producerId()).isEqualTo(PRODUCER_ID);
            assertThat(after.baseSequence()).isEqualTo(BASE_SEQUENCE);
            assertThat(after.partitionLeaderEpoch()).isEqualTo(LEADER_EPOCH);
        } finally {
            empty.release();
            original.release();
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void aBatchBuiltWithGapsKeepsItsRecordsOffsetsAndItsLastOffsetForKafka(CompressionType compression) {
        ByteBuf built = new RecordBatchBuilder(ALLOC, compression, BASE_OFFSET, T0)
                .producer(PRODUCER_ID, PRODUCER_EPOCH, BASE_SEQUENCE)
                .append(1, T0, bytes("b"), bytes("kept"), List.of())
                .append(4, T0 + 2, bytes("e"), null, List.of())
                .lastOffsetDelta(6)
                .build();
        try {
            MutableRecordBatch kafka = MemoryRecords.readableRecords(built.nioBuffer()).batches().iterator().next();
            kafka.ensureValid();
            assertThat(kafka.lastOffset()).isEqualTo(BASE_OFFSET + 6);
            assertThat(kafka.countOrNull()).isEqualTo(2);
            List<Long> offsets = new ArrayList<>();
            kafka.forEach(record -> offsets.add(record.offset()));
            assertThat(offsets).containsExactly(BASE_OFFSET + 1, BASE_OFFSET + 4);
        } finally {
            built.release();
        }
    }

    @Test
    void readsKafkaControlBatch() {
        MemoryRecords records = MemoryRecords.withEndTransactionMarker(BASE_OFFSET, T0, LEADER_EPOCH, PRODUCER_ID, PRODUCER_EPOCH,
                new EndTransactionMarker(ControlRecordType.COMMIT, 5));
        ByteBuf bytes = Unpooled.wrappedBuffer(records.buffer());
        RecordBatch batch = RecordBatches.of(bytes).next();
        batch.ensureValid();
        assertThat(batch.isControl()).isTrue();
        assertThat(batch.isTransactional()).isTrue();
        assertThat(batch.producerId()).isEqualTo(PRODUCER_ID);
        assertThat(batch.partitionLeaderEpoch()).isEqualTo(LEADER_EPOCH);
        try (RecordIterator it = batch.records(ALLOC)) {
            Record marker = it.next();
            assertThat(marker.offset()).isEqualTo(BASE_OFFSET);
            // A control key is a version (int16) and a type (int16); COMMIT is type 1.
            assertThat(marker.key().getShort(marker.key().readerIndex() + 2)).isEqualTo(ControlRecordType.COMMIT.type());
            assertThat(it.hasNext()).isFalse();
        }
    }

    @Test
    void kafkaReadsOurTransactionMarkerAndWeReadItsMarker() {
        ByteBuf ours = new io.minibroker.protocol.record.EndTransactionMarker(
                io.minibroker.protocol.record.EndTransactionMarker.ABORT, 9).toBatch(ALLOC, PRODUCER_ID, PRODUCER_EPOCH, T0);
        try {
            MutableRecordBatch kafkaBatch = MemoryRecords.readableRecords(ours.nioBuffer()).batches().iterator().next();
            kafkaBatch.ensureValid();
            assertThat(kafkaBatch.isControlBatch()).isTrue();
            assertThat(kafkaBatch.isTransactional()).isTrue();
            org.apache.kafka.common.record.internal.Record record = kafkaBatch.iterator().next();
            assertThat(ControlRecordType.parse(record.key())).isEqualTo(ControlRecordType.ABORT);
            EndTransactionMarker theirs = EndTransactionMarker.deserialize(record);
            assertThat(theirs.coordinatorEpoch()).isEqualTo(9);
        } finally {
            ours.release();
        }
        MemoryRecords kafkas = MemoryRecords.withEndTransactionMarker(BASE_OFFSET, T0, LEADER_EPOCH, PRODUCER_ID,
                PRODUCER_EPOCH, new EndTransactionMarker(ControlRecordType.COMMIT, 5));
        RecordBatch batch = RecordBatches.of(Unpooled.wrappedBuffer(kafkas.buffer())).next();
        assertThat(io.minibroker.protocol.record.EndTransactionMarker.read(batch, ALLOC))
                .isEqualTo(new io.minibroker.protocol.record.EndTransactionMarker(
                        io.minibroker.protocol.record.EndTransactionMarker.COMMIT, 5));
    }

    @Test
    void detectsCrcCorruption() {
        ByteBuf bytes = kafkaBatch(CompressionType.NONE, false);
        int last = bytes.writerIndex() - 1;
        bytes.setByte(last, bytes.getByte(last) ^ 0x01);
        RecordBatch batch = RecordBatches.of(bytes).next();
        assertThat(batch.isValid()).isFalse();
        assertThatThrownBy(batch::ensureValid).isInstanceOf(ProtocolException.class)
                .satisfies(e -> assertThat(((ProtocolException) e).error()).isEqualTo(Errors.CORRUPT_MESSAGE));
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void offsetsAndEpochRewrittenInPlaceKeepCrcValid(CompressionType compression) {
        ByteBuf bytes = kafkaBatch(compression, false);
        RecordBatch batch = RecordBatches.of(bytes).next();
        batch.setBaseOffset(5_000_000L);
        batch.setPartitionLeaderEpoch(99);
        assertThat(batch.isValid()).isTrue();

        MutableRecordBatch kafka = MemoryRecords.readableRecords(bytes.nioBuffer()).batches().iterator().next();
        kafka.ensureValid();
        assertThat(kafka.baseOffset()).isEqualTo(5_000_000L);
        assertThat(kafka.partitionLeaderEpoch()).isEqualTo(99);
        assertThat(kafka.iterator().next().offset()).isEqualTo(5_000_000L);
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void logAppendTimeRecomputesCrc(CompressionType compression) {
        ByteBuf bytes = kafkaBatch(compression, false);
        RecordBatch batch = RecordBatches.of(bytes).next();
        batch.setLogAppendTime(T0 + 999_999);
        assertThat(batch.isValid()).isTrue();

        MutableRecordBatch kafka = MemoryRecords.readableRecords(bytes.nioBuffer()).batches().iterator().next();
        kafka.ensureValid();
        assertThat(kafka.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
        assertThat(kafka.maxTimestamp()).isEqualTo(T0 + 999_999);
        try (RecordIterator it = batch.records(ALLOC)) {
            Iterator<org.apache.kafka.common.record.internal.Record> theirs = kafka.iterator();
            while (it.hasNext()) {
                Record ours = it.next();
                assertThat(ours.timestamp()).isEqualTo(T0 + 999_999).isEqualTo(theirs.next().timestamp());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void kafkaReadsBatchesWeBuild(CompressionType compression) {
        RecordBatchBuilder builder = new RecordBatchBuilder(ALLOC, compression, BASE_OFFSET, T0)
                .producer(PRODUCER_ID, PRODUCER_EPOCH, BASE_SEQUENCE)
                .partitionLeaderEpoch(LEADER_EPOCH)
                .transactional(true);
        for (SimpleRecord r : sampleRecords()) {
            List<Header> headers = new ArrayList<>();
            for (org.apache.kafka.common.header.Header h : r.headers()) {
                headers.add(new Header(h.key(), h.value() == null ? null : Unpooled.wrappedBuffer(h.value())));
            }
            builder.append(r.timestamp(), r.key() == null ? null : bytes(r.key()), r.value() == null ? null : bytes(r.value()), headers);
        }
        ByteBuf built = builder.build();
        try {
            MutableRecordBatch kafka = MemoryRecords.readableRecords(built.nioBuffer()).batches().iterator().next();
            kafka.ensureValid();
            assertThat(compression.id()).isEqualTo(kafka.compressionType().id);
            assertThat(kafka.baseOffset()).isEqualTo(BASE_OFFSET);
            assertThat(kafka.isTransactional()).isTrue();
            assertThat(kafka.producerId()).isEqualTo(PRODUCER_ID);
            assertThat(kafka.baseSequence()).isEqualTo(BASE_SEQUENCE);
            assertThat(kafka.partitionLeaderEpoch()).isEqualTo(LEADER_EPOCH);
            assertThat(kafka.maxTimestamp()).isEqualTo(T0 + 100);
            List<SimpleRecord> expected = sampleRecords();
            int i = 0;
            for (org.apache.kafka.common.record.internal.Record k : kafka) {
                SimpleRecord e = expected.get(i);
                assertThat(k.offset()).isEqualTo(BASE_OFFSET + i);
                assertThat(k.timestamp()).isEqualTo(e.timestamp());
                assertThat(k.hasKey() ? bytes(k.key()) : null).isEqualTo(e.key() == null ? null : bytes(e.key()));
                assertThat(k.hasValue() ? bytes(k.value()) : null).isEqualTo(e.value() == null ? null : bytes(e.value()));
                assertThat(k.headers()).isEqualTo(e.headers());
                i++;
            }
            assertThat(i).isEqualTo(expected.size());
        } finally {
            built.release();
        }
    }

    @Test
    void legacyMagicIsRejectedWithKafkasError() {
        for (byte magic : new byte[] {0, 1}) {
            MemoryRecords legacy = MemoryRecords.withRecords(magic, Compression.NONE, new SimpleRecord(T0, bytes("k"), bytes("v")));
            Errors kafkaError;
            try {
                ProduceRequest.validateRecords((short) 13, legacy);
                throw new AssertionError("Kafka accepted magic " + magic);
            } catch (org.apache.kafka.common.InvalidRecordException e) {
                kafkaError = Errors.forCode(org.apache.kafka.common.protocol.Errors.forException(e).code());
            }
            RecordBatches batches = RecordBatches.of(Unpooled.wrappedBuffer(legacy.buffer()));
            assertThatThrownBy(batches::next).isInstanceOf(ProtocolException.class)
                    .satisfies(e -> assertThat(((ProtocolException) e).error()).isEqualTo(kafkaError).isEqualTo(Errors.INVALID_RECORD));
        }
    }

    @Test
    void stopsBeforePartialTrailingBatch() {
        ByteBuf whole = kafkaBatch(CompressionType.NONE, false);
        ByteBuf two = Unpooled.wrappedBuffer(whole.copy(), whole.copy(0, 40));
        RecordBatches batches = RecordBatches.of(two);
        assertThat(batches.next().baseOffset()).isEqualTo(BASE_OFFSET);
        assertThat(batches.hasNext()).isFalse();
        assertThat(batches.trailingBytes()).isEqualTo(40);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private static byte[] nullableBytes(ByteBuf b) {
        return b == null ? null : ByteBufUtil.getBytes(b);
    }
}
