package io.minibroker.broker.security;

import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/**
 * A principal as Kafka's DefaultKafkaPrincipalBuilder serializes it into an Envelope's RequestPrincipal (KIP-590):
 * its DefaultPrincipalData message, version 0 (int16), then Type and Name as compact strings, TokenAuthenticated as a
 * boolean, and no tagged fields. A broker sends it with each request it forwards to the controller, which acts as
 * that principal.
 */
public final class KafkaPrincipalSerde {

    private static final short VERSION = 0;

    private KafkaPrincipalSerde() {
    }

    public static byte[] serialize(KafkaPrincipal principal, boolean tokenAuthenticated) {
        ByteBuf out = Unpooled.buffer();
        out.writeShort(VERSION);
        writeCompactString(out, principal.principalType());
        writeCompactString(out, principal.name());
        out.writeBoolean(tokenAuthenticated);
        Wire.writeUnsignedVarint(out, 0); // no tagged fields
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return bytes;
    }

    /**
     * The principal of {@code bytes}, with whether a token signed it in; throws a ProtocolException (Kafka's
     * PRINCIPAL_DESERIALIZATION_FAILURE) for another version or bytes that do not hold one.
     */
    public static ForwardedPrincipal deserialize(byte[] bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        short version = Wire.readInt16(in);
        if (version != VERSION) {
            throw new ProtocolException("principal data version " + version + " is not 0");
        }
        String type = readCompactString(in);
        String name = readCompactString(in);
        boolean tokenAuthenticated = Wire.readBoolean(in);
        Wire.skipTaggedFields(in);
        return new ForwardedPrincipal(new KafkaPrincipal(type, name), tokenAuthenticated);
    }

    private static void writeCompactString(ByteBuf out, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        Wire.writeLength(out, utf8.length, true, false);
        out.writeBytes(utf8);
    }

    private static String readCompactString(ByteBuf in) {
        int length = Wire.readLength(in, true, false);
        if (length < 0) {
            throw new ProtocolException("a principal's type and name may not be null");
        }
        return Wire.readUtf8(in, length);
    }
}
