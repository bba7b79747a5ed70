package io.minibroker.broker.group;

import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The embedded consumer protocol of classic groups as a coordinator of mixed groups must read and write it (Kafka's
 * ConsumerProtocolSubscription and ConsumerProtocolAssignment, classic encoding, an int16 version first): a classic
 * member's subscription (topics, partitions it owns from v1, rack from v3) when it joins a consumer group, its
 * assignment when the group is converted, and the assignment a SyncGroup answers it with.
 */
final class ConsumerProtocol {

    /** What a subscription says: the topics, the partitions owned (by topic name), the rack (v3+). */
    record Subscription(List<String> topics, Map<String, Set<Integer>> ownedPartitions, String rackId) {
    }

    private static final short ASSIGNMENT_VERSION = 0;

    private ConsumerProtocol() {
    }

    /** Reads a subscription; ProtocolException if it is cut short or not one. */
    static Subscription subscription(byte[] metadata) {
        ByteBuf in = Unpooled.wrappedBuffer(metadata);
        short version = Wire.readInt16(in);
        if (version < 0) {
            throw new ProtocolException("consumer protocol subscription version " + version);
        }
        int count = Wire.readLength(in, false, true);
        List<String> topics = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            topics.add(readString(in));
        }
        skipBytes(in); // user data
        Map<String, Set<Integer>> owned = version >= 1 ? readPartitions(in) : Map.of();
        if (version >= 2) {
            Wire.readInt32(in); // generation id
        }
        String rack = null;
        if (version >= 3) {
            int length = Wire.readLength(in, false, false);
            rack = length < 0 ? null : Wire.readUtf8(in, length);
        }
        return new Subscription(List.copyOf(topics), owned, rack);
    }

    /** The partitions of an assignment, by topic name; ProtocolException if it is not one. */
    static Map<String, Set<Integer>> assignment(byte[] assignment) {
        if (assignment == null || assignment.length == 0) {
            return Map.of();
        }
        ByteBuf in = Unpooled.wrappedBuffer(assignment);
        if (Wire.readInt16(in) < 0) {
            throw new ProtocolException("consumer protocol assignment with a negative version");
        }
        return readPartitions(in);
    }

    /** An assignment of these partitions (version 0, no user data), what SyncGroup answers a classic member. */
    static byte[] assignmentBytes(Map<String, Set<Integer>> partitions) {
        ByteBuf out = Unpooled.buffer();
        out.writeShort(ASSIGNMENT_VERSION);
        out.writeInt(partitions.size());
        partitions.forEach((topic, numbers) -> {
            byte[] name = topic.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.writeShort(name.length);
            out.writeBytes(name);
            out.writeInt(numbers.size());
            numbers.forEach(out::writeInt);
        });
        out.writeInt(-1); // no user data
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return bytes;
    }

    private static Map<String, Set<Integer>> readPartitions(ByteBuf in) {
        int topics = Wire.readLength(in, false, true);
        Map<String, Set<Integer>> partitions = new LinkedHashMap<>();
        for (int t = 0; t < topics; t++) {
            String topic = readString(in);
            int count = Wire.readLength(in, false, true);
            Set<Integer> numbers = new TreeSet<>();
            for (int p = 0; p < count; p++) {
                numbers.add(Wire.readInt32(in));
            }
            partitions.computeIfAbsent(topic, name -> new TreeSet<>()).addAll(numbers);
        }
        return partitions;
    }

    private static String readString(ByteBuf in) {
        int length = Wire.readLength(in, false, false);
        if (length < 0) {
            throw new ProtocolException("null topic name in the consumer protocol");
        }
        return Wire.readUtf8(in, length);
    }

    private static void skipBytes(ByteBuf in) {
        int length = Wire.readLength(in, false, true);
        if (length > 0) {
            Wire.require(in, length, "user data");
            in.skipBytes(length);
        }
    }
}
