package io.minibroker.broker.server;

import io.minibroker.broker.admin.AlterPartitionReassignmentsHandler;
import io.minibroker.broker.admin.AlterTopicConfigsHandler;
import io.minibroker.broker.admin.BrokerConfigChanges;
import io.minibroker.broker.admin.CreatePartitionsHandler;
import io.minibroker.broker.admin.CreateTopicsHandler;
import io.minibroker.broker.admin.DeleteTopicsHandler;
import io.minibroker.broker.admin.DescribeConfigsHandler;
import io.minibroker.broker.admin.ElectLeadersHandler;
import io.minibroker.broker.admin.ListConfigResourcesHandler;
import io.minibroker.broker.admin.ListPartitionReassignmentsHandler;
import io.minibroker.broker.admin.RuntimeLoggers;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.BrokerConfigOverrides;
import io.minibroker.broker.config.EligibleLeaderReplicasSafety;
import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.metrics.QuotaMeters;
import io.minibroker.broker.admin.AlterClientQuotasHandler;
import io.minibroker.broker.feature.FinalizedFeatures;
import io.minibroker.broker.cluster.DescribeTopicPartitionsHandler;
import io.minibroker.broker.quorum.AddRaftVoterHandler;
import io.minibroker.broker.quorum.NewVoterApiVersions;
import io.minibroker.broker.quorum.DescribeQuorumHandler;
import io.minibroker.broker.quorum.RemoveRaftVoterHandler;
import io.minibroker.broker.quorum.QuorumReport;
import io.minibroker.broker.quorum.VoterSet;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.admin.UnregisterBrokerHandler;
import io.minibroker.broker.admin.UpdateFeaturesHandler;
import io.minibroker.broker.metadata.DescribeClusterHandler;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.metadata.MetadataHandler;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.clientmetrics.ClientMetricsSubscriptions;
import io.minibroker.broker.topic.LocalTopicAutoCreation;
import io.minibroker.broker.topic.TopicCreationErrors;
import io.minibroker.broker.topic.SingleNodeElections;
import io.minibroker.broker.topic.SingleNodeReassignments;
import io.minibroker.broker.topic.TopicCreation;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.message.ApiKey;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * A single node's own admin and metadata APIs: it is its own controller, so it changes its topics, configs, ACLs and
 * users itself (on the disk thread) and answers Metadata from its own topics. A cluster's broker serves the same
 * APIs through {@link ClusterLink}.
 */
final class SingleNodeApis {

    private SingleNodeApis() {
    }

