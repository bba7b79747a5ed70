package io.minibroker.broker.cluster;

import io.minibroker.broker.authz.AclBinding;
import io.minibroker.broker.authz.AclOperation;
import io.minibroker.broker.authz.AclPermissionType;
import io.minibroker.broker.authz.PatternType;
import io.minibroker.broker.authz.ResourceType;
import io.minibroker.broker.security.DelegationToken;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.security.ScramCredential;
import io.minibroker.broker.security.ScramMechanism;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.record.RecordIterator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.metadata.AccessControlEntryRecord;
import org.apache.kafka.common.metadata.ConfigRecord;
import org.apache.kafka.common.metadata.DelegationTokenRecord;
import org.apache.kafka.common.metadata.UserScramCredentialRecord;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.utils.internals.ByteUtils;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The ACL, SCRAM and group config records against Kafka's own generated record classes. */
class SecurityRecordsTest {

    private static final AclBinding ACL = new AclBinding(ResourceType.TOPIC, "orders", PatternType.PREFIXED,
            "User:alice", "10.0.0.1", AclOperation.WRITE, AclPermissionType.DENY);
    private static final ScramCredential CREDENTIAL = new ScramCredential(new byte[] {1, 2, 3}, new byte[] {4, 5},
            new byte[] {6, 7, 8, 9}, 8192);

    @Test
    void kafkaReadsTheRecordsTheControllerWrites() {
        ByteBuf batch = SecurityRecords.encode(new SecurityRecords.Snapshot(List.of(ACL),
                Map.of("bob", Map.of(ScramMechanism.SCRAM_SHA_512, CREDENTIAL))));
        List<ByteBuffer> values = values(batch);
        assertThat(values).hasSize(2);

        AccessControlEntryRecord acl = (AccessControlEntryRecord) read(values.get(0), new AccessControlEntryRecord());
        assertThat(acl.resourceType()).isEqualTo(ResourceType.TOPIC.code());
        assertThat(acl.resourceName()).isEqualTo("orders");
        assertThat(acl.patternType()).isEqualTo(PatternType.PREFIXED.code());
        assertThat(acl.principal()).isEqualTo("User:alice");
        assertThat(acl.host()).isEqualTo("10.0.0.1");
        assertThat(acl.operation()).isEqualTo(AclOperation.WRITE.code());
        assertThat(acl.permissionType()).isEqualTo(AclPermissionType.DENY.code());

        UserScramCredentialRecord scram = (UserScramCredentialRecord) read(values.get(1),
                new UserScramCredentialRecord());
        assertThat(scram.name()).isEqualTo("bob");
        assertThat(scram.mechanism()).isEqualTo(ScramMechanism.SCRAM_SHA_512.type());
        assertThat(scram.salt()).containsExactly(1, 2, 3);
        assertThat(scram.storedKey()).containsExactly(4, 5);
        assertThat(scram.serverKey()).containsExactly(6, 7, 8, 9);
        assertThat(scram.iterations()).isEqualTo(8192);
    }

    /**
     * Read back, the records give what was written (Kafka's 4.3.1 classes cannot write next to the 4.4.0 client
     * here, so the layout is checked by Kafka's reader above, which must consume every byte).
     */
    @Test
    void theBrokerReadsBackWhatTheControllerWrites() {
        SecurityRecords.Snapshot snapshot = SecurityRecords.decode(SecurityRecords.encode(
                new SecurityRecords.Snapshot(List.of(ACL), Map.of("bob", Map.of(ScramMechanism.SCRAM_SHA_512,
                        CREDENTIAL)))));
        assertThat(snapshot.acls()).containsExactly(ACL);
        assertThat(snapshot.credentials()).containsOnlyKeys("bob");
        ScramCredential read = snapshot.credentials().get("bob").get(ScramMechanism.SCRAM_SHA_512);
        assertThat(read.salt()).isEqualTo(CREDENTIAL.salt());
        assertThat(read.storedKey()).isEqualTo(CREDENTIAL.storedKey());
        assertThat(read.serverKey()).isEqualTo(CREDENTIAL.serverKey());
        assertThat(read.iterations()).isEqualTo(8192);
    }

