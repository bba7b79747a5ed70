package io.minibroker.protocol.message;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.frame.OutboundFrame;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBufAllocator;

/**
 * The answer to an ApiVersions request of a version newer than this broker knows. The client cannot be
 * answered in its version, so it gets version 0, which every client can read, with UNSUPPORTED_VERSION
 * and the supported ranges; it then retries with the highest version both sides know.
 */
public final class ApiVersionsFallback {
    private static final short FALLBACK_VERSION = 0;

    private ApiVersionsFallback() {
    }

    /** Whether a request with this header must be answered by {@link #encode} rather than decoded. */
    public static boolean applies(short apiKey, short apiVersion) {
        return apiKey == ApiKey.API_VERSIONS.id() && !ApiKey.API_VERSIONS.supports(apiVersion);
    }

    public static Struct body() {
        Struct body = ApiKey.API_VERSIONS.response().newMessage();
        body.set("ErrorCode", Errors.UNSUPPORTED_VERSION.code());
        for (ApiKey api : ApiKey.values()) {
            body.addElement("ApiKeys")
                    .set("ApiKey", api.id())
                    .set("MinVersion", api.lowestVersion())
                    .set("MaxVersion", api.highestStableVersion());
        }
        return body;
    }

    public static OutboundFrame encode(ByteBufAllocator alloc, int correlationId) {
        return MessageCodec.encodeResponse(alloc, ApiKey.API_VERSIONS, FALLBACK_VERSION, correlationId, body());
    }
}
