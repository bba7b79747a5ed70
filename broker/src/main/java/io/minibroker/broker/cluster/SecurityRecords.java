package io.minibroker.broker.cluster;

import io.minibroker.broker.admin.ConfigResources;
import io.minibroker.broker.authz.AclBinding;
import io.minibroker.broker.authz.AclOperation;
import io.minibroker.broker.authz.AclPermissionType;
import io.minibroker.broker.authz.PatternType;
import io.minibroker.broker.authz.ResourceType;
import io.minibroker.broker.feature.Feature;
import io.minibroker.broker.feature.FeatureLevels;
import io.minibroker.broker.quota.QuotaEntity;
import io.minibroker.broker.security.DelegationToken;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.security.ScramCredential;
import io.minibroker.broker.security.ScramMechanism;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.record.RecordIterator;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The cluster's ACLs, SCRAM credentials, group configs and dynamic broker configs as records of Kafka's metadata
 * log, which the controller hands brokers in the answer to a Fetch of {@code __cluster_metadata}: one record batch
 * holding the whole of them, an AccessControlEntryRecord (metadata api key 18) per ACL, a UserScramCredentialRecord
 * (api key 11) per user and mechanism, a ConfigRecord (api key 4, resource type GROUP or BROKER) per group or
 * broker config, a ClientQuotaRecord (api key 14) per client quota and a DelegationTokenRecord (api key 10) per
 * delegation token, each framed as Kafka's MetadataRecordSerde frames a record value (frame version 1, api key, record
 * version, then the record in the flexible encoding). A broker that fetches it replaces its ACLs, credentials, group
 * and broker configs with what it holds: the batch is a snapshot of them, so a removal is the record's absence and
 * the Remove* records (and the ConfigRecords with a null value) Kafka's log also carries are never needed. The
 * controller's finalized features ride along, a FeatureLevelRecord (api key 12) per feature finalized above level 0,
 * their epoch as the batch's base offset (Kafka's epoch is the offset of the metadata the levels were read at).
 */
public final class SecurityRecords {

    private static final int FRAME_VERSION = 1;
    private static final int CONFIG_RECORD = 4;
    private static final int DELEGATION_TOKEN_RECORD = 10;
    private static final int USER_SCRAM_CREDENTIAL_RECORD = 11;
    private static final int CLIENT_QUOTA_RECORD = 14;
    private static final int FEATURE_LEVEL_RECORD = 12;
    private static final int ACCESS_CONTROL_ENTRY_RECORD = 18;
    private static final int RECORD_VERSION = 0;

    /**
     * The ACLs, credentials, group configs and dynamic broker configs one snapshot holds; credentials by user, then
     * by mechanism; group configs by group id, broker configs by broker id ("" for the cluster default), then by name;
     * client quotas by entity, then by key;
     * the finalized features, null in a snapshot that carries none; client metrics subscriptions by name; the
     * delegation tokens.
     */
    public record Snapshot(List<AclBinding> acls, Map<String, Map<ScramMechanism, ScramCredential>> credentials,
                           Map<String, Map<String, String>> groupConfigs,
                           Map<String, Map<String, String>> brokerConfigs,
                           Map<QuotaEntity, Map<String, Double>> clientQuotas, FeatureLevels features,
                           Map<String, Map<String, String>> clientMetrics, List<DelegationToken> delegationTokens) {
        public static final Snapshot EMPTY = new Snapshot(List.of(), Map.of());

        /** A snapshot without delegation tokens. */
        public Snapshot(List<AclBinding> acls, Map<String, Map<ScramMechanism, ScramCredential>> credentials,
                        Map<String, Map<String, String>> groupConfigs,
                        Map<String, Map<String, String>> brokerConfigs,
                        Map<QuotaEntity, Map<String, Double>> clientQuotas, FeatureLevels features,
                        Map<String, Map<String, String>> clientMetrics) {
            this(acls, credentials, groupConfigs, brokerConfigs, clientQuotas, features, clientMetrics, List.of());
        }

        /** A snapshot without client metrics subscriptions. */
        public Snapshot(List<AclBinding> acls, Map<String, Map<ScramMechanism, ScramCredential>> credentials,
                        Map<String, Map<String, String>> groupConfigs,
                        Map<String, Map<String, String>> brokerConfigs,
                        Map<QuotaEntity, Map<String, Double>> clientQuotas, FeatureLevels features) {
            this(acls, credentials, groupConfigs, brokerConfigs, clientQuotas, features, Map.of());
        }

        /** A snapshot without client quotas. */
        public Snapshot(List<AclBinding> acls, Map<String, Map<ScramMechanism, ScramCredential>> credentials,
                        Map<String, Map<String, String>> groupConfigs,
                        Map<String, Map<String, String>> brokerConfigs, FeatureLevels features) {
            this(acls, credentials, groupConfigs, brokerConfigs, Map.of(), features);
        }

        /** A snapshot without client quotas or features. */
        public Snapshot(List<AclBinding> acls, Map<String, Map<ScramMechanism, ScramCredential>> credentials,
                        Map<String, Map<String, String>> groupConfigs,
                        Map<String, Map<String, String>> brokerConfigs) {
            this(acls, credentials, groupConfigs, brokerConfigs, null);
        }

        /** A snapshot without group or broker configs. */
        public Snapshot(List<AclBinding> acls, Map<String, Map<ScramMechanism, ScramCredential>> credentials) {
            this(acls, credentials, Map.of(), Map.of());
        }
    }

