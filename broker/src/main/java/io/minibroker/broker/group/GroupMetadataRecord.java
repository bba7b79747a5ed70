package io.minibroker.broker.group;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A classic group's membership as Kafka writes it to {@code __consumer_offsets}, so that the broker taking over the
 * group's partition finds its generation, leader and members' assignments and serves them without a rebalance.
 * The key is Kafka's GroupMetadataKey (record key version 2, then the group id as an int16-length string); the
 * value is GroupMetadataValue version 3, the last non-flexible one (what Kafka 3.x writes for classic groups):
 * the protocol type, generation, protocol and leader, the time of the write, then each member. A null value (a
 * tombstone) deletes the group. Versions 0 to 3 are read; none but 3 is written.
 */
final class GroupMetadataRecord {

    /** Record key version of a group's metadata, next to the commits' key version 1 in the same partition. */
    static final short KEY_VERSION = 2;
    static final short VALUE_VERSION = 3;

    /** A group as stored: {@code protocol} and {@code leader} are null for an Empty group, which has no members. */
    record StoredGroup(String protocolType, int generation, String protocol, String leader,
                       long currentStateTimestamp, List<StoredMember> members) {
    }

    /** A member as stored: its subscription is its metadata for the group's protocol. */
    record StoredMember(String memberId, String groupInstanceId, String clientId, String clientHost,
                        int rebalanceTimeoutMs, int sessionTimeoutMs, byte[] subscription, byte[] assignment) {
    }

    private GroupMetadataRecord() {
    }

    static byte[] key(String groupId) {
        ByteBuf key = Unpooled.buffer();
        key.writeShort(KEY_VERSION);
        writeString(key, groupId);
        return bytes(key);
    }

    /** The group id of a key whose version (already read) is {@link #KEY_VERSION}. */
    static String readGroupId(ByteBuf keyAfterVersion) {
        return readString(keyAfterVersion);
    }

    static byte[] value(StoredGroup group) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        writeString(value, group.protocolType());
        value.writeInt(group.generation());
        writeNullableString(value, group.protocol());
        writeNullableString(value, group.leader());
        value.writeLong(group.currentStateTimestamp());
        value.writeInt(group.members().size());
        for (StoredMember member : group.members()) {
            writeString(value, member.memberId());
            writeNullableString(value, member.groupInstanceId());
            writeString(value, member.clientId());
            writeString(value, member.clientHost());
            value.writeInt(member.rebalanceTimeoutMs());
            value.writeInt(member.sessionTimeoutMs());
            writeBytes(value, member.subscription());
            writeBytes(value, member.assignment());
        }
        return bytes(value);
    }

    /**
     * Reads a value of versions 0 to 3, the fields older versions lack taking Kafka's defaults (a rebalance
     * timeout equal to the session timeout, no instance id, no timestamp); throws IllegalArgumentException for
     * another version.
     */
    static StoredGroup readValue(ByteBuf value) {
        short version = value.readShort();
        if (version < 0 || version > VALUE_VERSION) {
            throw new IllegalArgumentException("GroupMetadataValue version " + version + " is not supported");
        }
        String protocolType = readString(value);
        int generation = value.readInt();
        String protocol = readNullableString(value);
        String leader = readNullableString(value);
        long currentStateTimestamp = version >= 2 ? value.readLong() : -1L;
        int count = value.readInt();
        // A damaged count must not size the list: each member takes bytes the value has to have.
        List<StoredMember> members = new ArrayList<>(Math.max(Math.min(count, value.readableBytes()), 0));
        for (int i = 0; i < count; i++) {
            String memberId = readString(value);
            String groupInstanceId = version >= 3 ? readNullableString(value) : null;
            String clientId = readString(value);
            String clientHost = readString(value);
            int rebalanceTimeoutMs = version >= 1 ? value.readInt() : -1;
            int sessionTimeoutMs = value.readInt();
            members.add(new StoredMember(memberId, groupInstanceId, clientId, clientHost,
                    version >= 1 ? rebalanceTimeoutMs : sessionTimeoutMs, sessionTimeoutMs,
                    readBytes(value), readBytes(value)));
        }
        return new StoredGroup(protocolType, generation, protocol, leader, currentStateTimestamp, members);
    }

    /**
     * Kafka's coordinator-record string: an int16 length, then UTF-8 (the commit records use it too). Throws
     * IllegalArgumentException for a string longer than an int16 length can say, rather than wrap the length.
     */
    static void writeString(ByteBuf buf, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > Short.MAX_VALUE) {
            throw new IllegalArgumentException("a string of " + utf8.length + " UTF-8 bytes is longer than "
                    + Short.MAX_VALUE + ", the most a coordinator record stores");
        }
        buf.writeShort(utf8.length);
        buf.writeBytes(utf8);
    }

    private static void writeNullableString(ByteBuf buf, String value) {
        if (value == null) {
            buf.writeShort(-1);
        } else {
            writeString(buf, value);
        }
    }

    private static void writeBytes(ByteBuf buf, byte[] value) {
        buf.writeInt(value.length);
        buf.writeBytes(value);
    }

    static String readString(ByteBuf buf) {
        String value = readNullableString(buf);
        if (value == null) {
            throw new IllegalArgumentException("a null string where GroupMetadata needs one");
        }
        return value;
    }

    private static String readNullableString(ByteBuf buf) {
        short length = buf.readShort();
        return length < 0 ? null : buf.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }

    private static byte[] readBytes(ByteBuf buf) {
        int length = buf.readInt();
        byte[] bytes = new byte[Math.max(length, 0)];
        buf.readBytes(bytes);
        return bytes;
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }
}
