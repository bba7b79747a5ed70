package io.minibroker.broker.authz;

import io.minibroker.broker.admin.BrokerConfigChanges;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.CloseConnection;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The authorization step in front of every API's handler: each API checks what Kafka's request handlers check, by
 * family in {@link TopicApiChecks}, {@link GroupApiChecks}, {@link ShareGroupApiChecks}, {@link OffsetFetchCheck},
 * {@link TransactionApiChecks} and {@link AdminApiChecks} (docs/acls.md has the table). The APIs Kafka serves without
 * authorization (ApiVersions, the SASL steps) pass; the ACL APIs and the delegation token APIs check for themselves.
 * An API added to the table without a check here is served to super users only (and closes anyone else's
 * connection) rather than less securely than configured.
 */
public final class AuthorizingHandler implements ApiHandler {

    private static final Set<ApiKey> UNCHECKED = EnumSet.of(ApiKey.API_VERSIONS, ApiKey.SASL_HANDSHAKE,
            ApiKey.SASL_AUTHENTICATE, ApiKey.DESCRIBE_ACLS, ApiKey.CREATE_ACLS, ApiKey.DELETE_ACLS,
            ApiKey.CREATE_DELEGATION_TOKEN, ApiKey.RENEW_DELEGATION_TOKEN, ApiKey.EXPIRE_DELEGATION_TOKEN,
            ApiKey.DESCRIBE_DELEGATION_TOKEN);

    /** One API's check: serves the request through {@link Access} as far as the principal may have it served. */
    @FunctionalInterface
    interface ApiCheck {
        CompletionStage<Struct> check(Access access);
    }

    private final Authorizer authorizer;
    private final ApiHandler handler;
    private final ApiCheck check;

    private AuthorizingHandler(Authorizer authorizer, ApiHandler handler, ApiCheck check) {
        this.authorizer = authorizer;
        this.handler = handler;
        this.check = check;
    }

    /**
     * The handler to register for {@code api}: {@code handler} itself where no authorization is needed.
     * {@code brokerConfigs} are this broker's, whose preprocessing of a BROKER resource comes before its ACLs.
     */
    public static ApiHandler wrap(ApiKey api, ApiHandler handler, Authorizer authorizer, TopicFacts topics,
                                  BrokerConfigChanges brokerConfigs) {
        if (UNCHECKED.contains(api)) {
            return handler;
        }
        return new AuthorizingHandler(authorizer, handler, checkFor(api, topics, brokerConfigs));
    }

    /**
     * The handler to register for {@code api} on the controller's listener: as {@link #wrap}, except for what the
     * brokers follow the controller's image with. A Fetch (there, of the cluster's metadata, ACLs and SCRAM
     * credentials among them) needs CLUSTER_ACTION on the cluster whoever sends it and whatever it names, as Kafka's
     * ControllerApis checks it; so does Metadata, which Kafka's controller does not serve at all and which here
     * carries the image's topics, and a node's principal gets DescribeConfigs unfiltered. Filtered by the topics
     * that principal may describe, a topic would drop out of the brokers' image, and its logs with it, as Kafka's
     * brokers, reading the metadata log, never see. {@code topics} are the controller's, which the checks of the
     * requests brokers forward for their clients look up as the brokers' checks do; {@code brokerConfigs} are the
     * controller's, which refuse no broker change before its ACLs (the brokers preprocessed them).
     */
    public static ApiHandler wrapOnController(ApiKey api, ApiHandler handler, Authorizer authorizer,
                                              TopicFacts topics, BrokerConfigChanges brokerConfigs) {
        if (api == ApiKey.FETCH || api == ApiKey.METADATA) {
            return new AuthorizingHandler(authorizer, handler,
                    access -> AdminApiChecks.onCluster(access, AclOperation.CLUSTER_ACTION));
        }
        if (api == ApiKey.DESCRIBE_CONFIGS) {
            ApiCheck resources = checkFor(api, topics, brokerConfigs);
            return new AuthorizingHandler(authorizer, handler, access ->
                    access.allowedOnCluster(AclOperation.CLUSTER_ACTION) ? access.serve() : resources.check(access));
        }
        return wrap(api, handler, authorizer, topics, brokerConfigs);
    }

