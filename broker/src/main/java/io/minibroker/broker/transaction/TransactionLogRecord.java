package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A transactional id's record in {@code __transaction_state}, in Kafka's layouts, so Kafka's tools read this topic:
 * the key is TransactionLogKey (version 0, then the id as an int16-length string); the value is TransactionLogValue
 * version 0 (fixed layout) or version 1 (flexible: compact arrays and strings, PreviousProducerId, NextProducerId
 * and ClientTransactionVersion as tagged fields 0, 1, 2, each written only when not its default), prefixed by its
 * version. Kafka writes version 1 once {@code transaction.version} is at least 1, version 0 below. A null value is
 * the id's tombstone (expired).
 */
public final class TransactionLogRecord {

    static final short KEY_VERSION = 0;
    private static final int TAG_PREVIOUS_PRODUCER_ID = 0;
    private static final int TAG_NEXT_PRODUCER_ID = 1;
    private static final int TAG_CLIENT_TRANSACTION_VERSION = 2;

    private TransactionLogRecord() {
    }

    /** The value version Kafka writes at a finalized {@code transaction.version}. */
    public static short valueVersion(short transactionVersion) {
        return (short) (transactionVersion >= 1 ? 1 : 0);
    }

    public static byte[] key(String transactionalId) {
        byte[] id = transactionalId.getBytes(StandardCharsets.UTF_8);
        ByteBuf out = Unpooled.buffer(4 + id.length);
        out.writeShort(KEY_VERSION);
        writeShortString(out, id);
        return ByteBufUtil.getBytes(out);
    }

    /** The transactional id of a key, or null for a key of another version (not Kafka's transaction record). */
    public static String readKey(ByteBuf key) {
        if (key.readShort() != KEY_VERSION) {
            return null;
        }
        return readShortString(key);
    }

    public static byte[] value(TransactionMetadata metadata, short version) {
        if (metadata.state() == TransactionState.EMPTY && !metadata.partitions().isEmpty()) {
            throw new IllegalStateException(metadata.transactionalId() + " is Empty with partitions");
        }
        // Empty is written with a null list of partitions, as Kafka does; other states with the list.
        Map<String, List<Integer>> byTopic = null;
        if (metadata.state() != TransactionState.EMPTY) {
            byTopic = new TreeMap<>();
            for (TopicPartition partition : metadata.partitions()) {
                byTopic.computeIfAbsent(partition.topic(), topic -> new ArrayList<>()).add(partition.partition());
            }
            byTopic.values().forEach(list -> list.sort(null));
        }
        ByteBuf out = Unpooled.buffer(64);
        out.writeShort(version);
        out.writeLong(metadata.producerId());
        out.writeShort(metadata.producerEpoch());
        out.writeInt(metadata.timeoutMs());
        out.writeByte(metadata.state().id());
        boolean flexible = version >= 1;
        writePartitions(out, byTopic, flexible);
        out.writeLong(metadata.lastUpdateTimestamp());
        out.writeLong(metadata.startTimestamp());
        if (flexible) {
            writeTags(out, metadata);
        }
        return ByteBufUtil.getBytes(out);
    }

    private static void writePartitions(ByteBuf out, Map<String, List<Integer>> byTopic, boolean flexible) {
        if (byTopic == null) {
            if (flexible) {
                Wire.writeUnsignedVarint(out, 0);
            } else {
                out.writeInt(-1);
            }
            return;
        }
        writeLength(out, byTopic.size(), flexible);
        for (Map.Entry<String, List<Integer>> topic : byTopic.entrySet()) {
            byte[] name = topic.getKey().getBytes(StandardCharsets.UTF_8);
            if (flexible) {
                Wire.writeUnsignedVarint(out, name.length + 1);
                out.writeBytes(name);
            } else {
                writeShortString(out, name);
            }
            writeLength(out, topic.getValue().size(), flexible);
            topic.getValue().forEach(out::writeInt);
            if (flexible) {
                Wire.writeUnsignedVarint(out, 0); // no tagged fields in PartitionsSchema
            }
        }
    }

