package io.minibroker.broker.server;

import io.minibroker.broker.authz.AclBinding;
import io.minibroker.broker.authz.AclOperation;
import io.minibroker.broker.authz.AclPermissionType;
import io.minibroker.broker.authz.PatternType;
import io.minibroker.broker.authz.ResourceType;
import io.minibroker.broker.cluster.SecurityRecords;
import io.minibroker.broker.cluster.SecurityRecords.Snapshot;
import io.minibroker.broker.feature.Feature;
import io.minibroker.broker.feature.FeatureLevels;
import io.minibroker.broker.quota.QuotaEntity;
import io.minibroker.broker.security.DelegationToken;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.security.ScramCredential;
import io.minibroker.broker.security.ScramMechanism;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A cluster broker replaces only the copies a fetched snapshot changed, as the image decodes it. */
class SnapshotChangesTest {

    private static final AclBinding ACL = new AclBinding(ResourceType.TOPIC, "orders", PatternType.LITERAL,
            "User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW);
    private static final Map<String, Map<ScramMechanism, ScramCredential>> CREDENTIALS = Map.of("bob",
            Map.of(ScramMechanism.SCRAM_SHA_256, new ScramCredential(new byte[] {1, 2}, new byte[] {3}, new byte[] {4},
                    4096)));

    private final List<Object> acls = new ArrayList<>();
    private final List<Object> credentials = new ArrayList<>();
    private final List<Object> groupConfigs = new ArrayList<>();
    private final List<Object> brokerConfigs = new ArrayList<>();
    private final List<Object> clientQuotas = new ArrayList<>();
    private final List<FeatureLevels> features = new ArrayList<>();
    private final List<Object> clientMetrics = new ArrayList<>();
    private final List<List<DelegationToken>> tokens = new ArrayList<>();
    private final SnapshotChanges changes = new SnapshotChanges(acls::add, credentials::add, groupConfigs::add,
            brokerConfigs::add, clientQuotas::add, features::add, clientMetrics::add, tokens::add);

    /** The snapshot as a broker receives it: encoded by the controller, decoded anew at each fetch. */
    private void fetched(Map<String, Map<String, String>> configs) {
        changes.accept(SecurityRecords.decode(SecurityRecords.encode(new Snapshot(List.of(ACL), CREDENTIALS,
                configs, Map.of()))));
    }

    @Test
    void aGroupConfigChangeReplacesTheGroupConfigsAlone() {
        fetched(Map.of("workers", Map.of("share.record.lock.duration.ms", "15000")));
        assertThat(acls).hasSize(1);
        assertThat(credentials).hasSize(1);
        assertThat(groupConfigs).hasSize(1);

        fetched(Map.of("workers", Map.of("share.record.lock.duration.ms", "20000")));

        assertThat(acls).as("ACLs not replaced again").hasSize(1);
        assertThat(credentials).as("credentials not replaced again").hasSize(1);
        assertThat(groupConfigs).hasSize(2);
        assertThat(groupConfigs.get(1)).isEqualTo(Map.of("workers", Map.of("share.record.lock.duration.ms", "20000")));
    }

    @Test
    void aDynamicBrokerConfigChangeReplacesTheBrokerConfigsAloneAsTheImageCarriesThem() {
        Map<String, Map<String, String>> groups = Map.of("workers", Map.of("share.record.lock.duration.ms", "15000"));
        fetched(groups);
        Map<String, Map<String, String>> brokers = Map.of("", Map.of("log.retention.ms", "5000"),
                "2", Map.of("log.cleaner.backoff.ms", "20000"));
        changes.accept(SecurityRecords.decode(SecurityRecords.encode(new Snapshot(List.of(ACL), CREDENTIALS, groups,
                brokers))));

        assertThat(groupConfigs).as("group configs not replaced again").hasSize(1);
        assertThat(brokerConfigs).containsExactly(brokers);
    }

    @Test
    void clientQuotasTravelAsClientQuotaRecordsDefaultEntitiesIncludedAndAloneReplaceTheMirror() {
        Map<String, Map<String, String>> groups = Map.of("workers", Map.of("share.record.lock.duration.ms", "15000"));
        fetched(groups);
        Map<String, String> userDefaultAndApp = new HashMap<>();
        userDefaultAndApp.put("user", null);
        userDefaultAndApp.put("client-id", "app");
        Map<QuotaEntity, Map<String, Double>> quotas = Map.of(
                QuotaEntity.of("user", "alice"), Map.of("producer_byte_rate", 1024.0, "request_percentage", 12.5),
                new QuotaEntity(userDefaultAndApp), Map.of("consumer_byte_rate", 2048.0),
                QuotaEntity.of("ip", null), Map.of("connection_creation_rate", 5.0));
        changes.accept(SecurityRecords.decode(SecurityRecords.encode(new Snapshot(List.of(ACL), CREDENTIALS, groups,
                Map.of(), quotas, null))));
        changes.accept(SecurityRecords.decode(SecurityRecords.encode(new Snapshot(List.of(ACL), CREDENTIALS, groups,
                Map.of(), quotas, null))));

        assertThat(clientQuotas).containsExactly(quotas);
        assertThat(groupConfigs).as("group configs not replaced again").hasSize(1);
    }

    @Test
    void delegationTokensTravelAsTheirRecordsAndAloneReplaceTheCopyWhenOneChanges() {
        DelegationToken token = new DelegationToken("id-1", KafkaPrincipal.user("alice"), KafkaPrincipal.user("admin"),
                List.of(KafkaPrincipal.user("bob"), new KafkaPrincipal("Group", "ops")), 1_000, 9_000, 5_000);
        withTokens(List.of(token));
        withTokens(List.of(token));
        DelegationToken renewed = token.withExpiryTimestamp(8_000);
        withTokens(List.of(renewed));
        withTokens(List.of());

        assertThat(tokens).containsExactly(List.of(token), List.of(renewed), List.of());
        assertThat(acls).as("ACLs not replaced again").hasSize(1);
    }

    private void withTokens(List<DelegationToken> held) {
        changes.accept(SecurityRecords.decode(SecurityRecords.encode(new Snapshot(List.of(ACL), CREDENTIALS, Map.of(),
                Map.of(), Map.of(), null, Map.of(), held))));
    }

    @Test
    void eachPartIsReplacedWhenItChanges() {
        fetched(Map.of());
        assertThat(groupConfigs).as("empty, as the copy starts").isEmpty();

        changes.accept(new Snapshot(List.of(), CREDENTIALS, Map.of(), Map.of()));
        assertThat(acls).containsExactly(List.of(ACL), List.of());
        assertThat(credentials).hasSize(1);

        changes.accept(new Snapshot(List.of(), Map.of(), Map.of(), Map.of()));
        assertThat(credentials).hasSize(2);
        assertThat(credentials.get(1)).isEqualTo(Map.of());
        assertThat(acls).hasSize(2);
    }

    @Test
    void theControllersFinalizedFeaturesReachTheBrokerWithTheirEpochAndOnlyWhenTheyChange() {
        FeatureLevels atDefaults = FeatureLevels.atDefaults((short) 2);
        FeatureLevels downgraded = new FeatureLevels(Map.of(Feature.METADATA_VERSION, (short) 30,
                Feature.TRANSACTION_VERSION, (short) 1), 7);
        withFeatures(atDefaults);
        withFeatures(atDefaults);
        withFeatures(downgraded);

        assertThat(features).hasSize(2);
        assertThat(features.get(0).level(Feature.TRANSACTION_VERSION)).isEqualTo((short) 2);
        assertThat(features.get(0).level(Feature.GROUP_VERSION)).isEqualTo((short) 1);
        assertThat(features.get(0).level(Feature.KRAFT_VERSION)).as("level 0: not carried").isZero();
        assertThat(features.get(1).level(Feature.TRANSACTION_VERSION)).isEqualTo((short) 1);
        assertThat(features.get(1).level(Feature.GROUP_VERSION)).isZero();
        assertThat(features.get(1).epoch()).isEqualTo(7);
        assertThat(acls).as("ACLs not replaced for a feature change").hasSize(1);
    }

    /** KIP-714 subscriptions travel as ConfigRecords of type CLIENT_METRICS, the mirror replaced on a change only. */
    @Test
    void clientMetricsSubscriptionsReachTheBrokerThroughTheImageAndOnlyWhenTheyChange() {
        Map<String, Map<String, String>> cpu = Map.of("cpu", Map.of("interval.ms", "1000", "metrics", "a.,b."));
        withSubscriptions(cpu);
        withSubscriptions(cpu);
        withSubscriptions(Map.of());

        assertThat(clientMetrics).containsExactly(cpu, Map.of());
        assertThat(groupConfigs).as("not group configs").isEmpty();
        assertThat(acls).as("ACLs not replaced for a subscription change").hasSize(1);
    }

    private void withSubscriptions(Map<String, Map<String, String>> subscriptions) {
        changes.accept(SecurityRecords.decode(SecurityRecords.encode(new Snapshot(List.of(ACL), Map.of(), Map.of(),
                Map.of(), Map.of(), null, subscriptions))));
    }

    private void withFeatures(FeatureLevels levels) {
        changes.accept(SecurityRecords.decode(SecurityRecords.encode(new Snapshot(List.of(ACL), Map.of(), Map.of(),
                Map.of(), levels))));
    }

    @Test
    void aFirstSnapshotWithNothingTouchesNothing() {
        changes.accept(SecurityRecords.decode(SecurityRecords.encode(Snapshot.EMPTY)));

        assertThat(acls).isEmpty();
        assertThat(credentials).isEmpty();
        assertThat(groupConfigs).isEmpty();
        assertThat(features).as("no features carried: the broker keeps its own").isEmpty();
    }
}
