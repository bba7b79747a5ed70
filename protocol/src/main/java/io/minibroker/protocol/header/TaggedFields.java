package io.minibroker.protocol.header;

import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;

/** Headers define no tagged fields yet, so any a peer sends are skipped over by their declared size. */
final class TaggedFields {
    private TaggedFields() {
    }

    static void skip(ByteBuf in) {
        int count = Wire.readUnsignedVarint(in);
        if (count < 0 || count > in.readableBytes() / 2) {
            throw new ProtocolException("tagged field count " + count + " cannot fit in " + in.readableBytes() + " bytes");
        }
        for (int i = 0; i < count; i++) {
            Wire.readUnsignedVarint(in);
            int size = Wire.readUnsignedVarint(in);
            Wire.require(in, size, "tagged field");
            in.skipBytes(size);
        }
    }
}
