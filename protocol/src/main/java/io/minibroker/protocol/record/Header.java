package io.minibroker.protocol.record;

import io.netty.buffer.ByteBuf;

/** A record header: a string key and a value that may be null. The value is a slice of the batch, not a copy. */
public record Header(String key, ByteBuf value) {
}
