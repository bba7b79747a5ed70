package io.minibroker.broker.group;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The records a replay of consumer, share or streams groups read, by group and key, the last of a key winning: what the
 * coordinator wrote, which its next write of a group is diffed against ({@link ConsumerGroupRecords#diff}).
 */
final class ReplayedRecords {

    /** Where a replay hands a record: its type, its key after the type, its value (null: a tombstone). */
    @FunctionalInterface
    interface Sink {
        void apply(short type, ByteBuf key, ByteBuf value);
    }

    private final Map<String, Map<ByteBuffer, byte[]>> byGroup = new HashMap<>();

    /** Replays one group's records as a group keeps them ({@code written}: by key bytes, none a tombstone). */
    static void replay(Map<ByteBuffer, byte[]> records, Sink sink) {
        records.forEach((key, value) -> {
            ByteBuf keyBytes = Unpooled.wrappedBuffer(key.duplicate());
            sink.apply(keyBytes.readShort(), keyBytes, Unpooled.wrappedBuffer(value));
        });
    }

    /** A record of the group's: a copy of {@code value}'s readable bytes, its reader index left where it is. */
    void put(String groupId, ByteBuffer key, ByteBuf value) {
        byte[] bytes = new byte[value.readableBytes()];
        value.getBytes(value.readerIndex(), bytes);
        byGroup.computeIfAbsent(groupId, id -> new LinkedHashMap<>()).put(key, bytes);
    }

    /** A tombstone of the key: its record gone; whether the group has records left. */
    boolean remove(String groupId, ByteBuffer key) {
        Map<ByteBuffer, byte[]> records = byGroup.get(groupId);
        if (records == null) {
            return false;
        }
        records.remove(key);
        return !records.isEmpty();
    }

    /**
     * A tombstone of a share or streams group's key, as Kafka's replay of them: the group is gone when its metadata
     * record is, or when it has no record left; returns whether it is (its records then forgotten).
     */
    boolean groupGoneWith(String groupId, ByteBuffer key, boolean metadataKey) {
        boolean recordsLeft = remove(groupId, key);
        if (metadataKey || !recordsLeft) {
            forget(groupId);
            return true;
        }
        return false;
    }

    /** The group was deleted: none of its records count. */
    void forget(String groupId) {
        byGroup.remove(groupId);
    }

    /** The group's records, for it to keep (a new map if it has none). */
    Map<ByteBuffer, byte[]> of(String groupId) {
        return byGroup.getOrDefault(groupId, new LinkedHashMap<>());
    }
}
