package io.minibroker.protocol.header;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * The header in front of every request body. Three layouts exist:
 * <ul>
 *   <li>v0: api key (int16), api version (int16), correlation id (int32);</li>
 *   <li>v1: v0 plus the client id, a nullable string with an int16 length;</li>
 *   <li>v2: v1 plus a tagged-field section. The client id keeps its int16 length even here, so that a
 *       broker can read it before knowing whether it understands the request.</li>
 * </ul>
 * Which layout a request uses follows from its API and version: v2 for flexible versions, v1 otherwise.
 * For example ApiVersions v3 from client "c" with correlation id 7 starts
 * {@code 0012 0003 00000007 0001 63 00}.
 */
public record RequestHeader(short apiKey, short apiVersion, int correlationId, String clientId) {

    /** The header layout for a request; flexibility of unknown newer versions follows the open range. */
    public static short headerVersion(ApiKey api, short apiVersion) {
        return api.request().isFlexible(apiVersion) ? (short) 2 : (short) 1;
    }

    /**
     * Reads a header, choosing its layout from the API key and version at its start. The version may be
     * one this module does not support (the ApiVersions fallback needs the header of such requests), for
     * ApiVersions even a negative one, which Kafka answers with that fallback too (v1 layout, as its generated
     * header-version table gives below v3); an unknown API key fails, as the rest of the frame cannot be
     * interpreted.
     */
    public static RequestHeader read(ByteBuf in) {
        Wire.require(in, 4, "request header");
        short key = in.getShort(in.readerIndex());
        short version = in.getShort(in.readerIndex() + 2);
        ApiKey api = ApiKey.forId(key);
        if (api == null) {
            throw new ProtocolException(Errors.INVALID_REQUEST, "unknown API key " + key);
        }
        if (version < 0 && api != ApiKey.API_VERSIONS) {
            throw new ProtocolException(Errors.UNSUPPORTED_VERSION, "negative API version " + version);
        }
        return read(in, headerVersion(api, version));
    }

    public static RequestHeader read(ByteBuf in, short headerVersion) {
        short key = Wire.readInt16(in);
        short version = Wire.readInt16(in);
        int correlationId = Wire.readInt32(in);
        String clientId = null;
        if (headerVersion >= 1) {
            int length = Wire.readInt16(in);
            // Kafka's header reader takes any negative length for a null client id, not only -1.
            clientId = length < 0 ? null : Wire.readUtf8(in, length);
        }
        if (headerVersion >= 2) {
            TaggedFields.skip(in);
        }
        return new RequestHeader(key, version, correlationId, clientId);
    }

    public void write(ByteBuf out, short headerVersion) {
        out.writeShort(apiKey);
        out.writeShort(apiVersion);
        out.writeInt(correlationId);
        if (headerVersion >= 1) {
            if (clientId == null) {
                out.writeShort(-1);
            } else {
                out.writeShort(clientIdLength());
                out.writeCharSequence(clientId, StandardCharsets.UTF_8);
            }
        }
        if (headerVersion >= 2) {
            Wire.writeUnsignedVarint(out, 0);
        }
    }

    public int sizeOf(short headerVersion) {
        int size = 8;
        if (headerVersion >= 1) {
            size += 2 + (clientId == null ? 0 : clientIdLength());
        }
        return headerVersion >= 2 ? size + 1 : size;
    }

    private int clientIdLength() {
        int length = ByteBufUtil.utf8Bytes(clientId);
        if (length > Wire.MAX_STRING_BYTES) {
            throw new ProtocolException("client id of " + length + " bytes is too long");
        }
        return length;
    }
}
