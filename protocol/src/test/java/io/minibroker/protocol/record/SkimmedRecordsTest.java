package io.minibroker.protocol.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Skimming a compressed batch finds what reading it whole finds (ours, and kafka-clients' parsing): the same
 * records, or a refusal, for every codec; and it holds one piece of the records at a time, however far they
 * inflate. Plain records read in place (an uncompressed batch's body, or a batch's records decompressed) agree with
 * reading them whole too.
 */
class SkimmedRecordsTest {
    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);
    private static final int LIMIT = RecordBatch.DEFAULT_MAX_DECOMPRESSED_BYTES;

    /** Records with null and empty keys, values of several sizes, and headers with null and set values. */
    private static RecordBatch sample(CompressionType type, int records, int valueBytes) {
        RecordBatchBuilder builder = new RecordBatchBuilder(ALLOC, type, 40, 1_000);
        for (int i = 0; i < records; i++) {
            byte[] key = i % 3 == 0 ? null : i % 3 == 1 ? new byte[0] : ("k" + i).getBytes();
            byte[] value = new byte[valueBytes + i % 7];
            Arrays.fill(value, (byte) i);
            builder.append(1_000 + i * 3L, key, value, List.of(new Header("h" + i,
                    i % 2 == 0 ? null : Unpooled.wrappedBuffer(new byte[] {1, 2, 3}))));
        }
        return RecordBatch.wrap(builder.build());
    }

    /** What the validator looks at of one record; lengths are -1 for null. */
    private record Seen(long offset, long timestamp, int keyLength, int valueLength) {
    }

    /** The records read whole, by our own {@link RecordIterator}. */
    private static List<Seen> readWhole(RecordBatch batch) {
        List<Seen> found = new ArrayList<>();
        try (RecordIterator records = batch.records(ALLOC, LIMIT)) {
            while (records.hasNext()) {
                Record r = records.next();
                found.add(new Seen(r.offset(), r.timestamp(), r.key() == null ? -1 : r.key().readableBytes(),
                        r.value() == null ? -1 : r.value().readableBytes()));
            }
        }
        return found;
    }

    /** The records as kafka-clients parses them: an oracle that shares no code with ours. */
    private static List<Seen> readByKafka(RecordBatch batch) {
        List<Seen> found = new ArrayList<>();
        for (MutableRecordBatch kafka : MemoryRecords.readableRecords(batch.slice().nioBuffer()).batches()) {
            for (org.apache.kafka.common.record.internal.Record r : kafka) {
                found.add(new Seen(r.offset(), r.timestamp(), r.keySize(), r.valueSize()));
            }
        }
        return found;
    }

    /** Every record left, through the reader's fields ({@link SkimmedRecords#readNext}). */
    private static List<Seen> readAll(SkimmedRecords records) {
        List<Seen> found = new ArrayList<>();
        while (records.hasNext()) {
            records.readNext();
            found.add(new Seen(records.offset(), records.timestamp(), records.keyLength(), records.valueLength()));
        }
        return found;
    }

    private static List<Seen> skim(RecordBatch batch, int limit) {
        try (SkimmedRecords records = batch.skimmedRecords(ALLOC, limit)) {
            return readAll(records);
        }
    }

    /** The plain records read in place. */
    private static List<Seen> skimPlain(RecordBatch batch) {
        ByteBuf plain = batch.plainRecords(ALLOC, LIMIT);
        try (SkimmedRecords records = batch.skimmedRecords(plain)) {
            List<Seen> found = readAll(records);
            assertThat(plain.readerIndex()).as("the caller's buffer is not moved").isZero();
            return found;
        } finally {
            plain.release();
        }
    }

    private static boolean compressed(CompressionType type) {
        return type != CompressionType.NONE;
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, mode = EnumSource.Mode.EXCLUDE, names = "NONE")
    void skimmingFindsTheRecordsReadingWholeFinds(CompressionType type) {
        RecordBatch batch = sample(type, 300, 500);
        List<Seen> skimmed = skim(batch, LIMIT);

        assertThat(skimmed).hasSize(300).isEqualTo(readByKafka(batch)).isEqualTo(readWhole(batch));
        assertThat(skimmed.get(0)).isEqualTo(new Seen(40, 1_000, -1, 500));
        assertThat(skimmed.get(2)).isEqualTo(new Seen(42, 1_006, 2, 502));
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void readingPlainRecordsInPlaceFindsTheRecordsReadingWholeFinds(CompressionType type) {
        RecordBatch batch = sample(type, 300, 500);
        List<Seen> skimmed = skimPlain(batch);

        assertThat(skimmed).hasSize(300).isEqualTo(readByKafka(batch)).isEqualTo(readWhole(batch));
        assertThat(skimmed.get(2)).isEqualTo(new Seen(42, 1_006, 2, 502));
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, mode = EnumSource.Mode.EXCLUDE, names = "NONE")
    void recordsInflatingPastTheLimitAreRefused(CompressionType type) {
        RecordBatch batch = sample(type, 40, 1_000);

        assertThatThrownBy(() -> skim(batch, 20_000)).isInstanceOf(ProtocolException.class)
                .extracting(e -> ((ProtocolException) e).error()).isEqualTo(Errors.CORRUPT_MESSAGE);
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, mode = EnumSource.Mode.EXCLUDE, names = "NONE")
    void aBatchInflatingFarBeyondOnePieceIsReadHoldingOnePiece(CompressionType type) {
        InflationBudget budget = new InflationBudget(5L << 20); // 5 MB for a batch that inflates to 30 MB
        RecordBatch batch = sample(type, 30, 1 << 20);

        List<Seen> skimmed;
        try (SkimmedRecords records = batch.skimmedRecords(budget, LIMIT)) {
            skimmed = readAll(records);
        }

        assertThat(skimmed).hasSize(30);
        assertThat(skimmed.get(29).valueLength()).isEqualTo((1 << 20) + 29 % 7);
        assertThat(budget.inUse()).as("every piece given back").isZero();
        assertThatThrownBy(() -> batch.plainRecords(budget, LIMIT).release())
                .as("the whole batch does not fit the same budget").isInstanceOf(ProtocolException.class);
    }

    /**
     * The plain records of a sample, mutated, then compressed afresh (so the codec reads them back as they are):
     * skimming them and reading them whole agree on every mutation, records or refusal.
     */
    @Property(tries = 1500)
    void skimmingAndReadingWholeAgreeOnMutatedRecords(@ForAll CompressionType type, @ForAll long seed,
                                                      @ForAll @IntRange(min = 1, max = 4) int mutations) {
        Random random = new Random(seed);
        RecordBatch plainBatch = sample(CompressionType.NONE, 6, 5);
        ByteBuf body = plainBatch.plainRecords(ALLOC, LIMIT);
        byte[] plain = ByteBufUtil.getBytes(body);
        body.release();
        for (int m = 0; m < mutations; m++) {
            plain[random.nextInt(plain.length)] = (byte) (random.nextInt(10) < 5 ? random.nextInt(256) : 0x7f);
        }
        if (random.nextInt(8) == 0) {
            plain = Arrays.copyOf(plain, plain.length + random.nextInt(5) - 2); // cut or extend the end
        }
        RecordBatch batch = RecordBatch.wrap(plainBatch.recompressed(ALLOC, type, Unpooled.wrappedBuffer(plain)));

        Object whole = outcome(() -> readWhole(batch));
        Object skimmed = outcome(() -> compressed(type) ? skim(batch, LIMIT) : skimPlain(batch));
        assertThat(skimmed).isEqualTo(whole);
        assertThat(outcome(() -> skimPlain(batch))).as("the same records read in place").isEqualTo(whole);
    }

    /** The records found, or the class of the refusal (the messages may differ). */
    private static Object outcome(java.util.function.Supplier<List<Seen>> read) {
        try {
            return read.get();
        } catch (ProtocolException e) {
            return ProtocolException.class;
        }
    }
}
