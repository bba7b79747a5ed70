package io.minibroker.broker.group;

import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.record.RecordIterator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The batches of {@code __consumer_offsets} as they lie in a stopped broker's log dir, for tests that check what
 * was written together: records are only seen one at a time through the broker's APIs, and a replay hides
 * records it drops.
 */
final class OffsetsTopicSegments {

    private OffsetsTopicSegments() {
    }

    /** Each batch of every partition, as its records' keys to values in log order (a null value: a tombstone). */
    static List<Map<ByteBuffer, byte[]>> batches(Path logDir) throws IOException {
        List<Path> segments;
        try (Stream<Path> files = Files.walk(logDir)) {
            segments = files.filter(file -> file.getParent().getFileName().toString()
                    .startsWith(OffsetsTopic.NAME + "-") && file.getFileName().toString().endsWith(".log"))
                    .sorted().toList();
        }
        List<Map<ByteBuffer, byte[]>> batches = new ArrayList<>();
        for (Path segment : segments) {
            ByteBuf bytes = Unpooled.wrappedBuffer(Files.readAllBytes(segment));
            for (RecordBatches each = RecordBatches.of(bytes); each.hasNext(); ) {
                RecordBatch batch = each.next();
                if (batch.isControl()) {
                    continue;
                }
                Map<ByteBuffer, byte[]> records = new LinkedHashMap<>();
                try (RecordIterator iterator = batch.records(UnpooledByteBufAllocator.DEFAULT)) {
                    while (iterator.hasNext()) {
                        Record record = iterator.next();
                        records.put(ByteBuffer.wrap(ByteBufUtil.getBytes(record.key())),
                                record.value() == null ? null : ByteBufUtil.getBytes(record.value()));
                    }
                }
                batches.add(records);
            }
        }
        return batches;
    }
}