    private SecurityRecords() {
    }

    /** One record batch holding the snapshot; an empty buffer when it holds nothing. */
    public static ByteBuf encode(Snapshot snapshot) {
        if (snapshot.acls().isEmpty() && snapshot.credentials().isEmpty() && snapshot.groupConfigs().isEmpty()
                && snapshot.brokerConfigs().isEmpty() && snapshot.clientQuotas().isEmpty()
                && snapshot.features() == null && snapshot.clientMetrics().isEmpty()
                && snapshot.delegationTokens().isEmpty()) {
            return Unpooled.EMPTY_BUFFER;
        }
        RecordBatchBuilder batch = new RecordBatchBuilder(UnpooledByteBufAllocator.DEFAULT, CompressionType.NONE,
                snapshot.features() == null ? 0 : snapshot.features().epoch(), RecordBatch.NO_TIMESTAMP);
        for (AclBinding acl : snapshot.acls()) {
            batch.append(RecordBatch.NO_TIMESTAMP, null, aclRecord(acl), List.of());
        }
        snapshot.credentials().forEach((user, byMechanism) -> byMechanism.forEach((mechanism, credential) ->
                batch.append(RecordBatch.NO_TIMESTAMP, null, scramRecord(user, mechanism, credential), List.of())));
        snapshot.groupConfigs().forEach((groupId, configs) -> configs.forEach((name, value) -> batch.append(
                RecordBatch.NO_TIMESTAMP, null, configRecord(ConfigResources.GROUP, groupId, name, value), List.of())));
        snapshot.brokerConfigs().forEach((brokerId, configs) -> configs.forEach((name, value) -> batch.append(
                RecordBatch.NO_TIMESTAMP, null, configRecord(ConfigResources.BROKER, brokerId, name, value), List.of())));
        snapshot.clientMetrics().forEach((name, configs) -> configs.forEach((key, value) -> batch.append(
                RecordBatch.NO_TIMESTAMP, null, configRecord(ConfigResources.CLIENT_METRICS, name, key, value),
                List.of())));
        snapshot.clientQuotas().forEach((entity, quotas) -> quotas.forEach((key, value) -> batch.append(
                RecordBatch.NO_TIMESTAMP, null, clientQuotaRecord(entity, key, value), List.of())));
        for (DelegationToken token : snapshot.delegationTokens()) {
            batch.append(RecordBatch.NO_TIMESTAMP, null, delegationTokenRecord(token), List.of());
        }
        if (snapshot.features() != null) {
            snapshot.features().levels().forEach((feature, level) -> {
                if (level > 0) {
                    batch.append(RecordBatch.NO_TIMESTAMP, null, featureLevelRecord(feature, level), List.of());
                }
            });
        }
        ByteBuf built = batch.build();
        try { // on the heap, so that a response that never releases its records leaks nothing
            return Unpooled.wrappedBuffer(ByteBufUtil.getBytes(built));
        } finally {
            built.release();
        }
    }

