package io.minibroker.broker.server;

import io.minibroker.broker.authz.AclBinding;
import io.minibroker.broker.cluster.SecurityRecords.Snapshot;
import io.minibroker.broker.feature.FeatureLevels;
import io.minibroker.broker.quota.QuotaEntity;
import io.minibroker.broker.security.DelegationToken;
import io.minibroker.broker.security.ScramCredential;
import io.minibroker.broker.security.ScramMechanism;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A cluster broker's copies of what the image carries beside its topics (the ACLs, the SCRAM credentials, the group
 * configs, the dynamic broker configs, the client quotas, the finalized features, the client metrics subscriptions, the
 * delegation tokens), each replaced only when a fetched snapshot changed
 * it. The metadata fetcher hands on a whole snapshot whenever any part of it moved; replacing every copy each time would rebuild the authorizer's index and the
 * credentials for a group config set, and the other way round.
 *
 * <p>Called on the metadata fetcher's thread only, in order, which alone reads and writes {@code applied}.
 */
final class SnapshotChanges implements Consumer<Snapshot> {

    private final Consumer<List<AclBinding>> acls;
    private final Consumer<Map<String, Map<ScramMechanism, ScramCredential>>> credentials;
    private final Consumer<Map<String, Map<String, String>>> groupConfigs;
    private final Consumer<Map<String, Map<String, String>>> brokerConfigs;
    private final Consumer<Map<QuotaEntity, Map<String, Double>>> clientQuotas;
    private final Consumer<FeatureLevels> features;
    private final Consumer<Map<String, Map<String, String>>> clientMetrics;
    private final Consumer<List<DelegationToken>> delegationTokens;
    /** What the copies hold: nothing before the first snapshot, as each copy starts empty. */
    private Snapshot applied = Snapshot.EMPTY;

    SnapshotChanges(Consumer<List<AclBinding>> acls,
                    Consumer<Map<String, Map<ScramMechanism, ScramCredential>>> credentials,
                    Consumer<Map<String, Map<String, String>>> groupConfigs,
                    Consumer<Map<String, Map<String, String>>> brokerConfigs,
                    Consumer<Map<QuotaEntity, Map<String, Double>>> clientQuotas, Consumer<FeatureLevels> features,
                    Consumer<Map<String, Map<String, String>>> clientMetrics,
                    Consumer<List<DelegationToken>> delegationTokens) {
        this.acls = acls;
        this.credentials = credentials;
        this.groupConfigs = groupConfigs;
        this.brokerConfigs = brokerConfigs;
        this.clientQuotas = clientQuotas;
        this.features = features;
        this.clientMetrics = clientMetrics;
        this.delegationTokens = delegationTokens;
    }

    @Override
    public void accept(Snapshot next) {
        if (!next.acls().equals(applied.acls())) {
            acls.accept(next.acls());
        }
        if (!next.credentials().equals(applied.credentials())) {
            credentials.accept(next.credentials());
        }
        if (!next.groupConfigs().equals(applied.groupConfigs())) {
            groupConfigs.accept(next.groupConfigs());
        }
        if (!next.brokerConfigs().equals(applied.brokerConfigs())) {
            brokerConfigs.accept(next.brokerConfigs());
        }
        if (!next.clientQuotas().equals(applied.clientQuotas())) {
            clientQuotas.accept(next.clientQuotas());
        }
        if (next.features() != null && !next.features().equals(applied.features())) {
            features.accept(next.features());
        }
        if (!next.clientMetrics().equals(applied.clientMetrics())) {
            clientMetrics.accept(next.clientMetrics());
        }
        if (!next.delegationTokens().equals(applied.delegationTokens())) {
            delegationTokens.accept(next.delegationTokens());
        }
        applied = next;
    }
}
