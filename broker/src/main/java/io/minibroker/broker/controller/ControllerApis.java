package io.minibroker.broker.controller;

import io.minibroker.broker.admin.AlterPartitionReassignmentsHandler;
import io.minibroker.broker.admin.AlterTopicConfigsHandler;
import io.minibroker.broker.admin.ListPartitionReassignmentsHandler;
import io.minibroker.broker.admin.BrokerConfigChanges;
import io.minibroker.broker.admin.DeleteTopicsHandler;
import io.minibroker.broker.admin.DescribeConfigsHandler;
import io.minibroker.broker.admin.RuntimeLoggers;
import io.minibroker.broker.admin.ElectLeadersHandler;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.ApiVersionsHandler;
import io.minibroker.broker.api.DiskBoundHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.authz.AclApisHandler;
import io.minibroker.broker.authz.AuthorizingHandler;
import io.minibroker.broker.authz.StandardAuthorizer;
import io.minibroker.broker.authz.TopicFacts;
import io.minibroker.broker.clientmetrics.ClientMetricsSubscriptions;
import io.minibroker.broker.cluster.SecurityRecords;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.BrokerConfigOverrides;
import io.minibroker.broker.config.EligibleLeaderReplicasSafety;
import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.admin.AlterClientQuotasHandler;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.quorum.AddRaftVoterHandler;
import io.minibroker.broker.quorum.NewVoterApiVersions;
import io.minibroker.broker.quorum.DescribeQuorumHandler;
import io.minibroker.broker.quorum.RemoveRaftVoterHandler;
import io.minibroker.broker.quorum.VoterSet;
import io.minibroker.broker.feature.FinalizedFeatures;
import io.minibroker.broker.admin.UnregisterBrokerHandler;
import io.minibroker.broker.admin.UpdateFeaturesHandler;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.sasl.AlterUserScramCredentialsHandler;
import io.minibroker.broker.sasl.SaslAuthenticateHandler;
import io.minibroker.broker.sasl.SaslHandshakeHandler;
import io.minibroker.broker.security.DelegationTokens;
import io.minibroker.broker.security.ScramCredentials;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.token.DelegationTokenApis;
import io.minibroker.protocol.message.ApiKey;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What the controller's listener ({@code controller.listener.names}) serves: only the requests brokers send their
 * controller, as Kafka's controller listener does (the SASL steps when it is SASL_PLAINTEXT, registration,
 * heartbeats, the image and the parked Fetch that follows its version, ISR changes, and the admin requests brokers
 * forward: CreateTopics, DeleteTopics, CreatePartitions, ElectLeaders, AlterPartitionReassignments,
 * ListPartitionReassignments, AlterConfigs and IncrementalAlterConfigs (of
 * topics and of groups), CreateAcls, DeleteAcls, AlterUserScramCredentials, the delegation token changes,
 * UpdateFeatures, UnregisterBroker, DescribeQuorum, AddRaftVoter and RemoveRaftVoter, plus
 * DescribeConfigs, which brokers send for the topics' config overrides); clients are never told of this listener.
 */
public final class ControllerApis {

    private ControllerApis() {
    }

