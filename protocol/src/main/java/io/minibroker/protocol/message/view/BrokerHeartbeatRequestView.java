package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of BrokerHeartbeat request bodies of every version; fields a version lacks read as their defaults. */
public final class BrokerHeartbeatRequestView {
    static final StructSchema SCHEMA = ApiKey.BROKER_HEARTBEAT.request().body();
    private static final int BROKER_ID = SCHEMA.indexOf("BrokerId");
    private static final int BROKER_EPOCH = SCHEMA.indexOf("BrokerEpoch");
    private static final int CURRENT_METADATA_OFFSET = SCHEMA.indexOf("CurrentMetadataOffset");
    private static final int WANT_FENCE = SCHEMA.indexOf("WantFence");
    private static final int WANT_SHUT_DOWN = SCHEMA.indexOf("WantShutDown");
    private static final int OFFLINE_LOG_DIRS = SCHEMA.indexOf("OfflineLogDirs");
    private static final int CORDONED_LOG_DIRS = SCHEMA.indexOf("CordonedLogDirs");

    private final Struct struct;

    public BrokerHeartbeatRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public BrokerHeartbeatRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int brokerId() {
        return (Integer) struct.get(BROKER_ID);
    }

    public BrokerHeartbeatRequestView brokerId(int value) {
        struct.set(BROKER_ID, value);
        return this;
    }

    public long brokerEpoch() {
        return (Long) struct.get(BROKER_EPOCH);
    }

    public BrokerHeartbeatRequestView brokerEpoch(long value) {
        struct.set(BROKER_EPOCH, value);
        return this;
    }

    public long currentMetadataOffset() {
        return (Long) struct.get(CURRENT_METADATA_OFFSET);
    }

    public BrokerHeartbeatRequestView currentMetadataOffset(long value) {
        struct.set(CURRENT_METADATA_OFFSET, value);
        return this;
    }

    public boolean wantFence() {
        return (Boolean) struct.get(WANT_FENCE);
    }

    public BrokerHeartbeatRequestView wantFence(boolean value) {
        struct.set(WANT_FENCE, value);
        return this;
    }

    public boolean wantShutDown() {
        return (Boolean) struct.get(WANT_SHUT_DOWN);
    }

    public BrokerHeartbeatRequestView wantShutDown(boolean value) {
        struct.set(WANT_SHUT_DOWN, value);
        return this;
    }

    public List<UUID> offlineLogDirs() {
        return Views.scalars(struct.get(OFFLINE_LOG_DIRS));
    }

    public BrokerHeartbeatRequestView offlineLogDirs(List<UUID> value) {
        struct.set(OFFLINE_LOG_DIRS, value);
        return this;
    }

    public List<UUID> cordonedLogDirs() {
        return Views.scalars(struct.get(CORDONED_LOG_DIRS));
    }

    public BrokerHeartbeatRequestView cordonedLogDirs(List<UUID> value) {
        struct.set(CORDONED_LOG_DIRS, value);
        return this;
    }
}
