package io.minibroker.broker.topic;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.UUID;

/**
 * Kafka's topic ids: random UUIDs written as URL-safe base64 without padding (as Kafka's {@code Uuid} prints
 * them), never the all-zero id (which means "no id" on the wire) nor Kafka's reserved metadata-topic id, and
 * never one whose text starts with '-' (it would read as a command-line option), as Kafka avoids them too.
 */
public final class TopicIds {

    public static final UUID ZERO = new UUID(0, 0);
    /** Kafka's id of __cluster_metadata, the topic brokers follow the controller's changes on. */
    public static final UUID METADATA_TOPIC_ID = new UUID(0, 1);

    private TopicIds() {
    }

    public static UUID random() {
        while (true) {
            UUID id = UUID.randomUUID();
            if (!id.equals(ZERO) && !id.equals(METADATA_TOPIC_ID) && !toText(id).startsWith("-")) {
                return id;
            }
        }
    }

    public static String toText(UUID id) {
        ByteBuffer bytes = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    public static UUID fromText(String text) {
        ByteBuffer bytes = ByteBuffer.wrap(Base64.getUrlDecoder().decode(text));
        return new UUID(bytes.getLong(), bytes.getLong());
    }
}