    /**
     * The snapshot the batches hold; records of other types are skipped, as a broker skips what it does not
     * follow.
     *
     * @throws IllegalArgumentException if a record cannot be read
     */
    public static Snapshot decode(ByteBuf records) {
        List<AclBinding> acls = new ArrayList<>();
        Map<String, Map<ScramMechanism, ScramCredential>> credentials = new TreeMap<>();
        Map<String, Map<String, String>> groupConfigs = new TreeMap<>();
        Map<String, Map<String, String>> brokerConfigs = new TreeMap<>();
        Map<String, Map<String, String>> clientMetrics = new TreeMap<>();
        Map<QuotaEntity, Map<String, Double>> clientQuotas = new HashMap<>();
        Map<Feature, Short> features = new EnumMap<>(Feature.class);
        List<DelegationToken> tokens = new ArrayList<>();
        long featuresEpoch = -1;
        RecordBatches batches = RecordBatches.of(records);
        while (batches.hasNext()) {
            RecordBatch batch = batches.next();
            featuresEpoch = batch.baseOffset();
            try (RecordIterator iterator = batch.records(ByteBufAllocator.DEFAULT)) {
                while (iterator.hasNext()) {
                    Record record = iterator.next();
                    if (record.value() != null) {
                        read(record.value().duplicate(), acls, credentials, groupConfigs, brokerConfigs,
                                clientMetrics, clientQuotas, features, tokens);
                    }
                }
            }
        }
        credentials.replaceAll((user, byMechanism) -> Collections.unmodifiableMap(byMechanism));
        groupConfigs.replaceAll((groupId, configs) -> Collections.unmodifiableMap(configs));
        brokerConfigs.replaceAll((brokerId, configs) -> Collections.unmodifiableMap(configs));
        clientMetrics.replaceAll((name, configs) -> Collections.unmodifiableMap(configs));
        clientQuotas.replaceAll((entity, quotas) -> Collections.unmodifiableMap(quotas));
        return new Snapshot(List.copyOf(acls), Collections.unmodifiableMap(credentials),
                Collections.unmodifiableMap(groupConfigs), Collections.unmodifiableMap(brokerConfigs),
                Collections.unmodifiableMap(clientQuotas),
                features.isEmpty() ? null : new FeatureLevels(features, featuresEpoch),
                Collections.unmodifiableMap(clientMetrics), List.copyOf(tokens));
    }

    private static byte[] aclRecord(AclBinding acl) {
        ByteBuf out = header(ACCESS_CONTROL_ENTRY_RECORD);
        // The record's id: Kafka's controller gives each ACL a random one; a snapshot's ids name nothing later.
        UUID id = UUID.nameUUIDFromBytes(acl.toString().getBytes(StandardCharsets.UTF_8));
        out.writeLong(id.getMostSignificantBits()).writeLong(id.getLeastSignificantBits());
        out.writeByte(acl.resourceType().code());
        writeString(out, acl.resourceName());
        out.writeByte(acl.patternType().code());
        writeString(out, acl.principal());
        writeString(out, acl.host());
        out.writeByte(acl.operation().code());
        out.writeByte(acl.permission().code());
        Wire.writeUnsignedVarint(out, 0); // no tagged fields
        return ByteBufUtil.getBytes(out);
    }

    /** Kafka's UserScramCredentialRecord v0 since 3.5: name, mechanism, salt, stored key, server key, iterations. */
    private static byte[] scramRecord(String user, ScramMechanism mechanism, ScramCredential credential) {
        ByteBuf out = header(USER_SCRAM_CREDENTIAL_RECORD);
        writeString(out, user);
        out.writeByte(mechanism.type());
        writeBytes(out, credential.salt());
        writeBytes(out, credential.storedKey());
        writeBytes(out, credential.serverKey());
        out.writeInt(credential.iterations());
        Wire.writeUnsignedVarint(out, 0);
        return ByteBufUtil.getBytes(out);
    }

