package io.minibroker.broker.group;

import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The topics in a consumer's JoinGroup metadata (Kafka's ConsumerProtocolSubscription), for the one decision the
 * coordinator takes on it: whether an OffsetDelete touches a topic the group still consumes. Every version starts
 * with its version (int16) and the topics (int32 count, then int16-length UTF-8 names); what follows is not read.
 */
final class ConsumerSubscription {

    /** The protocol type of consumer groups, whose members' metadata is a subscription. */
    static final String PROTOCOL_TYPE = "consumer";

    private ConsumerSubscription() {
    }

    /** The subscribed topics, or empty if the metadata is not a subscription (Kafka then treats it as none). */
    static Optional<Set<String>> topics(byte[] metadata) {
        ByteBuf in = Unpooled.wrappedBuffer(metadata);
        try {
            if (Wire.readInt16(in) < 0) {
                return Optional.empty();
            }
            int count = Wire.readLength(in, false, true);
            Set<String> topics = new HashSet<>();
            for (int i = 0; i < count; i++) {
                int length = Wire.readLength(in, false, false);
                if (length < 0) {
                    return Optional.empty();
                }
                topics.add(Wire.readUtf8(in, length));
            }
            return Optional.of(topics);
        } catch (ProtocolException e) { // cut short: Wire checks every length against what is there
            return Optional.empty();
        }
    }
}
