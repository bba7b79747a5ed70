package io.minibroker.broker.sharestate;

import io.minibroker.broker.share.RecordState;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.broker.share.ShareStateSnapshot;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Share partitions' records in {@code __share_group_state}, in Kafka's layouts: the key is ShareSnapshotKey (type 0:
 * the group id, topic id and partition; a non-flexible coordinator key, the type as an int16 first), the value
 * version 0 of the flexible ShareSnapshotValue (snapshot, state and leader epochs, the start offset, the create and
 * write timestamps, the state batches, and the tagged DeliveryCompleteCount of Kafka 4.2+). Only snapshots are written: each write carries a share partition's whole
 * window, so Kafka's ShareUpdate records (type 1, deltas over a snapshot) are not needed; a replay meeting one skips it.
 */
final class ShareStateRecords {

    static final short SNAPSHOT = 0;
    private static final short VALUE_VERSION = 0;

    /**
     * A share partition's stored state, the epochs it was written with, and the count of offsets whose delivery is
     * complete as the leader last sent it (-1: not known; Kafka 4.2+'s tagged DeliveryCompleteCount).
     */
    record Stored(ShareStateSnapshot snapshot, int snapshotEpoch, int stateEpoch, int leaderEpoch,
                  long createTimestamp, int deliveryCompleteCount) {
    }

    /** ShareSnapshotValue's tag of DeliveryCompleteCount, written only when not its default (-1), as Kafka does. */
    private static final int DELIVERY_COMPLETE_COUNT_TAG = 0;

    private ShareStateRecords() {
    }

    static byte[] key(SharePartitionKey key) {
        ByteBuf out = Unpooled.buffer();
        out.writeShort(SNAPSHOT);
        byte[] group = key.groupId().getBytes(StandardCharsets.UTF_8);
        out.writeShort(group.length);
        out.writeBytes(group);
        Wire.writeUuid(out, key.topicId());
        out.writeInt(key.partition());
        return ByteBufUtil.getBytes(out);
    }

    /** The key's share partition, or null for another record type (ShareUpdate). */
    static SharePartitionKey readKey(ByteBuf in) {
        short type = Wire.readInt16(in);
        if (type != SNAPSHOT) {
            return null;
        }
        int length = Wire.readInt16(in);
        String groupId = Wire.readUtf8(in, length);
        return new SharePartitionKey(groupId, Wire.readUuid(in), Wire.readInt32(in));
    }

    static byte[] value(Stored stored, long writeTimestamp) {
        ByteBuf out = Unpooled.buffer();
        out.writeShort(VALUE_VERSION);
        out.writeInt(stored.snapshotEpoch());
        out.writeInt(stored.stateEpoch());
        out.writeInt(stored.leaderEpoch());
        out.writeLong(stored.snapshot().startOffset());
        out.writeLong(stored.createTimestamp());
        out.writeLong(writeTimestamp);
        List<ShareStateSnapshot.StateBatch> batches = stored.snapshot().batches();
        Wire.writeUnsignedVarint(out, batches.size() + 1);
        for (ShareStateSnapshot.StateBatch batch : batches) {
            out.writeLong(batch.firstOffset());
            out.writeLong(batch.lastOffset());
            out.writeByte(batch.state().id());
            out.writeShort(batch.deliveryCount());
            Wire.writeUnsignedVarint(out, 0); // no tagged fields
        }
        if (stored.deliveryCompleteCount() == -1) {
            Wire.writeUnsignedVarint(out, 0); // DeliveryCompleteCount left at its default
        } else {
            Wire.writeUnsignedVarint(out, 1);
            Wire.writeUnsignedVarint(out, DELIVERY_COMPLETE_COUNT_TAG);
            Wire.writeUnsignedVarint(out, Integer.BYTES);
            out.writeInt(stored.deliveryCompleteCount());
        }
        return ByteBufUtil.getBytes(out);
    }

    static Stored readValue(ByteBuf in) {
        short version = Wire.readInt16(in);
        if (version != VALUE_VERSION) {
            throw new IllegalArgumentException("ShareSnapshotValue version " + version);
        }
        int snapshotEpoch = Wire.readInt32(in);
        int stateEpoch = Wire.readInt32(in);
        int leaderEpoch = Wire.readInt32(in);
        long startOffset = Wire.readInt64(in);
        long createTimestamp = Wire.readInt64(in);
        Wire.readInt64(in); // the write timestamp
        int count = Wire.readUnsignedVarint(in) - 1;
        List<ShareStateSnapshot.StateBatch> batches = new ArrayList<>(Math.max(count, 0));
        for (int i = 0; i < count; i++) {
            long first = Wire.readInt64(in);
            long last = Wire.readInt64(in);
            RecordState state = RecordState.forId(Wire.readInt8(in));
            int deliveryCount = Wire.readInt16(in);
            Wire.skipTaggedFields(in);
            batches.add(new ShareStateSnapshot.StateBatch(first, last, state, deliveryCount));
        }
        int deliveryCompleteCount = readDeliveryCompleteCount(in);
        return new Stored(new ShareStateSnapshot(startOffset, batches), snapshotEpoch, stateEpoch, leaderEpoch,
                createTimestamp, deliveryCompleteCount);
    }

    /** The value's tagged fields: its DeliveryCompleteCount (-1 when left out), others skipped. */
    private static int readDeliveryCompleteCount(ByteBuf in) {
        int deliveryCompleteCount = -1;
        int fields = Wire.readUnsignedVarint(in);
        for (int i = 0; i < fields; i++) {
            int tag = Wire.readUnsignedVarint(in);
            int size = Wire.readUnsignedVarint(in);
            Wire.require(in, size, "a tagged field");
            if (tag == DELIVERY_COMPLETE_COUNT_TAG && size == Integer.BYTES) {
                deliveryCompleteCount = in.readInt();
            } else {
                in.skipBytes(size);
            }
        }
        return deliveryCompleteCount;
    }

}
