package io.minibroker.protocol.schema;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;

/**
 * The body of one request or response across all its versions: which versions exist, from which version
 * on the encoding is flexible (compact lengths and tagged sections), and the top-level struct.
 */
public final class MessageSchema {
    private final String name;
    private final VersionRange validVersions;
    private final VersionRange flexibleVersions;
    private final StructSchema body;
    /** The body's ThrottleTimeMs field (each response's name for it in Kafka's specs), its index: null, -1 if none. */
    private final Field throttleTime;
    private final int throttleTimeIndex;

    MessageSchema(String name, VersionRange validVersions, VersionRange flexibleVersions, StructSchema body) {
        this.name = name;
        this.validVersions = validVersions;
        this.flexibleVersions = flexibleVersions;
        this.body = body;
        this.throttleTimeIndex = body.fields().stream().map(Field::name).toList().indexOf("ThrottleTimeMs");
        this.throttleTime = throttleTimeIndex < 0 ? null : body.fields().get(throttleTimeIndex);
    }

    public String name() {
        return name;
    }

    public short lowestVersion() {
        return validVersions.lowest();
    }

    public short highestVersion() {
        return validVersions.highest();
    }

    public boolean supports(short version) {
        return validVersions.contains(version);
    }

    /** Also answers for versions newer than any supported: flexibility, once started, never ends. */
    public boolean isFlexible(short version) {
        return flexibleVersions.contains(version);
    }

    public StructSchema body() {
        return body;
    }

    public Struct newMessage() {
        return body.newStruct();
    }

    /**
     * Sets a response's ThrottleTimeMs if its version has one, as Kafka's AbstractResponse.maybeSetThrottleTimeMs:
     * a response of any API can carry a client quota's throttle time.
     */
    public void maybeSetThrottleTimeMs(Struct message, short version, int throttleTimeMs) {
        if (throttleTime != null && throttleTime.existsIn(version)) {
            message.setInt32(throttleTimeIndex, throttleTimeMs);
        }
    }

    /**
     * Decodes a body from the start of {@code in}. Bytes after its end are left unread, not refused: Kafka's
     * readers (AbstractRequest.parseRequest, AbstractResponse.parseResponse) stop where the body ends and ignore
     * the rest of the frame, and clients rely on that. librdkafka 2.16 asks for all topics with a Metadata v13
     * body of {@code 00 00 00 00 01 00 00}: the four-byte placeholder it reserves for the topic count, never
     * shrunk to the one-byte null it stands for, reads as a null topic array, two false booleans and an empty
     * tagged section, and its real booleans and tagged section are three bytes past the end.
     */
    public Struct read(ByteBuf in, short version) {
        checkVersion(version);
        return body.read(in, version, isFlexible(version), false);
    }

    public void write(ByteBuf out, Struct message, short version) {
        write(out, message, version, Splices.NONE);
    }

    /** Writes a message whose records fields may hold {@link RecordsPayload}s, noting them in {@code splices}. */
    public void write(ByteBuf out, Struct message, short version, Splices splices) {
        checkVersion(version);
        body.write(out, message, version, isFlexible(version), splices);
    }

    public int sizeOf(Struct message, short version) {
        checkVersion(version);
        return body.sizeOf(message, version, isFlexible(version));
    }

    private void checkVersion(short version) {
        if (!validVersions.contains(version)) {
            throw new ProtocolException(Errors.UNSUPPORTED_VERSION,
                    name + " does not support version " + version + " (supported: " + validVersions + ")");
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
