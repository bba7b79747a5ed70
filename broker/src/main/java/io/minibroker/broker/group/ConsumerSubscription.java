package io.minibroker.broker.group;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
        try {
            ByteBuffer in = ByteBuffer.wrap(metadata);
            if (in.getShort() < 0) {
                return Optional.empty();
            }
            int count = in.getInt();
            if (count < 0 || count > in.remaining() / 2) {
                return Optional.empty();
            }
            Set<String> topics = new HashSet<>();
            for (int i = 0; i < count; i++) {
                int length = in.getShort();
                if (length < 0 || length > in.remaining()) {
                    return Optional.empty();
                }
                byte[] name = new byte[length];
                in.get(name);
                topics.add(new String(name, StandardCharsets.UTF_8));
            }
            return Optional.of(topics);
        } catch (BufferUnderflowException e) {
            return Optional.empty();
        }
    }
}
