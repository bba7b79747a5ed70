// Its constants are written by protocol/tools/transcribe_schemas.py (see protocol/README.md to regenerate); the rest by hand.
package io.minibroker.protocol.message;

import io.minibroker.protocol.schema.MessageSchema;

/**
 * The APIs this module can decode and encode, by their wire key, with the request and response schema of
 * each. The supported version range of an API is that of its request schema.
 */
public enum ApiKey {
    PRODUCE(0, ProduceMessages.REQUEST, ProduceMessages.RESPONSE),
    FETCH(1, FetchMessages.REQUEST, FetchMessages.RESPONSE),
    LIST_OFFSETS(2, ListOffsetsMessages.REQUEST, ListOffsetsMessages.RESPONSE),
    METADATA(3, MetadataMessages.REQUEST, MetadataMessages.RESPONSE),
    OFFSET_COMMIT(8, OffsetCommitMessages.REQUEST, OffsetCommitMessages.RESPONSE),
    OFFSET_FETCH(9, OffsetFetchMessages.REQUEST, OffsetFetchMessages.RESPONSE),
    FIND_COORDINATOR(10, FindCoordinatorMessages.REQUEST, FindCoordinatorMessages.RESPONSE),
    JOIN_GROUP(11, JoinGroupMessages.REQUEST, JoinGroupMessages.RESPONSE),
    HEARTBEAT(12, HeartbeatMessages.REQUEST, HeartbeatMessages.RESPONSE),
    LEAVE_GROUP(13, LeaveGroupMessages.REQUEST, LeaveGroupMessages.RESPONSE),
    SYNC_GROUP(14, SyncGroupMessages.REQUEST, SyncGroupMessages.RESPONSE),
    DESCRIBE_GROUPS(15, DescribeGroupsMessages.REQUEST, DescribeGroupsMessages.RESPONSE),
    LIST_GROUPS(16, ListGroupsMessages.REQUEST, ListGroupsMessages.RESPONSE),
    SASL_HANDSHAKE(17, SaslHandshakeMessages.REQUEST, SaslHandshakeMessages.RESPONSE),
    API_VERSIONS(18, ApiVersionsMessages.REQUEST, ApiVersionsMessages.RESPONSE),
    CREATE_TOPICS(19, CreateTopicsMessages.REQUEST, CreateTopicsMessages.RESPONSE),
    DELETE_TOPICS(20, DeleteTopicsMessages.REQUEST, DeleteTopicsMessages.RESPONSE),
    DELETE_RECORDS(21, DeleteRecordsMessages.REQUEST, DeleteRecordsMessages.RESPONSE),
    INIT_PRODUCER_ID(22, InitProducerIdMessages.REQUEST, InitProducerIdMessages.RESPONSE, true),
    OFFSET_FOR_LEADER_EPOCH(23, OffsetForLeaderEpochMessages.REQUEST, OffsetForLeaderEpochMessages.RESPONSE),
    ADD_PARTITIONS_TO_TXN(24, AddPartitionsToTxnMessages.REQUEST, AddPartitionsToTxnMessages.RESPONSE),
    ADD_OFFSETS_TO_TXN(25, AddOffsetsToTxnMessages.REQUEST, AddOffsetsToTxnMessages.RESPONSE),
    END_TXN(26, EndTxnMessages.REQUEST, EndTxnMessages.RESPONSE),
    WRITE_TXN_MARKERS(27, WriteTxnMarkersMessages.REQUEST, WriteTxnMarkersMessages.RESPONSE),
    TXN_OFFSET_COMMIT(28, TxnOffsetCommitMessages.REQUEST, TxnOffsetCommitMessages.RESPONSE),
    DESCRIBE_ACLS(29, DescribeAclsMessages.REQUEST, DescribeAclsMessages.RESPONSE),
    CREATE_ACLS(30, CreateAclsMessages.REQUEST, CreateAclsMessages.RESPONSE),
    DELETE_ACLS(31, DeleteAclsMessages.REQUEST, DeleteAclsMessages.RESPONSE),
    DESCRIBE_CONFIGS(32, DescribeConfigsMessages.REQUEST, DescribeConfigsMessages.RESPONSE),
    ALTER_CONFIGS(33, AlterConfigsMessages.REQUEST, AlterConfigsMessages.RESPONSE),
    ALTER_REPLICA_LOG_DIRS(34, AlterReplicaLogDirsMessages.REQUEST, AlterReplicaLogDirsMessages.RESPONSE),
    DESCRIBE_LOG_DIRS(35, DescribeLogDirsMessages.REQUEST, DescribeLogDirsMessages.RESPONSE),
    SASL_AUTHENTICATE(36, SaslAuthenticateMessages.REQUEST, SaslAuthenticateMessages.RESPONSE),
    CREATE_PARTITIONS(37, CreatePartitionsMessages.REQUEST, CreatePartitionsMessages.RESPONSE),
    CREATE_DELEGATION_TOKEN(38, CreateDelegationTokenMessages.REQUEST, CreateDelegationTokenMessages.RESPONSE),
    RENEW_DELEGATION_TOKEN(39, RenewDelegationTokenMessages.REQUEST, RenewDelegationTokenMessages.RESPONSE),
    EXPIRE_DELEGATION_TOKEN(40, ExpireDelegationTokenMessages.REQUEST, ExpireDelegationTokenMessages.RESPONSE),
    DESCRIBE_DELEGATION_TOKEN(41, DescribeDelegationTokenMessages.REQUEST, DescribeDelegationTokenMessages.RESPONSE),
    DELETE_GROUPS(42, DeleteGroupsMessages.REQUEST, DeleteGroupsMessages.RESPONSE),
    ELECT_LEADERS(43, ElectLeadersMessages.REQUEST, ElectLeadersMessages.RESPONSE),
    INCREMENTAL_ALTER_CONFIGS(44, IncrementalAlterConfigsMessages.REQUEST, IncrementalAlterConfigsMessages.RESPONSE),
    ALTER_PARTITION_REASSIGNMENTS(45, AlterPartitionReassignmentsMessages.REQUEST, AlterPartitionReassignmentsMessages.RESPONSE),
    LIST_PARTITION_REASSIGNMENTS(46, ListPartitionReassignmentsMessages.REQUEST, ListPartitionReassignmentsMessages.RESPONSE),
    OFFSET_DELETE(47, OffsetDeleteMessages.REQUEST, OffsetDeleteMessages.RESPONSE),
    DESCRIBE_CLIENT_QUOTAS(48, DescribeClientQuotasMessages.REQUEST, DescribeClientQuotasMessages.RESPONSE),
    ALTER_CLIENT_QUOTAS(49, AlterClientQuotasMessages.REQUEST, AlterClientQuotasMessages.RESPONSE),
    DESCRIBE_USER_SCRAM_CREDENTIALS(50, DescribeUserScramCredentialsMessages.REQUEST, DescribeUserScramCredentialsMessages.RESPONSE),
    ALTER_USER_SCRAM_CREDENTIALS(51, AlterUserScramCredentialsMessages.REQUEST, AlterUserScramCredentialsMessages.RESPONSE),
    DESCRIBE_QUORUM(55, DescribeQuorumMessages.REQUEST, DescribeQuorumMessages.RESPONSE),
    ALTER_PARTITION(56, AlterPartitionMessages.REQUEST, AlterPartitionMessages.RESPONSE),
    UPDATE_FEATURES(57, UpdateFeaturesMessages.REQUEST, UpdateFeaturesMessages.RESPONSE),
    ENVELOPE(58, EnvelopeMessages.REQUEST, EnvelopeMessages.RESPONSE),
    DESCRIBE_CLUSTER(60, DescribeClusterMessages.REQUEST, DescribeClusterMessages.RESPONSE),
    DESCRIBE_PRODUCERS(61, DescribeProducersMessages.REQUEST, DescribeProducersMessages.RESPONSE),
    BROKER_REGISTRATION(62, BrokerRegistrationMessages.REQUEST, BrokerRegistrationMessages.RESPONSE),
    BROKER_HEARTBEAT(63, BrokerHeartbeatMessages.REQUEST, BrokerHeartbeatMessages.RESPONSE),
    UNREGISTER_BROKER(64, UnregisterBrokerMessages.REQUEST, UnregisterBrokerMessages.RESPONSE),
    DESCRIBE_TRANSACTIONS(65, DescribeTransactionsMessages.REQUEST, DescribeTransactionsMessages.RESPONSE),
    LIST_TRANSACTIONS(66, ListTransactionsMessages.REQUEST, ListTransactionsMessages.RESPONSE),
    CONSUMER_GROUP_HEARTBEAT(68, ConsumerGroupHeartbeatMessages.REQUEST, ConsumerGroupHeartbeatMessages.RESPONSE),
    CONSUMER_GROUP_DESCRIBE(69, ConsumerGroupDescribeMessages.REQUEST, ConsumerGroupDescribeMessages.RESPONSE),
    LIST_CONFIG_RESOURCES(74, ListConfigResourcesMessages.REQUEST, ListConfigResourcesMessages.RESPONSE),
    DESCRIBE_TOPIC_PARTITIONS(75, DescribeTopicPartitionsMessages.REQUEST, DescribeTopicPartitionsMessages.RESPONSE),
    SHARE_GROUP_HEARTBEAT(76, ShareGroupHeartbeatMessages.REQUEST, ShareGroupHeartbeatMessages.RESPONSE),
    SHARE_GROUP_DESCRIBE(77, ShareGroupDescribeMessages.REQUEST, ShareGroupDescribeMessages.RESPONSE),
    SHARE_FETCH(78, ShareFetchMessages.REQUEST, ShareFetchMessages.RESPONSE),
    SHARE_ACKNOWLEDGE(79, ShareAcknowledgeMessages.REQUEST, ShareAcknowledgeMessages.RESPONSE),
    ADD_RAFT_VOTER(80, AddRaftVoterMessages.REQUEST, AddRaftVoterMessages.RESPONSE),
    REMOVE_RAFT_VOTER(81, RemoveRaftVoterMessages.REQUEST, RemoveRaftVoterMessages.RESPONSE),
    INITIALIZE_SHARE_GROUP_STATE(83, InitializeShareGroupStateMessages.REQUEST, InitializeShareGroupStateMessages.RESPONSE),
    READ_SHARE_GROUP_STATE(84, ReadShareGroupStateMessages.REQUEST, ReadShareGroupStateMessages.RESPONSE),
    WRITE_SHARE_GROUP_STATE(85, WriteShareGroupStateMessages.REQUEST, WriteShareGroupStateMessages.RESPONSE),
    DELETE_SHARE_GROUP_STATE(86, DeleteShareGroupStateMessages.REQUEST, DeleteShareGroupStateMessages.RESPONSE),
    READ_SHARE_GROUP_STATE_SUMMARY(87, ReadShareGroupStateSummaryMessages.REQUEST, ReadShareGroupStateSummaryMessages.RESPONSE),
    STREAMS_GROUP_HEARTBEAT(88, StreamsGroupHeartbeatMessages.REQUEST, StreamsGroupHeartbeatMessages.RESPONSE),
    STREAMS_GROUP_DESCRIBE(89, StreamsGroupDescribeMessages.REQUEST, StreamsGroupDescribeMessages.RESPONSE),
    DESCRIBE_SHARE_GROUP_OFFSETS(90, DescribeShareGroupOffsetsMessages.REQUEST, DescribeShareGroupOffsetsMessages.RESPONSE),
    ALTER_SHARE_GROUP_OFFSETS(91, AlterShareGroupOffsetsMessages.REQUEST, AlterShareGroupOffsetsMessages.RESPONSE),
    DELETE_SHARE_GROUP_OFFSETS(92, DeleteShareGroupOffsetsMessages.REQUEST, DeleteShareGroupOffsetsMessages.RESPONSE);

