package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of BrokerRegistration request bodies of every version; fields a version lacks read as their defaults. */
public final class BrokerRegistrationRequestView {
    static final StructSchema SCHEMA = ApiKey.BROKER_REGISTRATION.request().body();
    private static final int BROKER_ID = SCHEMA.indexOf("BrokerId");
    private static final int CLUSTER_ID = SCHEMA.indexOf("ClusterId");
    private static final int INCARNATION_ID = SCHEMA.indexOf("IncarnationId");
    private static final int LISTENERS = SCHEMA.indexOf("Listeners");
    private static final int FEATURES = SCHEMA.indexOf("Features");
    private static final int RACK = SCHEMA.indexOf("Rack");
    private static final int IS_MIGRATING_ZK_BROKER = SCHEMA.indexOf("IsMigratingZkBroker");
    private static final int LOG_DIRS = SCHEMA.indexOf("LogDirs");
    private static final int PREVIOUS_BROKER_EPOCH = SCHEMA.indexOf("PreviousBrokerEpoch");

    private final Struct struct;

    public BrokerRegistrationRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public BrokerRegistrationRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int brokerId() {
        return (Integer) struct.get(BROKER_ID);
    }

    public BrokerRegistrationRequestView brokerId(int value) {
        struct.set(BROKER_ID, value);
        return this;
    }

    public String clusterId() {
        return (String) struct.get(CLUSTER_ID);
    }

    public BrokerRegistrationRequestView clusterId(String value) {
        struct.set(CLUSTER_ID, value);
        return this;
    }

    public UUID incarnationId() {
        return (UUID) struct.get(INCARNATION_ID);
    }

    public BrokerRegistrationRequestView incarnationId(UUID value) {
        struct.set(INCARNATION_ID, value);
        return this;
    }

    public List<Listener> listeners() {
        return Views.structs(struct.get(LISTENERS), Listener::new);
    }

    public Listener addListener() {
        return new Listener(struct.addElement(LISTENERS));
    }

    public List<Feature> features() {
        return Views.structs(struct.get(FEATURES), Feature::new);
    }

    public Feature addFeature() {
        return new Feature(struct.addElement(FEATURES));
    }

    public String rack() {
        return (String) struct.get(RACK);
    }

    public BrokerRegistrationRequestView rack(String value) {
        struct.set(RACK, value);
        return this;
    }

    public boolean isMigratingZkBroker() {
        return (Boolean) struct.get(IS_MIGRATING_ZK_BROKER);
    }

    public BrokerRegistrationRequestView isMigratingZkBroker(boolean value) {
        struct.set(IS_MIGRATING_ZK_BROKER, value);
        return this;
    }

    public List<UUID> logDirs() {
        return Views.scalars(struct.get(LOG_DIRS));
    }

    public BrokerRegistrationRequestView logDirs(List<UUID> value) {
        struct.set(LOG_DIRS, value);
        return this;
    }

    public long previousBrokerEpoch() {
        return (Long) struct.get(PREVIOUS_BROKER_EPOCH);
    }

    public BrokerRegistrationRequestView previousBrokerEpoch(long value) {
        struct.set(PREVIOUS_BROKER_EPOCH, value);
        return this;
    }

    public static final class Listener {
        static final StructSchema SCHEMA = BrokerRegistrationRequestView.SCHEMA.structOf("Listeners");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int HOST = SCHEMA.indexOf("Host");
        private static final int PORT = SCHEMA.indexOf("Port");
        private static final int SECURITY_PROTOCOL = SCHEMA.indexOf("SecurityProtocol");

        private final Struct struct;

        public Listener(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public Listener() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public Listener name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public String host() {
            return (String) struct.get(HOST);
        }

        public Listener host(String value) {
            struct.set(HOST, value);
            return this;
        }

        public int port() {
            return (Integer) struct.get(PORT);
        }

        public Listener port(int value) {
            struct.set(PORT, value);
            return this;
        }

        public short securityProtocol() {
            return (Short) struct.get(SECURITY_PROTOCOL);
        }

        public Listener securityProtocol(short value) {
            struct.set(SECURITY_PROTOCOL, value);
            return this;
        }
    }

    public static final class Feature {
        static final StructSchema SCHEMA = BrokerRegistrationRequestView.SCHEMA.structOf("Features");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int MIN_SUPPORTED_VERSION = SCHEMA.indexOf("MinSupportedVersion");
        private static final int MAX_SUPPORTED_VERSION = SCHEMA.indexOf("MaxSupportedVersion");

        private final Struct struct;

        public Feature(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public Feature() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public Feature name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public short minSupportedVersion() {
            return (Short) struct.get(MIN_SUPPORTED_VERSION);
        }

        public Feature minSupportedVersion(short value) {
            struct.set(MIN_SUPPORTED_VERSION, value);
            return this;
        }

        public short maxSupportedVersion() {
            return (Short) struct.get(MAX_SUPPORTED_VERSION);
        }

        public Feature maxSupportedVersion(short value) {
            struct.set(MAX_SUPPORTED_VERSION, value);
            return this;
        }
    }
}
