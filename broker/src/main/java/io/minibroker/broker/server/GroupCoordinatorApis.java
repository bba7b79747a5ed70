package io.minibroker.broker.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.group.ClusterOffsetsTopicLeaders;
import io.minibroker.broker.group.ConsumerGroupTimings;
import io.minibroker.broker.group.CoordinatorLocator;
import io.minibroker.broker.group.GroupApis;
import io.minibroker.broker.group.GroupCoordinator;
import io.minibroker.broker.group.StreamsGroupSettings;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicAutoCreation;
import io.minibroker.broker.topic.TopicDeletionListener;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.CoordinatorOffsetsCheck;
import io.minibroker.broker.transaction.TransactionStateTopic;
import io.minibroker.purgatory.Purgatory;

/**
 * The group coordinator as a broker wires it, in either mode: made, told of the partitions it keeps, its APIs (and
 * FindCoordinator, for groups and transactions) in the table, told of transaction markers, and its meters bound. The
 * broker holds and closes it: the share groups ask it too.
 */
final class GroupCoordinatorApis {

    private GroupCoordinatorApis() {
    }

    /**
     * The coordinator of this broker's groups: a single node's keeps every partition of {@code __consumer_offsets};
     * a cluster's those this broker leads, as the replica manager tells it (and the transaction coordinator those of
     * {@code __transaction_state}). It hears of every deleted topic, and so does {@code shareState}: from the
     * registry on a single node, from the images in a cluster.
     *
     * @param cluster a cluster broker's link to the controller; null on a single node
     * @param groupConfigs the group configs: a single node's own, a cluster broker's mirror of the controller's
     * @param shareState the share coordinator, which deletes a deleted topic's share state
     */
    static GroupCoordinator open(BrokerConfig config, BrokerClock clock, TopicRegistry topics, ClusterLink cluster,
                                 Purgatory<DelayedProduce> producePurgatory, Purgatory<DelayedFetch> fetchPurgatory,
                                 GroupConfigs groupConfigs, TransactionApis transactions,
                                 TopicDeletionListener shareState) {
        // In a cluster, groups belong to the leaders of __consumer_offsets' partitions, which the controller creates.
        GroupCoordinator coordinator = cluster == null
                ? new GroupCoordinator(config, topics, clock, groupConfigs, ConsumerGroupTimings.of(groupConfigs))
                : GroupCoordinator.inCluster(config, topics, cluster.replicas(), cluster.replicas()::image,
                        producePurgatory, fetchPurgatory, clock, groupConfigs, ConsumerGroupTimings.of(groupConfigs));
        coordinator.readStreamsGroupSettingsFrom(StreamsGroupSettings.of(groupConfigs));
        if (cluster != null) {
            cluster.replicas().setLeadershipListener(
                    new CoordinatorLeadership(coordinator, transactions.coordinator()));
            cluster.replicas().setTopicDeletionListener(coordinator.andThen(shareState));
        } else {
            topics.tellDeletionsTo(coordinator.andThen(shareState));
        }
        return coordinator;
    }

    /**
     * The groups' APIs and FindCoordinator (for groups and transactions) in the table; then, on a single node, the
     * transactions loaded; the coordinator told of transaction markers, and its meters bound.
     *
     * @param autoCreation how FindCoordinator creates {@code __consumer_offsets}, {@code __transaction_state} and
     *                     {@code __share_group_state}
     */
    static void register(SupportedApis apis, BrokerConfig config, GroupCoordinator coordinator, ClusterLink cluster,
                         LocalNode node,
                         TopicRegistry topics, TopicAutoCreation autoCreation, TransactionApis transactions,
                         MeterRegistry registry) {
        CoordinatorLocator.OffsetsTopicLeaders groupLeaders = cluster != null
                ? new ClusterOffsetsTopicLeaders(cluster.metadata()::current)
                : CoordinatorLocator.singleNode(node, topics);
        CoordinatorLocator.OffsetsTopicLeaders transactionLeaders = cluster != null
                ? new ClusterOffsetsTopicLeaders(cluster.metadata()::current, TransactionStateTopic.NAME)
                : CoordinatorLocator.singleNode(node, topics, TransactionStateTopic.NAME);
        CoordinatorLocator.OffsetsTopicLeaders shareStateLeaders = cluster != null
                ? new ClusterOffsetsTopicLeaders(cluster.metadata()::current, InternalTopics.SHARE_GROUP_STATE)
                : CoordinatorLocator.singleNode(node, topics, InternalTopics.SHARE_GROUP_STATE);
        GroupApis.register(apis, config, coordinator, new CoordinatorLocator.ByKeyType(
                        CoordinatorLocator.forGroups(groupLeaders, autoCreation),
                        CoordinatorLocator.forTransactions(transactionLeaders, autoCreation),
                        CoordinatorLocator.forShareStates(shareStateLeaders, autoCreation)),
                topics, new CoordinatorOffsetsCheck(transactions.produceCheck()));
        if (cluster == null) {
            transactions.coordinator().loadAll();
        }
        transactions.markerAppender().addCompletionListener(coordinator);
        coordinator.bindMetersTo(registry);
    }
}