    private static ApiCheck checkFor(ApiKey api, TopicFacts facts, BrokerConfigChanges brokerConfigs) {
        TopicApiChecks topics = new TopicApiChecks(facts);
        GroupApiChecks groups = new GroupApiChecks(facts);
        TransactionApiChecks transactions = new TransactionApiChecks(facts);
        AdminApiChecks admin = new AdminApiChecks(facts, brokerConfigs);
        ShareGroupApiChecks shares = new ShareGroupApiChecks(facts);
        return switch (api) {
            case PRODUCE -> topics::produce;
            case FETCH -> topics::fetch;
            case LIST_OFFSETS -> topics::listOffsets;
            case METADATA -> topics::metadata;
            case DESCRIBE_TOPIC_PARTITIONS -> TopicApiChecks::describeTopicPartitions;
            case OFFSET_FOR_LEADER_EPOCH -> topics::offsetForLeaderEpoch;
            case DELETE_RECORDS -> topics::deleteRecords;
            case DESCRIBE_PRODUCERS -> topics::describeProducers;
            case FIND_COORDINATOR -> groups::findCoordinator;
            case JOIN_GROUP, SYNC_GROUP, HEARTBEAT, LEAVE_GROUP -> groups::membership;
            case OFFSET_COMMIT -> groups::offsetCommit;
            case OFFSET_FETCH -> new OffsetFetchCheck(facts)::check;
            case OFFSET_DELETE -> groups::offsetDelete;
            case DESCRIBE_GROUPS -> groups::describeGroups;
            case LIST_GROUPS -> groups::listGroups;
            case DELETE_GROUPS -> groups::deleteGroups;
            case CONSUMER_GROUP_HEARTBEAT -> groups::consumerGroupHeartbeat;
            case CONSUMER_GROUP_DESCRIBE -> groups::consumerGroupDescribe;
            case STREAMS_GROUP_HEARTBEAT -> groups::streamsGroupHeartbeat;
            case STREAMS_GROUP_DESCRIBE -> groups::streamsGroupDescribe;
            case SHARE_GROUP_HEARTBEAT -> shares::heartbeat;
            case SHARE_GROUP_DESCRIBE -> shares::describe;
            case SHARE_FETCH -> shares::shareFetch;
            case SHARE_ACKNOWLEDGE -> shares::shareAcknowledge;
            case DESCRIBE_SHARE_GROUP_OFFSETS -> shares::describeOffsets;
            case ALTER_SHARE_GROUP_OFFSETS -> shares::alterOffsets;
            case DELETE_SHARE_GROUP_OFFSETS -> shares::deleteOffsets;
            case INIT_PRODUCER_ID -> transactions::initProducerId;
            case ADD_PARTITIONS_TO_TXN -> transactions::addPartitionsToTxn;
            case ADD_OFFSETS_TO_TXN -> transactions::addOffsetsToTxn;
            case END_TXN -> transactions::endTxn;
            case TXN_OFFSET_COMMIT -> transactions::txnOffsetCommit;
            case DESCRIBE_TRANSACTIONS -> transactions::describeTransactions;
            case LIST_TRANSACTIONS -> transactions::listTransactions;
            case WRITE_TXN_MARKERS -> transactions::writeTxnMarkers;
            case CREATE_TOPICS -> admin::createTopics;
            case DELETE_TOPICS -> admin::deleteTopics;
            case CREATE_PARTITIONS -> admin::createPartitions;
            case DESCRIBE_CONFIGS -> admin::describeConfigs;
            case ALTER_CONFIGS -> admin::alterConfigs;
            case INCREMENTAL_ALTER_CONFIGS -> admin::incrementalAlterConfigs;
            case DESCRIBE_LOG_DIRS -> admin::describeLogDirs;
            case ALTER_REPLICA_LOG_DIRS -> AdminApiChecks::alterReplicaLogDirs;
            case ELECT_LEADERS -> admin::electLeaders;
            case ALTER_PARTITION_REASSIGNMENTS -> admin::alterPartitionReassignments;
            case LIST_PARTITION_REASSIGNMENTS -> admin::listPartitionReassignments;
            case ALTER_USER_SCRAM_CREDENTIALS -> admin::alterUserScramCredentials;
            case DESCRIBE_USER_SCRAM_CREDENTIALS -> AdminApiChecks::describeUserScramCredentials;
            case DESCRIBE_CLUSTER -> admin::describeCluster;
            case DESCRIBE_CLIENT_QUOTAS, LIST_CONFIG_RESOURCES ->
                    access -> AdminApiChecks.onCluster(access, AclOperation.DESCRIBE_CONFIGS);
            case ALTER_CLIENT_QUOTAS -> AdminApiChecks::alterClientQuotas;
            case UPDATE_FEATURES, UNREGISTER_BROKER -> access -> AdminApiChecks.onCluster(access, AclOperation.ALTER);
            case DESCRIBE_QUORUM -> access -> AdminApiChecks.onCluster(access, AclOperation.DESCRIBE);
            case ADD_RAFT_VOTER, REMOVE_RAFT_VOTER -> AdminApiChecks::raftVoterChange;
            case ALTER_PARTITION, BROKER_REGISTRATION, BROKER_HEARTBEAT, ENVELOPE ->
                    access -> AdminApiChecks.onCluster(access, AclOperation.CLUSTER_ACTION);
            case READ_SHARE_GROUP_STATE -> ShareStateApiChecks::read;
            case WRITE_SHARE_GROUP_STATE -> ShareStateApiChecks::write;
            case DELETE_SHARE_GROUP_STATE -> ShareStateApiChecks::delete;
            case INITIALIZE_SHARE_GROUP_STATE -> ShareStateApiChecks::initialize;
            case READ_SHARE_GROUP_STATE_SUMMARY -> ShareStateApiChecks::readSummary;
            default -> null;
        };
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Access access = new Access(authorizer, context, request, handler);
        if (check == null) {
            if (!authorizer.isSuperUser(context.principal())) {
                throw new CloseConnection(request.api() + " is served to super users only while ACLs are on");
            }
            return access.serve();
        }
        return check.check(access);
    }
}
