package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;

/** Typed view of FindCoordinator request bodies of every version; fields a version lacks read as their defaults. */
public final class FindCoordinatorRequestView {
    static final StructSchema SCHEMA = ApiKey.FIND_COORDINATOR.request().body();
    private static final int KEY = SCHEMA.indexOf("Key");
    private static final int KEY_TYPE = SCHEMA.indexOf("KeyType");
    private static final int COORDINATOR_KEYS = SCHEMA.indexOf("CoordinatorKeys");

    private final Struct struct;

    public FindCoordinatorRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public FindCoordinatorRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public String key() {
        return (String) struct.get(KEY);
    }

    public FindCoordinatorRequestView key(String value) {
        struct.set(KEY, value);
        return this;
    }

    public byte keyType() {
        return (Byte) struct.get(KEY_TYPE);
    }

    public FindCoordinatorRequestView keyType(byte value) {
        struct.set(KEY_TYPE, value);
        return this;
    }

    public List<String> coordinatorKeys() {
        return Views.scalars(struct.get(COORDINATOR_KEYS));
    }

    public FindCoordinatorRequestView coordinatorKeys(List<String> value) {
        struct.set(COORDINATOR_KEYS, value);
        return this;
    }
}