    /** Kafka's ConfigRecord v0: resource type, resource name, config name, value (null for a removal). */
    private static byte[] configRecord(byte resourceType, String resourceName, String name, String value) {
        ByteBuf out = header(CONFIG_RECORD);
        out.writeByte(resourceType);
        writeString(out, resourceName);
        writeString(out, name);
        writeString(out, value);
        Wire.writeUnsignedVarint(out, 0);
        return ByteBufUtil.getBytes(out);
    }

    /** Kafka's ClientQuotaRecord v0: the entity (type, nullable name), the quota's key and value, remove false. */
    private static byte[] clientQuotaRecord(QuotaEntity entity, String key, double value) {
        ByteBuf out = header(CLIENT_QUOTA_RECORD);
        Wire.writeUnsignedVarint(out, entity.entries().size() + 1);
        entity.entries().forEach((type, name) -> {
            writeString(out, type);
            if (name == null) {
                Wire.writeUnsignedVarint(out, 0);
            } else {
                writeString(out, name);
            }
            Wire.writeUnsignedVarint(out, 0); // the entity's tagged fields
        });
        writeString(out, key);
        out.writeDouble(value);
        out.writeBoolean(false);
        Wire.writeUnsignedVarint(out, 0);
        return ByteBufUtil.getBytes(out);
    }

    /**
     * Kafka's DelegationTokenRecord v0: owner, requester and renewers as {@code type:name}, the issue, maximum and
     * expiry times, the id. The HMAC is not in it: each node derives it from the id with its own secret key.
     */
    private static byte[] delegationTokenRecord(DelegationToken token) {
        ByteBuf out = header(DELEGATION_TOKEN_RECORD);
        writeString(out, token.owner().toString());
        writeString(out, token.requester().toString());
        Wire.writeUnsignedVarint(out, token.renewers().size() + 1);
        token.renewers().forEach(renewer -> writeString(out, renewer.toString()));
        out.writeLong(token.issueTimestamp());
        out.writeLong(token.maxTimestamp());
        out.writeLong(token.expiryTimestamp());
        writeString(out, token.tokenId());
        Wire.writeUnsignedVarint(out, 0);
        return ByteBufUtil.getBytes(out);
    }

    /** Kafka's FeatureLevelRecord v0: the feature's name and its finalized level. */
    private static byte[] featureLevelRecord(Feature feature, short level) {
        ByteBuf out = header(FEATURE_LEVEL_RECORD);
        writeString(out, feature.featureName());
        out.writeShort(level);
        Wire.writeUnsignedVarint(out, 0);
        return ByteBufUtil.getBytes(out);
    }

    private static ByteBuf header(int apiKey) {
        ByteBuf out = Unpooled.buffer();
        Wire.writeUnsignedVarint(out, FRAME_VERSION);
        Wire.writeUnsignedVarint(out, apiKey);
        Wire.writeUnsignedVarint(out, RECORD_VERSION);
        return out;
    }

