package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;

/** Typed view of ApiVersions response bodies of every version; fields a version lacks read as their defaults. */
public final class ApiVersionsResponseView {
    static final StructSchema SCHEMA = ApiKey.API_VERSIONS.response().body();
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
    private static final int API_KEYS = SCHEMA.indexOf("ApiKeys");
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int SUPPORTED_FEATURES = SCHEMA.indexOf("SupportedFeatures");
    private static final int FINALIZED_FEATURES_EPOCH = SCHEMA.indexOf("FinalizedFeaturesEpoch");
    private static final int FINALIZED_FEATURES = SCHEMA.indexOf("FinalizedFeatures");
    private static final int ZK_MIGRATION_READY = SCHEMA.indexOf("ZkMigrationReady");

    private final Struct struct;

    public ApiVersionsResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public ApiVersionsResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public ApiVersionsResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public List<ApiVersion> apiKeys() {
        return Views.structs(struct.get(API_KEYS), ApiVersion::new);
    }

    public ApiVersion addApiKey() {
        return new ApiVersion(struct.addElement(API_KEYS));
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public ApiVersionsResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public List<SupportedFeatureKey> supportedFeatures() {
        return Views.structs(struct.get(SUPPORTED_FEATURES), SupportedFeatureKey::new);
    }

    public SupportedFeatureKey addSupportedFeature() {
        return new SupportedFeatureKey(struct.addElement(SUPPORTED_FEATURES));
    }

    public long finalizedFeaturesEpoch() {
        return (Long) struct.get(FINALIZED_FEATURES_EPOCH);
    }

    public ApiVersionsResponseView finalizedFeaturesEpoch(long value) {
        struct.set(FINALIZED_FEATURES_EPOCH, value);
        return this;
    }

    public List<FinalizedFeatureKey> finalizedFeatures() {
        return Views.structs(struct.get(FINALIZED_FEATURES), FinalizedFeatureKey::new);
    }

    public FinalizedFeatureKey addFinalizedFeature() {
        return new FinalizedFeatureKey(struct.addElement(FINALIZED_FEATURES));
    }

    public boolean zkMigrationReady() {
        return (Boolean) struct.get(ZK_MIGRATION_READY);
    }

    public ApiVersionsResponseView zkMigrationReady(boolean value) {
        struct.set(ZK_MIGRATION_READY, value);
        return this;
    }

    public static final class ApiVersion {
        static final StructSchema SCHEMA = ApiVersionsResponseView.SCHEMA.structOf("ApiKeys");
        private static final int API_KEY = SCHEMA.indexOf("ApiKey");
        private static final int MIN_VERSION = SCHEMA.indexOf("MinVersion");
        private static final int MAX_VERSION = SCHEMA.indexOf("MaxVersion");

        private final Struct struct;

        public ApiVersion(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public ApiVersion() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public short apiKey() {
            return (Short) struct.get(API_KEY);
        }

        public ApiVersion apiKey(short value) {
            struct.set(API_KEY, value);
            return this;
        }

        public short minVersion() {
            return (Short) struct.get(MIN_VERSION);
        }

        public ApiVersion minVersion(short value) {
            struct.set(MIN_VERSION, value);
            return this;
        }

        public short maxVersion() {
            return (Short) struct.get(MAX_VERSION);
        }

        public ApiVersion maxVersion(short value) {
            struct.set(MAX_VERSION, value);
            return this;
        }
    }

    public static final class SupportedFeatureKey {
        static final StructSchema SCHEMA = ApiVersionsResponseView.SCHEMA.structOf("SupportedFeatures");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int MIN_VERSION = SCHEMA.indexOf("MinVersion");
        private static final int MAX_VERSION = SCHEMA.indexOf("MaxVersion");

        private final Struct struct;

        public SupportedFeatureKey(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public SupportedFeatureKey() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public SupportedFeatureKey name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public short minVersion() {
            return (Short) struct.get(MIN_VERSION);
        }

        public SupportedFeatureKey minVersion(short value) {
            struct.set(MIN_VERSION, value);
            return this;
        }

        public short maxVersion() {
            return (Short) struct.get(MAX_VERSION);
        }

        public SupportedFeatureKey maxVersion(short value) {
            struct.set(MAX_VERSION, value);
            return this;
        }
    }

    public static final class FinalizedFeatureKey {
        static final StructSchema SCHEMA = ApiVersionsResponseView.SCHEMA.structOf("FinalizedFeatures");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int MAX_VERSION_LEVEL = SCHEMA.indexOf("MaxVersionLevel");
        private static final int MIN_VERSION_LEVEL = SCHEMA.indexOf("MinVersionLevel");

        private final Struct struct;

        public FinalizedFeatureKey(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public FinalizedFeatureKey() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public FinalizedFeatureKey name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public short maxVersionLevel() {
            return (Short) struct.get(MAX_VERSION_LEVEL);
        }

        public FinalizedFeatureKey maxVersionLevel(short value) {
            struct.set(MAX_VERSION_LEVEL, value);
            return this;
        }

        public short minVersionLevel() {
            return (Short) struct.get(MIN_VERSION_LEVEL);
        }

        public FinalizedFeatureKey minVersionLevel(short value) {
            struct.set(MIN_VERSION_LEVEL, value);
            return this;
        }
    }
}
