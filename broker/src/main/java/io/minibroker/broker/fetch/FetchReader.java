package io.minibroker.broker.fetch;

import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.LogReadResult;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.io.UncheckedIOException;

/**
 * Reads what a fetch asks for and builds its response: per partition up to its {@code PartitionMaxBytes}, in
 * all up to the request's {@code MaxBytes}, but always at least one whole batch for the first partition with
 * data (so a batch larger than the limits still gets through, as in Kafka). Only data below the high watermark
 * is returned; on one node that is the log end offset.
 *
 * <p>The bytes are copied from the segment into heap buffers that the garbage collector reclaims (no reference
 * counting to get wrong across the purgatory's threads). Sending straight from the file (a Netty FileRegion)
 * needs the response encoder to write around a region; that is still to do.
 */
final class FetchReader {

    private static final ByteBufAllocator HEAP = new UnpooledByteBufAllocator(false, true);

    /** The response, and how many record bytes it carries. */
    record Result(Struct response, int bytes, boolean anyError) {
    }

    private FetchReader() {
    }

    static Result read(FetchPlan plan) {
        Struct response = ApiKey.FETCH.response().newMessage().set("SessionId", 0);
        int remaining = plan.maxBytes();
        int total = 0;
        boolean anyError = false;
        for (FetchPlan.TopicPlan topic : plan.topics()) {
            Struct topicResponse = response.addElement("Responses");
            if (topic.id() != null) {
                topicResponse.set("TopicId", topic.id());
            } else {
                topicResponse.set("Topic", topic.name());
            }
            for (FetchPlan.PartitionPlan partition : topic.partitions()) {
                Struct result = topicResponse.addElement("Partitions")
                        .set("PartitionIndex", partition.index())
                        .set("Records", Unpooled.EMPTY_BUFFER);
                Errors error = partition.error();
                PartitionLog log = partition.log();
                if (log != null) {
                    long highWatermark = log.logEndOffset(); // single replica
                    result.set("HighWatermark", highWatermark)
                            .set("LastStableOffset", highWatermark)
                            .set("LogStartOffset", log.logStartOffset());
                    try {
                        LogReadResult read = log.read(partition.fetchOffset(),
                                Math.min(partition.maxBytes(), Math.max(remaining, 0)), total == 0, highWatermark);
                        if (!read.isEmpty()) {
                            result.set("Records", read.readInto(HEAP));
                            remaining -= read.length();
                            total += read.length();
                        }
                    } catch (LogException e) {
                        error = e.error();
                    } catch (UncheckedIOException e) { // the segment went away under the read (retention, delete)
                        error = Errors.KAFKA_STORAGE_ERROR;
                    }
                } else {
                    result.set("HighWatermark", -1L);
                }
                result.set("ErrorCode", error.code());
                anyError |= error != Errors.NONE;
            }
        }
        return new Result(response, total, anyError);
    }

    /** Record bytes available now for the plan, up to the limits; no copy. */
    static int available(FetchPlan plan) {
        int total = 0;
        for (FetchPlan.TopicPlan topic : plan.topics()) {
            for (FetchPlan.PartitionPlan partition : topic.partitions()) {
                PartitionLog log = partition.log();
                if (log == null) {
                    continue;
                }
                if (partition.fetchOffset() > log.logEndOffset() || partition.fetchOffset() < log.logStartOffset()) {
                    return Integer.MAX_VALUE; // out of range: Kafka answers at once, so the consumer can reset
                }
                if (log.logEndOffset() == partition.fetchOffset()) {
                    continue;
                }
                try {
                    total += log.read(partition.fetchOffset(), partition.maxBytes(), total == 0, log.logEndOffset())
                            .length();
                } catch (LogException | UncheckedIOException e) {
                    return Integer.MAX_VALUE; // the partition changed under the fetch: answer now with its error
                }
            }
        }
        return total;
    }
}