    private static void read(ByteBuf in, List<AclBinding> acls,
                             Map<String, Map<ScramMechanism, ScramCredential>> credentials,
                             Map<String, Map<String, String>> groupConfigs,
                             Map<String, Map<String, String>> brokerConfigs,
                             Map<String, Map<String, String>> clientMetrics,
                             Map<QuotaEntity, Map<String, Double>> clientQuotas, Map<Feature, Short> features,
                             List<DelegationToken> tokens) {
        if (Wire.readUnsignedVarint(in) != FRAME_VERSION) {
            throw new IllegalArgumentException("unknown metadata record frame version");
        }
        int apiKey = Wire.readUnsignedVarint(in);
        Wire.readUnsignedVarint(in); // the record's version: 0 is the only one of both
        if (apiKey == ACCESS_CONTROL_ENTRY_RECORD) {
            in.skipBytes(16); // the id
            ResourceType type = ResourceType.fromCode(in.readByte());
            String name = readString(in);
            PatternType pattern = PatternType.fromCode(in.readByte());
            String principal = readString(in);
            String host = readString(in);
            acls.add(new AclBinding(type, name, pattern, principal, host, AclOperation.fromCode(in.readByte()),
                    AclPermissionType.fromCode(in.readByte())));
        } else if (apiKey == USER_SCRAM_CREDENTIAL_RECORD) {
            String user = readString(in);
            ScramMechanism mechanism = ScramMechanism.byType(in.readByte());
            if (mechanism == null) {
                throw new IllegalArgumentException("unknown SCRAM mechanism in a credential record");
            }
            byte[] salt = readBytes(in);
            byte[] storedKey = readBytes(in);
            byte[] serverKey = readBytes(in);
            credentials.computeIfAbsent(user, u -> new EnumMap<>(ScramMechanism.class))
                    .put(mechanism, new ScramCredential(salt, storedKey, serverKey, in.readInt()));
        } else if (apiKey == CONFIG_RECORD) {
            byte type = in.readByte();
            Map<String, Map<String, String>> configs = type == ConfigResources.GROUP ? groupConfigs
                    : type == ConfigResources.BROKER ? brokerConfigs
                    : type == ConfigResources.CLIENT_METRICS ? clientMetrics : null;
            String resourceName = readString(in);
            String name = readString(in);
            byte[] value = readNullableBytes(in);
            if (configs != null && value != null) { // a null value removes the config: a snapshot never carries one
                configs.computeIfAbsent(resourceName, r -> new TreeMap<>())
                        .put(name, new String(value, StandardCharsets.UTF_8));
            }
        } else if (apiKey == CLIENT_QUOTA_RECORD) {
            int entities = Wire.readUnsignedVarint(in) - 1;
            if (entities < 0 || entities > in.readableBytes()) {
                throw new IllegalArgumentException("a client quota record's entity list is malformed");
            }
            Map<String, String> entity = new HashMap<>();
            for (int i = 0; i < entities; i++) {
                String type = readString(in);
                byte[] name = readNullableBytes(in);
                Wire.skipTaggedFields(in);
                entity.put(type, name == null ? null : new String(name, StandardCharsets.UTF_8));
            }
            String key = readString(in);
            double value = in.readDouble();
            if (!in.readBoolean()) { // a removal is the record's absence from a snapshot: never carried
                clientQuotas.computeIfAbsent(new QuotaEntity(entity), e -> new HashMap<>()).put(key, value);
            }
        } else if (apiKey == DELEGATION_TOKEN_RECORD) {
            tokens.add(readDelegationToken(in));
        } else if (apiKey == FEATURE_LEVEL_RECORD) {
            Feature feature = Feature.named(readString(in));
            short level = in.readShort();
            if (feature != null) { // one this broker does not know is not one it acts on
                features.put(feature, level);
            }
        }
    }

    private static DelegationToken readDelegationToken(ByteBuf in) {
        KafkaPrincipal owner = KafkaPrincipal.parse(readString(in));
        KafkaPrincipal requester = KafkaPrincipal.parse(readString(in));
        int renewerCount = Wire.readUnsignedVarint(in) - 1;
        if (renewerCount < 0 || renewerCount > in.readableBytes()) {
            throw new IllegalArgumentException("a delegation token record's renewer list is malformed");
        }
        List<KafkaPrincipal> renewers = new ArrayList<>(renewerCount);
        for (int i = 0; i < renewerCount; i++) {
            renewers.add(KafkaPrincipal.parse(readString(in)));
        }
        long issued = in.readLong();
        long max = in.readLong();
        long expiry = in.readLong();
        return new DelegationToken(readString(in), owner, requester, renewers, issued, max, expiry);
    }

    private static void writeString(ByteBuf out, String value) {
        writeBytes(out, value.getBytes(StandardCharsets.UTF_8));
    }

    private static void writeBytes(ByteBuf out, byte[] value) {
        Wire.writeLength(out, value.length, true, false);
        out.writeBytes(value);
    }

    private static String readString(ByteBuf in) {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(ByteBuf in) {
        byte[] bytes = readNullableBytes(in);
        if (bytes == null) {
            throw new IllegalArgumentException("a metadata record's field is null where it may not be");
        }
        return bytes;
    }

    private static byte[] readNullableBytes(ByteBuf in) {
        int length = Wire.readLength(in, true, false);
        if (length < 0) {
            return null;
        }
        if (length > in.readableBytes()) {
            throw new IllegalArgumentException("a metadata record's field runs past its end");
        }
        byte[] bytes = new byte[length];
        in.readBytes(bytes);
        return bytes;
    }
}