    /**
     * Returns how topics are created on a client's account: here, on {@code topicCreation} (as Metadata creates
     * them), off the disk thread that answers produces.
     */
    static TopicCreation register(SupportedApis apis, BrokerConfig config, LocalNode node, TopicRegistry topics,
                                      GroupConfigs groupConfigs, ClientMetricsSubscriptions clientMetrics,
                                      BrokerConfigOverrides dynamicConfigs,
                                      ClientQuotas clientQuotas, QuotaMeters mutationMeters,
                                      FinalizedFeatures features, EligibleLeaderReplicasSafety elr,
                                      RuntimeLoggers loggers, BrokerConfigChanges brokerChanges,
                                      SecurityApis security,
                                      Function<ApiHandler, ApiHandler> onDisk, Executor topicCreation,
                                      BrokerClock clock) throws IOException {
        String clusterId = config.get(BrokerConfig.CLUSTER_ID);
        VoterSet voters = new VoterSet(node.nodeId(), MetaProperties.directoryId(config.logDirs().get(0)), features);
        security.register(apis, null, onDisk);
        security.registerTokens(apis, config, clock::wallClockMs, onDisk);
        SingleNodeReassignments reassignments = new SingleNodeReassignments(topics, node.nodeId());
        ControllerMutationQuotas mutationQuotas = new ControllerMutationQuotas(clientQuotas, clock::monotonicMs,
                config.get(BrokerConfig.CONTROLLER_QUOTA_WINDOW_NUM),
                config.get(BrokerConfig.CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS), mutationMeters);
        apis.add(ApiKey.METADATA, new MetadataHandler(node, topics, config, topicCreation, mutationQuotas))
                .add(ApiKey.DESCRIBE_TOPIC_PARTITIONS, new DescribeTopicPartitionsHandler(
                        DescribeTopicPartitionsHandler.singleNode(node, topics)))
                .add(ApiKey.DESCRIBE_CLUSTER, new DescribeClusterHandler(clusterId, node))
                .add(ApiKey.CREATE_TOPICS, onDisk.apply(new CreateTopicsHandler(topics, node, config, mutationQuotas)))
                .add(ApiKey.DELETE_TOPICS, onDisk.apply(new DeleteTopicsHandler(topics,
                        config.get(BrokerConfig.DELETE_TOPIC_ENABLE), mutationQuotas)))
                .add(ApiKey.CREATE_PARTITIONS, onDisk.apply(new CreatePartitionsHandler(topics, node, mutationQuotas)))
                .add(ApiKey.ELECT_LEADERS, new ElectLeadersHandler(new SingleNodeElections(topics)))
                .add(ApiKey.ALTER_PARTITION_REASSIGNMENTS, new AlterPartitionReassignmentsHandler(reassignments))
                .add(ApiKey.LIST_PARTITION_REASSIGNMENTS, new ListPartitionReassignmentsHandler(reassignments))
                .add(ApiKey.ALTER_CONFIGS, onDisk.apply(new AlterTopicConfigsHandler(topics, ApiKey.ALTER_CONFIGS,
                        groupConfigs, brokerChanges::alter, clientMetrics)))
                .add(ApiKey.INCREMENTAL_ALTER_CONFIGS, onDisk.apply(new AlterTopicConfigsHandler(topics,
                        ApiKey.INCREMENTAL_ALTER_CONFIGS, groupConfigs, brokerChanges::alter, clientMetrics)))
                .add(ApiKey.DESCRIBE_CONFIGS, new DescribeConfigsHandler(topics::overrides, config, node,
                        groupConfigs, dynamicConfigs, loggers, clientMetrics))
                .add(ApiKey.LIST_CONFIG_RESOURCES, new ListConfigResourcesHandler(
                        () -> topics.all().stream().map(TopicMetadata::name).toList(), node, groupConfigs,
                        clientMetrics))
                .add(ApiKey.UPDATE_FEATURES, onDisk.apply(new UpdateFeaturesHandler(features, node.nodeId(), elr)))
                // The node is the one broker registered. Unregistered, Kafka's node serves no broker any more; this
                // one is at once registered again, as a cluster's broker is at its next heartbeat.
                .add(ApiKey.UNREGISTER_BROKER, new UnregisterBrokerHandler(brokerId -> brokerId == node.nodeId()))
                .add(ApiKey.ALTER_CLIENT_QUOTAS, onDisk.apply(new AlterClientQuotasHandler(clientQuotas)))
                // The node is its own controller, the only voter: no one fetches an image from it.
                .add(ApiKey.DESCRIBE_QUORUM, new DescribeQuorumHandler(() -> QuorumReport.leaderAlone(voters.leader(),
                        0, clock.wallClockMs(), List.of(), node.advertisedListeners().get())))
                .add(ApiKey.ADD_RAFT_VOTER, new AddRaftVoterHandler(clusterId, () -> quorumListener(config, node),
                        voters, NewVoterApiVersions.of(config, clock::monotonicMs)))
                .add(ApiKey.REMOVE_RAFT_VOTER, new RemoveRaftVoterHandler(clusterId, voters));
        return new LocalTopicAutoCreation(topics, topicCreation, new TopicCreationErrors(clock::monotonicMs),
                client -> mutationQuotas.newQuotaForCreationsOf(client.principalName(), client.clientId())::record);
    }

    /**
     * The listener of the node's quorum, which a voter added to it would have to name: the controller listener of a
     * Kafka configuration it was started with, else the first of its listeners, the first endpoint DescribeQuorum
     * gives its one voter.
     */
    private static String quorumListener(BrokerConfig config, LocalNode node) {
        List<String> controllerListeners = config.get(BrokerConfig.CONTROLLER_LISTENER_NAMES);
        return controllerListeners.isEmpty() ? node.advertisedListeners().get().get(0).listenerName()
                : controllerListeners.get(0);
    }

    /** Whether a partition is one of this node's (what AddPartitionsToTxn may add). */
    static boolean partitionExists(TopicRegistry topics, String topic, int partition) {
        return topics.get(topic).filter(found -> partition >= 0 && partition < found.partitions()).isPresent();
    }
}