    @Test
    void groupConfigsAreKafkasConfigRecordsAndReadBack() {
        SecurityRecords.Snapshot snapshot = new SecurityRecords.Snapshot(List.of(), Map.of(),
                Map.of("workers", Map.of("share.record.lock.duration.ms", "15000")), Map.of());
        List<ByteBuffer> values = values(SecurityRecords.encode(snapshot));
        assertThat(values).hasSize(1);
        ConfigRecord config = (ConfigRecord) read(values.get(0), new ConfigRecord());
        assertThat(config.resourceType()).isEqualTo(ConfigResource.Type.GROUP.id());
        assertThat(config.resourceName()).isEqualTo("workers");
        assertThat(config.name()).isEqualTo("share.record.lock.duration.ms");
        assertThat(config.value()).isEqualTo("15000");

        assertThat(SecurityRecords.decode(SecurityRecords.encode(snapshot)).groupConfigs())
                .isEqualTo(snapshot.groupConfigs());
    }

    @Test
    void delegationTokensAreKafkasDelegationTokenRecordsAndReadBack() {
        DelegationToken token = new DelegationToken("8w6Bq5yfSWGgY7Yz4vZrhw", KafkaPrincipal.user("alice"),
                KafkaPrincipal.user("admin:ü"), List.of(KafkaPrincipal.user("bob"), new KafkaPrincipal("Group", "ops")),
                1_700_000_000_000L, 1_700_604_800_000L, 1_700_086_400_000L);
        SecurityRecords.Snapshot snapshot = new SecurityRecords.Snapshot(List.of(), Map.of(), Map.of(), Map.of(),
                Map.of(), null, Map.of(), List.of(token));
        List<ByteBuffer> values = values(SecurityRecords.encode(snapshot));
        assertThat(values).hasSize(1);
        DelegationTokenRecord record = (DelegationTokenRecord) read(values.get(0), new DelegationTokenRecord());
        assertThat(record.tokenId()).isEqualTo("8w6Bq5yfSWGgY7Yz4vZrhw");
        assertThat(record.owner()).isEqualTo("User:alice");
        assertThat(record.requester()).isEqualTo("User:admin:ü");
        assertThat(record.renewers()).containsExactly("User:bob", "Group:ops");
        assertThat(record.issueTimestamp()).isEqualTo(1_700_000_000_000L);
        assertThat(record.maxTimestamp()).isEqualTo(1_700_604_800_000L);
        assertThat(record.expirationTimestamp()).isEqualTo(1_700_086_400_000L);

        assertThat(SecurityRecords.decode(SecurityRecords.encode(snapshot)).delegationTokens())
                .containsExactly(token);
    }

    @Test
    void anEmptySnapshotIsNoRecordsAndReadsBackEmpty() {
        ByteBuf none = SecurityRecords.encode(SecurityRecords.Snapshot.EMPTY);
        assertThat(none.readableBytes()).isZero();
        assertThat(SecurityRecords.decode(none)).isEqualTo(SecurityRecords.Snapshot.EMPTY);
    }

    private static ApiMessage read(ByteBuffer value, ApiMessage into) {
        assertThat(ByteUtils.readUnsignedVarint(value)).as("frame version").isEqualTo(1);
        assertThat(ByteUtils.readUnsignedVarint(value)).as("api key").isEqualTo(into.apiKey());
        short version = (short) ByteUtils.readUnsignedVarint(value);
        into.read(new ByteBufferAccessor(value), version);
        assertThat(value.remaining()).as("bytes after the record").isZero();
        return into;
    }

    private static List<ByteBuffer> values(ByteBuf records) {
        List<ByteBuffer> values = new ArrayList<>();
        RecordBatches batches = RecordBatches.of(records);
        while (batches.hasNext()) {
            try (RecordIterator iterator = batches.next().records(UnpooledByteBufAllocator.DEFAULT)) {
                while (iterator.hasNext()) {
                    Record record = iterator.next();
                    values.add(ByteBuffer.wrap(ByteBufUtil.getBytes(record.value())));
                }
            }
        }
        return values;
    }
}