    private static final ApiKey[] BY_ID = indexById();

    private final short id;
    private final MessageSchema request;
    private final MessageSchema response;
    private final boolean latestVersionUnstable;

    ApiKey(int id, MessageSchema request, MessageSchema response) {
        this(id, request, response, false);
    }

    ApiKey(int id, MessageSchema request, MessageSchema response, boolean latestVersionUnstable) {
        this.id = (short) id;
        this.request = request;
        this.response = response;
        this.latestVersionUnstable = latestVersionUnstable;
    }

    public short id() {
        return id;
    }

    public MessageSchema request() {
        return request;
    }

    public MessageSchema response() {
        return response;
    }

    public short lowestVersion() {
        return request.lowestVersion();
    }

    public short highestVersion() {
        return request.highestVersion();
    }

    /**
     * The highest version to advertise. Kafka marks the newest version of some APIs unstable (still
     * changing); it decodes them but advertises them only when told to, and so should a broker.
     */
    public short highestStableVersion() {
        return latestVersionUnstable ? (short) (highestVersion() - 1) : highestVersion();
    }

    public boolean supports(short version) {
        return request.supports(version);
    }

    /** The API for a wire key, or null when this module does not know it. */
    public static ApiKey forId(short id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    private static ApiKey[] indexById() {
        int max = 0;
        for (ApiKey key : values()) {
            max = Math.max(max, key.id);
        }
        ApiKey[] byId = new ApiKey[max + 1];
        for (ApiKey key : values()) {
            byId[key.id] = key;
        }
        return byId;
    }
}
