package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;

/** Typed view of FindCoordinator response bodies of every version; fields a version lacks read as their defaults. */
public final class FindCoordinatorResponseView {
    static final StructSchema SCHEMA = ApiKey.FIND_COORDINATOR.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
    private static final int ERROR_MESSAGE = SCHEMA.indexOf("ErrorMessage");
    private static final int NODE_ID = SCHEMA.indexOf("NodeId");
    private static final int HOST = SCHEMA.indexOf("Host");
    private static final int PORT = SCHEMA.indexOf("Port");
    private static final int COORDINATORS = SCHEMA.indexOf("Coordinators");

    private final Struct struct;

    public FindCoordinatorResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public FindCoordinatorResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public FindCoordinatorResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public FindCoordinatorResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public String errorMessage() {
        return (String) struct.get(ERROR_MESSAGE);
    }

    public FindCoordinatorResponseView errorMessage(String value) {
        struct.set(ERROR_MESSAGE, value);
        return this;
    }

    public int nodeId() {
        return (Integer) struct.get(NODE_ID);
    }

    public FindCoordinatorResponseView nodeId(int value) {
        struct.set(NODE_ID, value);
        return this;
    }

    public String host() {
        return (String) struct.get(HOST);
    }

    public FindCoordinatorResponseView host(String value) {
        struct.set(HOST, value);
        return this;
    }

    public int port() {
        return (Integer) struct.get(PORT);
    }

    public FindCoordinatorResponseView port(int value) {
        struct.set(PORT, value);
        return this;
    }

    public List<Coordinator> coordinators() {
        return Views.structs(struct.get(COORDINATORS), Coordinator::new);
    }

    public Coordinator addCoordinator() {
        return new Coordinator(struct.addElement(COORDINATORS));
    }

    public static final class Coordinator {
        static final StructSchema SCHEMA = FindCoordinatorResponseView.SCHEMA.structOf("Coordinators");
        private static final int KEY = SCHEMA.indexOf("Key");
        private static final int NODE_ID = SCHEMA.indexOf("NodeId");
        private static final int HOST = SCHEMA.indexOf("Host");
        private static final int PORT = SCHEMA.indexOf("Port");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
        private static final int ERROR_MESSAGE = SCHEMA.indexOf("ErrorMessage");

        private final Struct struct;

        public Coordinator(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public Coordinator() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String key() {
            return (String) struct.get(KEY);
        }

        public Coordinator key(String value) {
            struct.set(KEY, value);
            return this;
        }

        public int nodeId() {
            return (Integer) struct.get(NODE_ID);
        }

        public Coordinator nodeId(int value) {
            struct.set(NODE_ID, value);
            return this;
        }

        public String host() {
            return (String) struct.get(HOST);
        }

        public Coordinator host(String value) {
            struct.set(HOST, value);
            return this;
        }

        public int port() {
            return (Integer) struct.get(PORT);
        }

        public Coordinator port(int value) {
            struct.set(PORT, value);
            return this;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public Coordinator errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }

        public String errorMessage() {
            return (String) struct.get(ERROR_MESSAGE);
        }

        public Coordinator errorMessage(String value) {
            struct.set(ERROR_MESSAGE, value);
            return this;
        }
    }
}
