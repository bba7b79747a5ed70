package io.minibroker.protocol.header;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;

/**
 * The header in front of every response body: the request's correlation id (v0), followed by a
 * tagged-field section in v1, which flexible versions use. ApiVersions responses always use v0: a client
 * that sent a version the broker does not know must still be able to read the answer.
 */
public record ResponseHeader(int correlationId) {

    public static short headerVersion(ApiKey api, short apiVersion) {
        if (api == ApiKey.API_VERSIONS) {
            return 0;
        }
        return api.response().isFlexible(apiVersion) ? (short) 1 : (short) 0;
    }

    public static ResponseHeader read(ByteBuf in, short headerVersion) {
        int correlationId = Wire.readInt32(in);
        if (headerVersion >= 1) {
            TaggedFields.skip(in);
        }
        return new ResponseHeader(correlationId);
    }

    public void write(ByteBuf out, short headerVersion) {
        out.writeInt(correlationId);
        if (headerVersion >= 1) {
            Wire.writeUnsignedVarint(out, 0);
        }
    }

    public static int sizeOf(short headerVersion) {
        return headerVersion >= 1 ? 5 : 4;
    }
}
