package io.minibroker.broker.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.authz.StandardAuthorizer;
import io.minibroker.broker.clientmetrics.ClientMetricsSubscriptions;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.BrokerConfigOverrides;
import io.minibroker.broker.config.EligibleLeaderReplicasSafety;
import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.config.SecurityKeys;
import io.minibroker.broker.controller.AssignmentStore;
import io.minibroker.broker.controller.BrokerMembership;
import io.minibroker.broker.controller.ControllerApis;
import io.minibroker.broker.controller.MetadataFollowers;
import io.minibroker.broker.controller.ImageVersion;
import io.minibroker.broker.controller.LeaderElections;
import io.minibroker.broker.controller.TopicAssignments;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.metrics.ClientQuotaMeters;
import io.minibroker.broker.metrics.ControllerMeters;
import io.minibroker.broker.security.DelegationTokens;
import io.minibroker.broker.security.ScramCredentials;
import io.minibroker.broker.feature.FinalizedFeatures;
import io.minibroker.broker.quorum.NewVoterApiVersions;
import io.minibroker.broker.quorum.VoterSet;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.token.ExpiredTokens;
import io.minibroker.purgatory.PurgatoryMeters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The cluster's controller, on the node that plays it: which brokers are in the cluster, the topics' assignments
 * (kept in {@code .minibroker-controller} of its first log directory, with the cluster's ACLs, SCRAM users, delegation
 * tokens and group configs), the image's version where brokers' metadata fetches wait for a change, who elects new leaders, and the
 * table of APIs its controller listener serves.
 *
 * <p>Its requests that read or write its files run on its own {@code controller-io} thread, as Kafka's controller
 * has its own event queue and I/O thread: on a node that is a broker too, a metadata change never waits behind the
 * broker's fsyncs and admin writes on {@code disk-io}, nor these behind it. One thread: changes apply one at a time.
 */
final class ControllerNode {

    private final ExecutorService io;
    private final BrokerMembership membership;
    private final TopicAssignments assignments;
    private final ImageVersion imageVersion;
    private final LeaderElections elections;
    private final SupportedApis apis;
    private final DelegationTokens tokens;

    private ControllerNode(ExecutorService io, BrokerMembership membership, TopicAssignments assignments,
                           ImageVersion imageVersion, LeaderElections elections, SupportedApis apis,
                           DelegationTokens tokens) {
        this.io = io;
        this.membership = membership;
        this.assignments = assignments;
        this.imageVersion = imageVersion;
        this.elections = elections;
        this.apis = apis;
        this.tokens = tokens;
    }

    static ControllerNode start(BrokerConfig config, LocalNode node, BrokerClock clock, MeterRegistry registry)
            throws IOException {
        ExecutorService io = Executors.newSingleThreadExecutor(task -> new Thread(task, "controller-io"));
        ImageVersion imageVersion = new ImageVersion(clock.purgatoryClock());
        new PurgatoryMeters(imageVersion.purgatory()).bindTo(registry);
        try {
            BrokerMembership membership = new BrokerMembership(config.get(BrokerConfig.BROKER_SESSION_TIMEOUT_MS),
                    clock::monotonicMs, imageVersion::current, imageVersion::appliedBy, imageVersion::changed);
            TopicAssignments assignments = TopicAssignments.open(membership, config.logDirs().get(0),
                    imageVersion::changed);
            Path controllerDir = Files.createDirectories(config.logDirs().get(0).resolve(AssignmentStore.DIR));
            BrokerConfigOverrides brokerConfigs = BrokerConfigOverrides.open(controllerDir, imageVersion::changed);
            FinalizedFeatures features = FinalizedFeatures.open(controllerDir,
                    config.get(BrokerConfig.TRANSACTION_VERSION).shortValue(), imageVersion::changed);
            EligibleLeaderReplicasSafety elr = EligibleLeaderReplicasSafety.ensured(features, brokerConfigs,
                    config.get(BrokerConfig.MIN_INSYNC_REPLICAS));
            DelegationTokens tokens = DelegationTokens.open(controllerDir, SecurityApis.secretKey(config));
            ClientQuotas clientQuotas = ClientQuotas.open(controllerDir);
            clientQuotas.onChange(imageVersion::changed);
            SupportedApis apis = ControllerApis.create(config, node, membership, assignments, imageVersion, io,
                    config.authorizerEnabled() ? StandardAuthorizer.open(controllerDir,
                            config.get(SecurityKeys.SUPER_USERS),
                            config.get(SecurityKeys.ALLOW_EVERYONE_IF_NO_ACL_FOUND)) : null,
                    ScramCredentials.open(controllerDir),
                    GroupConfigs.open(config, controllerDir, imageVersion::changed), brokerConfigs, clientQuotas,
                    new ControllerMutationQuotas(clientQuotas, clock::monotonicMs,
                            config.get(BrokerConfig.CONTROLLER_QUOTA_WINDOW_NUM),
                            config.get(BrokerConfig.CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS),
                            ClientQuotaMeters.controllerMutation(registry, clock::monotonicMs)),
                    features, elr, new MetadataFollowers(clock::wallClockMs),
                    new VoterSet(node.nodeId(), MetaProperties.directoryId(config.logDirs().get(0)), features),
                    NewVoterApiVersions.of(config, clock::monotonicMs),
                    ClientMetricsSubscriptions.open(controllerDir, imageVersion::changed), tokens, clock::wallClockMs);
            ControllerMeters.bindTo(registry, true, assignments::offlinePartitionCount);
            LeaderElections elections = new LeaderElections(membership, assignments,
                    config.get(BrokerConfig.BROKER_SESSION_TIMEOUT_MS),
                    config.get(BrokerConfig.AUTO_LEADER_REBALANCE_ENABLE)
                            ? TimeUnit.SECONDS.toMillis(
                                    config.get(BrokerConfig.LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS))
                            : 0, clock);
            return new ControllerNode(io, membership, assignments, imageVersion, elections, apis, tokens);
        } catch (IOException | RuntimeException e) {
            io.shutdown();
            Closing.quietly(imageVersion); // a failed start closes what it opened
            throw e;
        }
    }

    /**
     * Where the controller's file work runs; the broker's stop drains it with its own disk work, once no request is
     * read any more.
     */
    ExecutorService io() {
        return io;
    }

    /**
     * The cluster's delegation token expiry check: removes the tokens expired by now, and the image moves on so that
     * every broker drops them too (Kafka's controller writes a RemoveDelegationTokenRecord for each).
     */
    void removeExpiredTokens(long nowMs) {
        ExpiredTokens.remove(tokens, nowMs, imageVersion::changed);
    }

    /** What the controller listeners serve. */
    SupportedApis apis() {
        return apis;
    }

    BrokerMembership membership() {
        return membership;
    }

    TopicAssignments assignments() {
        return assignments;
    }

    /** No more elections: before this node's replicas close. */
    void stopElections() {
        Closing.quietly(elections);
    }

    /** The brokers' parked metadata fetches are answered now, not at their timeout. */
    void answerParkedFetches() {
        Closing.quietly(imageVersion);
    }
}
