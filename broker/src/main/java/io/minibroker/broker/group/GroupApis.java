package io.minibroker.broker.group;

import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.TransactionalOffsetsCheck;
import io.minibroker.protocol.message.ApiKey;

/**
 * Registers the group and offset APIs (classic groups; KIP-848 consumer groups and KIP-1071 streams groups as
 * {@code group.coordinator.rebalance.protocols} names them; KIP-932 share groups' membership, and TxnOffsetCommit,
 * the group side of transactions), all served by one coordinator; FindCoordinator answers from the locators (one
 * per key type: groups, transactional ids, share partitions), and offset requests check their topics against
 * {@code topics}.
 */
public final class GroupApis {

    private GroupApis() {
    }

    /** TxnOffsetCommit asks {@code offsetsCheck} of the transaction coordinator before it writes. */
    public static SupportedApis register(SupportedApis apis, BrokerConfig config, GroupCoordinator coordinator,
                                         CoordinatorLocator.ByKeyType locators,
                                         TopicRegistry topics, TransactionalOffsetsCheck offsetsCheck) {
        if (config.groupProtocolEnabled("consumer")) {
            apis.add(ApiKey.CONSUMER_GROUP_HEARTBEAT, new ConsumerGroupHeartbeatHandler(coordinator))
                    .add(ApiKey.CONSUMER_GROUP_DESCRIBE, new ConsumerGroupDescribeHandler(coordinator, topics));
        }
        if (config.groupProtocolEnabled("streams")) {
            // v0 only, as Kafka 4.3.1 advertises them.
            apis.add(ApiKey.STREAMS_GROUP_HEARTBEAT, (short) 0, (short) 0, new StreamsGroupHeartbeatHandler(coordinator))
                    .add(ApiKey.STREAMS_GROUP_DESCRIBE, (short) 0, (short) 0, new StreamsGroupDescribeHandler(coordinator));
        }
        return apis.add(ApiKey.FIND_COORDINATOR, new FindCoordinatorHandler(locators))
                .add(ApiKey.JOIN_GROUP, new JoinGroupHandler(coordinator))
                .add(ApiKey.SYNC_GROUP, new SyncGroupHandler(coordinator))
                .add(ApiKey.HEARTBEAT, new HeartbeatHandler(coordinator))
                .add(ApiKey.LEAVE_GROUP, new LeaveGroupHandler(coordinator))
                .add(ApiKey.OFFSET_COMMIT, new OffsetCommitHandler(coordinator, topics))
                .add(ApiKey.OFFSET_FETCH, new OffsetFetchHandler(coordinator, topics))
                .add(ApiKey.LIST_GROUPS, new ListGroupsHandler(coordinator))
                .add(ApiKey.DESCRIBE_GROUPS, new DescribeGroupsHandler(coordinator))
                .add(ApiKey.DELETE_GROUPS, new DeleteGroupsHandler(coordinator))
                .add(ApiKey.OFFSET_DELETE, new OffsetDeleteHandler(coordinator, topics))
                .add(ApiKey.TXN_OFFSET_COMMIT, new TxnOffsetCommitHandler(coordinator, topics, offsetsCheck))
                .add(ApiKey.SHARE_GROUP_HEARTBEAT, new ShareGroupHeartbeatHandler(coordinator))
                .add(ApiKey.SHARE_GROUP_DESCRIBE, new ShareGroupDescribeHandler(coordinator, topics));
    }
}
