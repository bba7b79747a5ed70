package io.minibroker.broker.config;

import io.minibroker.broker.feature.Feature;
import io.minibroker.broker.feature.FinalizedFeatures;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What KIP-966's eligible leader replicas ask of the dynamic broker configs while
 * {@code eligible.leader.replicas.version} is finalized at 1 or above (Kafka 4.1+ finalizes it on a new cluster, as
 * this broker does): one {@code min.insync.replicas} for the whole cluster, never one per broker, since the
 * controller elects from the ELR by the same minimum every broker enforces.
 *
 * <p>Kafka's controller writes the cluster-level {@code min.insync.replicas} (the value in its own configuration
 * file) and drops every broker-level one when ELR is enabled: at the bootstrap of a new cluster and when
 * UpdateFeatures enables it (ConfigurationControlManager.maybeGenerateElrSafetyRecords). So a topic without its own
 * value describes {@code min.insync.replicas} as DYNAMIC_DEFAULT_BROKER_CONFIG, and {@code kafka-configs
 * --entity-default} lists it, on a cluster that nobody configured. {@link #ensure} does the same at this node's
 * start (a single node, or a cluster's controller) and after an UpdateFeatures; a store that already has it is left
 * as it is. While ELR is on, a change that sets or removes a broker's own value, or removes the cluster's, is
 * refused with Kafka's INVALID_CONFIG message ({@link #refusal}).
 */
public final class EligibleLeaderReplicasSafety {

    static final String BROKER_LEVEL_REFUSED = "Broker-level " + BrokerConfig.MIN_INSYNC_REPLICAS.name()
            + " cannot be altered while ELR is enabled.";
    static final String CLUSTER_REMOVAL_REFUSED = "Cluster-level " + BrokerConfig.MIN_INSYNC_REPLICAS.name()
            + " cannot be removed while ELR is enabled.";

    /** The cluster default's resource name: its configs are every broker's. */
    private static final String CLUSTER = "";

    private final FinalizedFeatures features;
    private final BrokerConfigOverrides stored;
    private final int staticMinInsyncReplicas;

    /**
     * @param stored                  the configs this node keeps (a single node's, or the controller's)
     * @param staticMinInsyncReplicas this node's {@code min.insync.replicas} from its configuration file
     */
    public EligibleLeaderReplicasSafety(FinalizedFeatures features, BrokerConfigOverrides stored,
                                        int staticMinInsyncReplicas) {
        this.features = features;
        this.stored = stored;
        this.staticMinInsyncReplicas = staticMinInsyncReplicas;
    }

    /** A node's, {@link #ensure}d at once: what its start does. */
    public static EligibleLeaderReplicasSafety ensured(FinalizedFeatures features, BrokerConfigOverrides stored,
                                                       int staticMinInsyncReplicas) throws IOException {
        EligibleLeaderReplicasSafety safety = new EligibleLeaderReplicasSafety(features, stored,
                staticMinInsyncReplicas);
        safety.ensure();
        return safety;
    }

    private boolean enabled() {
        return features.level(Feature.ELIGIBLE_LEADER_REPLICAS_VERSION) >= 1;
    }

    /**
     * With ELR on: the cluster-level {@code min.insync.replicas} stored if it is missing, every broker-level one
     * removed. Changes nothing otherwise. Called on the thread that changes the stored configs.
     */
    public void ensure() throws IOException {
        if (!enabled()) {
            return;
        }
        String key = BrokerConfig.MIN_INSYNC_REPLICAS.name();
        if (!stored.of(CLUSTER).containsKey(key)) {
            Map<String, String> cluster = new LinkedHashMap<>(stored.of(CLUSTER));
            cluster.put(key, Integer.toString(staticMinInsyncReplicas));
            stored.replace(CLUSTER, cluster);
        }
        for (Map.Entry<String, Map<String, String>> resource : stored.all().entrySet()) {
            if (!resource.getKey().equals(CLUSTER) && resource.getValue().containsKey(key)) {
                Map<String, String> broker = new LinkedHashMap<>(resource.getValue());
                broker.remove(key);
                stored.replace(resource.getKey(), broker);
            }
        }
    }

    /**
     * Why a change that leaves the resource {@code resourceName} ("" for the cluster default) with the configs
     * {@code after} may not be made, or null if it may.
     */
    public String refusal(String resourceName, Map<String, String> after) {
        if (!enabled()) {
            return null;
        }
        String key = BrokerConfig.MIN_INSYNC_REPLICAS.name();
        String before = stored.of(resourceName).get(key);
        if (Objects.equals(before, after.get(key))) {
            return null; // Kafka checks the records a change writes, and an unchanged value writes none
        }
        if (!resourceName.equals(CLUSTER)) {
            return BROKER_LEVEL_REFUSED;
        }
        return after.containsKey(key) ? null : CLUSTER_REMOVAL_REFUSED;
    }
}
