package io.minibroker.protocol.message;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.header.ResponseHeader;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Turns frame bodies into requests and responses and back. Encoding sizes the message first and writes
 * it into one buffer of exactly that size, size prefix included, ready to be written to a channel.
 */
public final class MessageCodec {
    private MessageCodec() {
    }

    /**
     * Decodes a request frame body (without its size prefix). A version the API does not support fails
     * with {@link Errors#UNSUPPORTED_VERSION}; a broker wanting to answer such ApiVersions requests reads
     * the header first with {@link RequestHeader#read(ByteBuf)} and checks {@link ApiKey#supports}. A body
     * that cannot be read fails with {@link Errors#INVALID_REQUEST}, as Kafka reports unparseable requests.
     * Records fields of the result are slices of {@code frame}: keep it retained while they are used.
     */
    public static Request decodeRequest(ByteBuf frame) {
        try {
            RequestHeader header = RequestHeader.read(frame);
            ApiKey api = ApiKey.forId(header.apiKey());
            return new Request(header, api, api.request().read(frame, header.apiVersion()));
        } catch (ProtocolException e) {
            if (e.error() == Errors.UNSUPPORTED_VERSION || e.error() == Errors.INVALID_REQUEST) {
                throw e;
            }
            throw new ProtocolException(Errors.INVALID_REQUEST, "cannot read request: " + e.getMessage(), e);
        }
    }

    public static ByteBuf encodeRequest(ByteBufAllocator alloc, RequestHeader header, Struct body) {
        ApiKey api = ApiKey.forId(header.apiKey());
        if (api == null) {
            throw new ProtocolException(Errors.INVALID_REQUEST, "unknown API key " + header.apiKey());
        }
        short version = header.apiVersion();
        short headerVersion = RequestHeader.headerVersion(api, version);
        int size = header.sizeOf(headerVersion) + api.request().sizeOf(body, version);
        ByteBuf out = alloc.buffer(Frames.SIZE_PREFIX_BYTES + size);
        try {
            out.writeInt(size);
            header.write(out, headerVersion);
            api.request().write(out, body, version);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** Decodes a response frame body for the request it answers, as the client side knows api and version. */
    public static Response decodeResponse(ByteBuf frame, ApiKey api, short version) {
        ResponseHeader header = ResponseHeader.read(frame, ResponseHeader.headerVersion(api, version));
        return new Response(header.correlationId(), api.response().read(frame, version));
    }

    public static ByteBuf encodeResponse(ByteBufAllocator alloc, ApiKey api, short version, int correlationId, Struct body) {
        short headerVersion = ResponseHeader.headerVersion(api, version);
        int size = ResponseHeader.sizeOf(headerVersion) + api.response().sizeOf(body, version);
        ByteBuf out = alloc.buffer(Frames.SIZE_PREFIX_BYTES + size);
        try {
            out.writeInt(size);
            new ResponseHeader(correlationId).write(out, headerVersion);
            api.response().write(out, body, version);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }
}
