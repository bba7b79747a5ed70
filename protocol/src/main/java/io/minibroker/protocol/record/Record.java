package io.minibroker.protocol.record;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * One record of a batch, with offset and timestamp already resolved against the batch. Key, value and
 * header values are slices of the batch (or of its decompressed records), valid while the batch is.
 */
public record Record(long offset, long timestamp, int sequence, byte attributes, ByteBuf key, ByteBuf value,
                     List<Header> headers) {
}
