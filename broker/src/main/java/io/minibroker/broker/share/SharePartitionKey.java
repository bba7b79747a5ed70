package io.minibroker.broker.share;

import io.minibroker.broker.topic.TopicIds;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/** A share partition: one group's view of one topic partition, named by topic id as the share APIs name it. */
public record SharePartitionKey(String groupId, UUID topicId, int partition) {

    private static final String SEPARATOR = ":";
    /** A topic id's text: 16 bytes in URL-safe base64, 22 characters unpadded; Kafka refuses anything past 24. */
    private static final int TOPIC_ID_BYTES = 16;
    private static final int TOPIC_ID_MAX_CHARS = 24;

    /**
     * Kafka's coordinator key of the share partition, {@code groupId:topicId:partition} with the topic id in Kafka's
     * text form: it picks the share partition's partition of {@code __share_group_state}, and FindCoordinator's key
     * type 2 names a share partition by it.
     */
    public String coordinatorKey() {
        return groupId + SEPARATOR + TopicIds.toText(topicId) + SEPARATOR + partition;
    }

    /**
     * The share partition a coordinator key names, read as Kafka's SharePartitionKey.getInstance reads it: the last
     * two parts (split at ':') are the topic id and the partition, everything before them the group id (which may
     * hold ':' itself, and must not be blank); empty when the key is not one.
     */
    public static Optional<SharePartitionKey> fromCoordinatorKey(String key) {
        String[] parts = key.split(SEPARATOR);
        if (parts.length < 3) {
            return Optional.empty();
        }
        String groupId = String.join(SEPARATOR, Arrays.copyOfRange(parts, 0, parts.length - 2));
        if (groupId.isBlank()) {
            return Optional.empty();
        }
        Optional<UUID> topicId = topicId(parts[parts.length - 2]);
        try {
            int partition = Integer.parseInt(parts[parts.length - 1]);
            return topicId.map(id -> new SharePartitionKey(groupId, id, partition));
        } catch (NumberFormatException notANumber) {
            return Optional.empty();
        }
    }

    private static Optional<UUID> topicId(String text) {
        if (text.length() > TOPIC_ID_MAX_CHARS) {
            return Optional.empty();
        }
        try {
            ByteBuffer bytes = ByteBuffer.wrap(Base64.getUrlDecoder().decode(text));
            return bytes.remaining() == TOPIC_ID_BYTES
                    ? Optional.of(new UUID(bytes.getLong(), bytes.getLong())) : Optional.empty();
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
    }
}