    private static void writeTags(ByteBuf out, TransactionMetadata metadata) {
        Map<Integer, ByteBuf> tags = new LinkedHashMap<>();
        if (metadata.previousProducerId() != TransactionMetadata.NO_PRODUCER_ID) {
            tags.put(TAG_PREVIOUS_PRODUCER_ID, Unpooled.buffer(8).writeLong(metadata.previousProducerId()));
        }
        if (metadata.nextProducerId() != TransactionMetadata.NO_PRODUCER_ID) {
            tags.put(TAG_NEXT_PRODUCER_ID, Unpooled.buffer(8).writeLong(metadata.nextProducerId()));
        }
        if (metadata.clientTransactionVersion() != 0) {
            tags.put(TAG_CLIENT_TRANSACTION_VERSION, Unpooled.buffer(2).writeShort(metadata.clientTransactionVersion()));
        }
        Wire.writeUnsignedVarint(out, tags.size());
        tags.forEach((tag, data) -> {
            Wire.writeUnsignedVarint(out, tag);
            Wire.writeUnsignedVarint(out, data.readableBytes());
            out.writeBytes(data);
        });
    }

    /** Reads a value of either version; throws IllegalArgumentException for another version. */
    public static TransactionMetadata readValue(String transactionalId, ByteBuf in) {
        short version = in.readShort();
        if (version < 0 || version > 1) {
            throw new IllegalArgumentException("unknown TransactionLogValue version " + version);
        }
        boolean flexible = version >= 1;
        long producerId = in.readLong();
        short epoch = in.readShort();
        int timeoutMs = in.readInt();
        TransactionState state = TransactionState.fromId(in.readByte());
        Set<TopicPartition> partitions = readPartitions(in, flexible);
        long lastUpdate = in.readLong();
        long start = in.readLong();
        long previousProducerId = TransactionMetadata.NO_PRODUCER_ID;
        long nextProducerId = TransactionMetadata.NO_PRODUCER_ID;
        short clientVersion = 0;
        if (flexible) {
            int count = Wire.readUnsignedVarint(in);
            for (int i = 0; i < count; i++) {
                int tag = Wire.readUnsignedVarint(in);
                int size = Wire.readUnsignedVarint(in);
                ByteBuf data = in.readSlice(size);
                switch (tag) {
                    case TAG_PREVIOUS_PRODUCER_ID -> previousProducerId = data.readLong();
                    case TAG_NEXT_PRODUCER_ID -> nextProducerId = data.readLong();
                    case TAG_CLIENT_TRANSACTION_VERSION -> clientVersion = data.readShort();
                    default -> { } // a later version's field: skipped, as Kafka skips unknown tags
                }
            }
        }
        if (state == TransactionState.EMPTY) {
            partitions = Set.of();
        }
        return new TransactionMetadata(transactionalId, producerId, previousProducerId, nextProducerId, epoch,
                TransactionMetadata.NO_EPOCH, timeoutMs, state, partitions, start, lastUpdate, clientVersion);
    }

    private static Set<TopicPartition> readPartitions(ByteBuf in, boolean flexible) {
        int topics = readLength(in, flexible);
        Set<TopicPartition> partitions = new HashSet<>();
        for (int t = 0; t < topics; t++) {
            String topic;
            if (flexible) {
                int length = Wire.readUnsignedVarint(in) - 1;
                topic = in.readCharSequence(length, StandardCharsets.UTF_8).toString();
            } else {
                topic = readShortString(in);
            }
            int count = readLength(in, flexible);
            for (int p = 0; p < count; p++) {
                partitions.add(new TopicPartition(topic, in.readInt()));
            }
            if (flexible) {
                skipTags(in);
            }
        }
        return partitions;
    }

    private static void skipTags(ByteBuf in) {
        int count = Wire.readUnsignedVarint(in);
        for (int i = 0; i < count; i++) {
            Wire.readUnsignedVarint(in);
            in.skipBytes(Wire.readUnsignedVarint(in));
        }
    }

    private static void writeLength(ByteBuf out, int length, boolean flexible) {
        if (flexible) {
            Wire.writeUnsignedVarint(out, length + 1);
        } else {
            out.writeInt(length);
        }
    }

    /** An array's length; 0 for a null array. */
    private static int readLength(ByteBuf in, boolean flexible) {
        int length = flexible ? Wire.readUnsignedVarint(in) - 1 : in.readInt();
        return Math.max(length, 0);
    }

    private static void writeShortString(ByteBuf out, byte[] bytes) {
        if (bytes.length > Short.MAX_VALUE) {
            throw new IllegalArgumentException("string of " + bytes.length + " bytes is too long");
        }
        out.writeShort(bytes.length);
        out.writeBytes(bytes);
    }

    private static String readShortString(ByteBuf in) {
        int length = in.readShort();
        return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }
}
