package io.minibroker.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Random sequences of appends, reads, clean and unclean reopens, torn tails, truncations and DeleteRecords,
 * checked against a model: the list of batches the log should hold.
 */
class PartitionLogPropertyTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final TopicPartition TP = new TopicPartition("prop-topic", 0);
    private static final LogConfig CONFIG = LogConfig.defaults().withSegmentBytes(1024).withIndexIntervalBytes(100);

    /** A batch as the model knows it. */
    record ModelBatch(long baseOffset, long lastOffset, int size, List<TestBatches.Entry> entries) {
    }

    private final MutableClock clock = new MutableClock(T0);

    @Property(tries = 100)
    void theLogAgreesWithTheModel(@ForAll @Size(max = 60) List<@IntRange(min = 0, max = 9999) Integer> ops) throws IOException {
        Path logDir = Files.createTempDirectory("partition-log-property");
        PartitionLog log = TestLogs.open(logDir, TP, CONFIG, clock, 0, 0, true);
        List<ModelBatch> model = new ArrayList<>();
        long logStart = 0;
        long logEnd = 0;
        try {
            for (int op : ops) {
                int value = op / 10;
                switch (op % 10) {
                    case 0, 1, 2, 3 -> {
                        int records = 1 + value % 5;
                        long timestamp = T0 + value;
                        ByteBuf batch = TestBatches.batch("p" + value, records, timestamp);
                        int size = batch.readableBytes();
                        AppendResult result = log.append(batch, 0);
                        batch.release();
                        assertThat(result.firstOffset()).isEqualTo(logEnd);
                        List<TestBatches.Entry> entries = new ArrayList<>();
                        for (int i = 0; i < records; i++) {
                            entries.add(new TestBatches.Entry(logEnd + i, timestamp, "p" + value + "-" + i));
                        }
                        model.add(new ModelBatch(logEnd, logEnd + records - 1, size, entries));
                        logEnd += records;
                    }
                    case 4 -> {
                        if (logEnd > logStart) {
                            long offset = logStart + value % (logEnd - logStart);
                            List<TestBatches.Entry> read = TestBatches.decode(log.read(offset, 1, true, Long.MAX_VALUE));
                            // The batch holding the offset or the first after it; none past the last batch, which a
                            // truncation may leave before the log end.
                            List<TestBatches.Entry> holding = model.stream().filter(b -> b.lastOffset() >= offset)
                                    .findFirst().map(ModelBatch::entries).orElse(List.of());
                            assertThat(read).isEqualTo(holding);
                        }
                    }
                    case 5 -> {
                        log.close();
                        log = TestLogs.open(logDir, TP, CONFIG, clock, log.recoveryPoint(), logStart, true);
                        logEnd = reopenedEnd(model, log);
                        logStart = Math.min(logStart, logEnd);
                    }
                    case 6 -> {
                        log.close();
                        log = TestLogs.open(logDir, TP, CONFIG, clock, 0, logStart, false);
                        logEnd = reopenedEnd(model, log);
                        logStart = Math.min(logStart, logEnd);
                    }
                    case 7 -> {
                        // A crash that tore the last batch: it must be cut, everything before it kept.
                        Path active = lastSegmentFile(log);
                        if (!model.isEmpty() && Files.size(active) > 0 && model.get(model.size() - 1).baseOffset() >= logStart) {
                            ModelBatch last = model.get(model.size() - 1);
                            log.close();
                            try (FileChannel channel = FileChannel.open(active, StandardOpenOption.WRITE)) {
                                channel.truncate(channel.size() - 1 - value % last.size());
                            }
                            log = TestLogs.open(logDir, TP, CONFIG, clock, 0, logStart, false);
                            model.remove(model.size() - 1);
                            logEnd = reopenedEnd(model, log);
                            logStart = Math.min(logStart, logEnd);
                        }
                    }
                    case 8 -> {
                        long offset = logStart + (logEnd - logStart + 1 == 0 ? 0 : value % (logEnd - logStart + 1));
                        log.truncateTo(offset);
                        if (offset < logEnd) {
                            // To the log start or before: emptied. (Its first segment never starts past the log
                            // start, so a cut past the start always leaves that segment's batches before it.)
                            if (offset <= logStart) {
                                model.clear();
                                logStart = offset;
                            }
                            // The batch holding the offset goes whole; the log ends at the offset all the same.
                            model.removeIf(b -> b.lastOffset() >= offset);
                            logEnd = offset;
                        }
                    }
                    default -> {
                        long offset = logStart + value % (logEnd - logStart + 1);
                        log.deleteRecordsBefore(offset);
                        logStart = Math.max(logStart, offset);
                    }
                }
                assertThat(log.logEndOffset()).isEqualTo(logEnd);
                assertThat(log.logStartOffset()).isEqualTo(logStart);
            }
            long start = logStart;
            List<TestBatches.Entry> expected = model.stream().flatMap(b -> b.entries().stream())
                    .filter(e -> e.offset() >= start).toList();
            assertThat(TestBatches.readAll(log)).isEqualTo(expected);
        } finally {
            log.close();
            deleteRecursively(logDir);
        }
    }

    /**
     * Where a reopened log ends: after its last batch, or at its last segment's base if that holds none. A truncation
     * that ended the log past its last batch is not remembered, as in Kafka, whose reopened log ends at its last batch
     * too. Segments are the log's own choice, not modelled.
     */
    private static long reopenedEnd(List<ModelBatch> model, PartitionLog log) {
        long lastSegmentBase = 0;
        for (Iterator<Long> bases = log.segmentBaseOffsets(); bases.hasNext(); ) {
            lastSegmentBase = bases.next();
        }
        return model.isEmpty() ? lastSegmentBase
                : Math.max(lastSegmentBase, model.get(model.size() - 1).lastOffset() + 1);
    }

    private static Path lastSegmentFile(PartitionLog log) throws IOException {
        try (Stream<Path> files = Files.list(log.dir())) {
            return files.filter(p -> p.toString().endsWith(".log")).max(Comparator.naturalOrder()).orElseThrow();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