    /**
     * @param node this node, whose configs a DescribeConfigs of a broker resource lists
     * @param disk where the requests on topics run: a change writes and fsyncs the topic's file under the lock that
     *             the image's readers (Metadata, DescribeConfigs) take too, which no event loop may wait for
     * @param acls the cluster's ACLs, which brokers forward CreateAcls and DeleteAcls to; the envelopes they come in
     *             checked against the forwarding broker's principal as this node's {@code super.users} name it; null
     *             without an authorizer
     * @param credentials the cluster's SCRAM credentials, which brokers forward AlterUserScramCredentials to
     * @param groupConfigs the cluster's group configs (resource type GROUP), which brokers forward AlterConfigs and
     *                     IncrementalAlterConfigs of a group to; each change moves the image version on itself
     * @param brokerConfigs the cluster's dynamic broker configs (resource type BROKER), which brokers forward once
     *                      they preprocessed them; each change moves the image version on itself
     * @param clientQuotas the cluster's client quotas, which brokers forward AlterClientQuotas to; each change
     *                     moves the image version on itself
     * @param mutationQuotas the clients' controller_mutation_rate, by the principal and client id of each request
     *                       forwarded in an envelope
     * @param followers how far each broker follows the image: DescribeQuorum's observers
     * @param newVoter how AddRaftVoter asks a new voter for its ApiVersions, on the controller listener
     * @param features the cluster's finalized features, which brokers forward UpdateFeatures to; each change moves
     *                 the image version on itself
     * @param elr      KIP-966's rules for {@code brokerConfigs} while ELR is on, kept by changes of either
     * @param clientMetrics the cluster's client metrics subscriptions (resource type CLIENT_METRICS), which brokers
     *                      forward AlterConfigs and IncrementalAlterConfigs of one to; each change moves the image
     *                      version on itself
     * @param tokens the cluster's delegation tokens, which brokers forward CreateDelegationToken,
     *               RenewDelegationToken and ExpireDelegationToken to
     * @param wallClockMs the tokens' clock: their times are wall-clock times, as Kafka's
     */
    public static SupportedApis create(BrokerConfig config, LocalNode node, BrokerMembership membership,
                                       TopicAssignments assignments, ImageVersion version, Executor disk,
                                       StandardAuthorizer acls, ScramCredentials credentials,
                                       GroupConfigs groupConfigs, BrokerConfigOverrides brokerConfigs,
                                       ClientQuotas clientQuotas, ControllerMutationQuotas mutationQuotas,
                                       FinalizedFeatures features, EligibleLeaderReplicasSafety elr,
                                       MetadataFollowers followers, VoterSet voters,
                                       NewVoterApiVersions newVoter,
                                       ClientMetricsSubscriptions clientMetrics, DelegationTokens tokens,
                                       LongSupplier wallClockMs) {
        BrokerConfigChanges brokerConfigChanges = BrokerConfigChanges.atController(brokerConfigs, elr);
        String clusterId = config.get(BrokerConfig.CLUSTER_ID);
        Function<ApiHandler, ApiHandler> onDisk = DiskBoundHandler.on(disk);
        SupportedApis apis = new SupportedApis();
        int nodeId = config.get(BrokerConfig.NODE_ID);
        apis.add(ApiKey.API_VERSIONS, new ApiVersionsHandler(apis, clusterId, nodeId, features))
                // A SASL_PLAINTEXT controller listener: brokers sign in first (sasl.mechanism.controller.protocol).
                .add(ApiKey.SASL_HANDSHAKE, new SaslHandshakeHandler())
                .add(ApiKey.SASL_AUTHENTICATE, new SaslAuthenticateHandler())
                .add(ApiKey.BROKER_REGISTRATION, new BrokerRegistrationHandler(clusterId, membership))
                .add(ApiKey.BROKER_HEARTBEAT, new BrokerHeartbeatHandler(membership, assignments, disk))
                .add(ApiKey.METADATA, onDisk.apply(new ControllerMetadataHandler(clusterId, assignments)))
                .add(ApiKey.FETCH, new ControllerFetchHandler(version, () -> new SecurityRecords.Snapshot(
                        acls == null ? List.of() : acls.bindings(), credentials.all(), groupConfigs.all(),
                        brokerConfigs.all(), clientQuotas.all(), features.current(), clientMetrics.all(),
                        tokens.tokens()),
                        followers))
                .add(ApiKey.CREATE_TOPICS, onDisk.apply(new ControllerCreateTopicsHandler(assignments, version,
                        membership, config, mutationQuotas)))
                .add(ApiKey.DELETE_TOPICS, onDisk.apply(new DeleteTopicsHandler(assignments,
                        config.get(BrokerConfig.DELETE_TOPIC_ENABLE), mutationQuotas)))
                .add(ApiKey.CREATE_PARTITIONS, onDisk.apply(new ControllerCreatePartitionsHandler(assignments,
                        mutationQuotas)))
                .add(ApiKey.ELECT_LEADERS, onDisk.apply(new ElectLeadersHandler(assignments)))
                .add(ApiKey.ALTER_PARTITION_REASSIGNMENTS, onDisk.apply(new AlterPartitionReassignmentsHandler(
                        assignments)))
                .add(ApiKey.LIST_PARTITION_REASSIGNMENTS, onDisk.apply(new ListPartitionReassignmentsHandler(
                        assignments)))
                .add(ApiKey.ALTER_CONFIGS, onDisk.apply(new AlterTopicConfigsHandler(assignments,
                        ApiKey.ALTER_CONFIGS, groupConfigs, brokerConfigChanges::persist, clientMetrics)))
                .add(ApiKey.INCREMENTAL_ALTER_CONFIGS, onDisk.apply(new AlterTopicConfigsHandler(assignments,
                        ApiKey.INCREMENTAL_ALTER_CONFIGS, groupConfigs, brokerConfigChanges::persist, clientMetrics)))
                .add(ApiKey.DESCRIBE_CONFIGS, onDisk.apply(new DescribeConfigsHandler(assignments::overrides, config,
                        node, groupConfigs, brokerConfigs, RuntimeLoggers.NONE, clientMetrics)))
                .add(ApiKey.ALTER_PARTITION, onDisk.apply(new AlterPartitionHandler(membership, assignments)))
                .add(ApiKey.UPDATE_FEATURES, onDisk.apply(new UpdateFeaturesHandler(features, nodeId, elr)))
                // As Kafka's controller, the broker leaves the ISRs it was in as it is unregistered.
                .add(ApiKey.UNREGISTER_BROKER, onDisk.apply(new UnregisterBrokerHandler(brokerId -> {
                    if (!membership.unregister(brokerId)) {
                        return false;
                    }
                    assignments.electLeadersAwayFrom(brokerId);
                    return true;
                })))
                .add(ApiKey.ALTER_CLIENT_QUOTAS, onDisk.apply(new AlterClientQuotasHandler(clientQuotas)))
                .add(ApiKey.DESCRIBE_QUORUM, new DescribeQuorumHandler(() -> followers.report(voters.leader(),
                        version.current(), List.of(new Endpoint(config.get(BrokerConfig.CONTROLLER_LISTENER_NAMES)
                                .get(0), config.controllerVoter().host(), config.controllerVoter().port())))))
                .add(ApiKey.ADD_RAFT_VOTER, new AddRaftVoterHandler(clusterId,
                        () -> config.get(BrokerConfig.CONTROLLER_LISTENER_NAMES).get(0), voters, newVoter))
                .add(ApiKey.REMOVE_RAFT_VOTER, new RemoveRaftVoterHandler(clusterId, voters));
        // The security changes brokers forward: saved on the disk thread, then the image's version moves on, so
        // that every broker fetches them.
        ApiHandler scramChanges = changesImage(onDisk.apply(new AlterUserScramCredentialsHandler(credentials)),
                version);
        apis.add(ApiKey.ALTER_USER_SCRAM_CREDENTIALS, scramChanges);
        if (acls != null) {
            ApiHandler aclChanges = changesImage(onDisk.apply(new AclApisHandler(acls)), version);
            apis.add(ApiKey.CREATE_ACLS, aclChanges).add(ApiKey.DELETE_ACLS, aclChanges);
        }
        DelegationTokenApis.registerChanges(apis, config, tokens, acls, wallClockMs,
                handler -> changesImage(onDisk.apply(handler), version));
        // Forwarded requests come in envelopes, each handed to its API's handler as the table has it once the
        // checks below wrap it, so that the request inside is authorized again as its client's, as Kafka's
        // ControllerApis does. On controller-io: a check may look a topic up, under the lock that a change holds
        // while it fsyncs, which the event loop must not wait for.
        apis.add(ApiKey.ENVELOPE, onDisk.apply(new EnvelopeHandler(apis.entries())));
        if (acls != null) {
            // As Kafka's ControllerApis: every request is checked (CLUSTER_ACTION for registration, heartbeats,
            // ISR changes, the metadata fetches and envelopes; the admin APIs' own rights for the request inside an
            // envelope, as its client's, and for one a node sends outside one).
            TopicFacts topics = new TopicFacts(assignments::nameOf, assignments::idOf,
                    (name, partition) -> partition >= 0 && partition < assignments.partitionCount(name), false,
                    config.get(BrokerConfig.DELETE_TOPIC_ENABLE));
            apis.wrapHandlers((api, handler) -> AuthorizingHandler.wrapOnController(api, handler, acls, topics,
                    brokerConfigChanges));
        }
        return apis;
    }

    private static ApiHandler changesImage(ApiHandler handler, ImageVersion version) {
        return (context, request) -> handler.handle(context, request).thenApply(response -> {
            version.changed();
            return response;
        });
    }
}
