package io.minibroker.broker.authz;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeResponseView;
import io.minibroker.protocol.message.view.DescribeClusterRequestView;
import io.minibroker.protocol.message.view.DescribeClusterResponseView;
import io.minibroker.protocol.message.view.DescribeGroupsRequestView;
import io.minibroker.protocol.message.view.DescribeGroupsResponseView;
import io.minibroker.protocol.message.view.DescribeTopicPartitionsResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.message.view.ShareGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ShareGroupDescribeResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * The authorized-operations fields of Metadata (v8+), DescribeCluster, DescribeGroups (v3+), ConsumerGroupDescribe
 * and ShareGroupDescribe, where a request asks for them, and DescribeTopicPartitions' always: a bit (at the
 * operation's code) for each operation Kafka supports on the resource type that the principal may perform. With an authorizer {@link Access} answers which; with
 * none every supported operation is allowed, as Kafka's AuthHelper.authorizedOperations answers then.
 */
public final class AuthorizedOperations {

    private static final short METADATA_FROM_VERSION = 8;
    private static final short METADATA_CLUSTER_UNTIL_VERSION = 10;
    private static final short DESCRIBE_GROUPS_FROM_VERSION = 3;
    private static final Set<ApiKey> ANSWERED = EnumSet.of(ApiKey.METADATA, ApiKey.DESCRIBE_CLUSTER,
            ApiKey.DESCRIBE_GROUPS, ApiKey.CONSUMER_GROUP_DESCRIBE, ApiKey.SHARE_GROUP_DESCRIBE,
            ApiKey.DESCRIBE_TOPIC_PARTITIONS);

    /** The operations Kafka's AclEntry.supportedOperations names per resource type. */
    static final Map<ResourceType, List<AclOperation>> SUPPORTED = Map.of(
            ResourceType.TOPIC, List.of(AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE,
                    AclOperation.DESCRIBE, AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS,
                    AclOperation.ALTER_CONFIGS),
            ResourceType.GROUP, List.of(AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE,
                    AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS),
            ResourceType.CLUSTER, List.of(AclOperation.CREATE, AclOperation.CLUSTER_ACTION,
                    AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE,
                    AclOperation.ALTER, AclOperation.DESCRIBE));

    /** Who may do what with a resource, as the bits of the operations field. */
    @FunctionalInterface
    interface Source {
        int of(ResourceType type, String name);
    }

    /** Every supported operation: a broker without an authorizer. */
    private static final Source ALL = (type, name) -> supported(type);

    private AuthorizedOperations() {
    }

    /**
     * {@code handler} itself, or for the APIs with an authorized-operations field a handler that fills it with every
     * supported operation: for a broker without an authorizer.
     */
    public static ApiHandler withoutAuthorizer(ApiKey api, ApiHandler handler) {
        if (!ANSWERED.contains(api)) {
            return handler;
        }
        return (context, request) -> handler.handle(context, request).thenApply(answer -> {
            fill(request, answer, ALL, () -> supported(ResourceType.CLUSTER));
            return answer;
        });
    }

    /** The bits of every operation Kafka supports on each resource type, worked out once. */
    private static final Map<ResourceType, Integer> SUPPORTED_BITS = supportedBits();

    private static Map<ResourceType, Integer> supportedBits() {
        Map<ResourceType, Integer> bits = new EnumMap<>(ResourceType.class);
        SUPPORTED.forEach((type, operations) -> {
            int mask = 0;
            for (AclOperation operation : operations) {
                mask |= 1 << operation.code();
            }
            bits.put(type, mask);
        });
        return bits;
    }

    /** The bits of every operation Kafka supports on the resource type. */
    static int supported(ResourceType type) {
        return SUPPORTED_BITS.get(type);
    }

    /**
     * Fills the fields the request asks for in its answer: each group answered without an error, and each topic
     * looked up (not refused, not an unknown id), gets {@code operations}' bits, the cluster {@code cluster}'s (asked
     * only when needed).
     */
    static void fill(Request request, Struct answer, Source operations, IntSupplier cluster) {
        switch (request.api()) {
            case METADATA -> metadata(request, answer, operations, cluster);
            // Always, whatever the request: Kafka's handler has no field to ask with. Not for the topics refused
            // (TOPIC_AUTHORIZATION_FAILED, or every topic of a request refused INVALID_REQUEST).
            case DESCRIBE_TOPIC_PARTITIONS -> new DescribeTopicPartitionsResponseView(answer).topics().stream()
                    .filter(t -> t.errorCode() != Errors.TOPIC_AUTHORIZATION_FAILED.code()
                            && t.errorCode() != Errors.INVALID_REQUEST.code())
                    .forEach(t -> t.topicAuthorizedOperations(operations.of(ResourceType.TOPIC, t.name())));
            case DESCRIBE_CLUSTER -> {
                DescribeClusterResponseView response = new DescribeClusterResponseView(answer);
                if (new DescribeClusterRequestView(request.body()).includeClusterAuthorizedOperations()
                        && response.errorCode() == Errors.NONE.code()) {
                    response.clusterAuthorizedOperations(cluster.getAsInt());
                }
            }
            case DESCRIBE_GROUPS -> {
                if (request.version() >= DESCRIBE_GROUPS_FROM_VERSION
                        && new DescribeGroupsRequestView(request.body()).includeAuthorizedOperations()) {
                    new DescribeGroupsResponseView(answer).groups().stream()
                            .filter(g -> g.errorCode() == Errors.NONE.code())
                            .forEach(g -> g.authorizedOperations(operations.of(ResourceType.GROUP, g.groupId())));
                }
            }
            case CONSUMER_GROUP_DESCRIBE -> {
                if (new ConsumerGroupDescribeRequestView(request.body()).includeAuthorizedOperations()) {
                    new ConsumerGroupDescribeResponseView(answer).groups().stream()
                            .filter(g -> g.errorCode() == Errors.NONE.code())
                            .forEach(g -> g.authorizedOperations(operations.of(ResourceType.GROUP, g.groupId())));
                }
            }
            case SHARE_GROUP_DESCRIBE -> {
                if (new ShareGroupDescribeRequestView(request.body()).includeAuthorizedOperations()) {
                    new ShareGroupDescribeResponseView(answer).groups().stream()
                            .filter(g -> g.errorCode() == Errors.NONE.code())
                            .forEach(g -> g.authorizedOperations(operations.of(ResourceType.GROUP, g.groupId())));
                }
            }
            default -> {
            }
        }
    }

    /** Each answered topic's operations, and the cluster's (v8 to v10). */
    private static void metadata(Request request, Struct answer, Source operations, IntSupplier cluster) {
        if (request.version() < METADATA_FROM_VERSION) {
            return;
        }
        MetadataRequestView body = new MetadataRequestView(request.body());
        MetadataResponseView response = new MetadataResponseView(answer);
        if (request.version() <= METADATA_CLUSTER_UNTIL_VERSION && body.includeClusterAuthorizedOperations()) {
            response.clusterAuthorizedOperations(cluster.getAsInt());
        }
        if (body.includeTopicAuthorizedOperations()) {
            // Kafka's KafkaApis fills in every topic it looked up, whatever its error (LEADER_NOT_AVAILABLE,
            // UNKNOWN_TOPIC_OR_PARTITION, INVALID_TOPIC_EXCEPTION), but not the refused ones or the unknown ids.
            response.topics().stream().filter(t -> t.name() != null
                            && t.errorCode() != Errors.TOPIC_AUTHORIZATION_FAILED.code()
                            && t.errorCode() != Errors.UNKNOWN_TOPIC_ID.code())
                    .forEach(t -> t.topicAuthorizedOperations(operations.of(ResourceType.TOPIC, t.name())));
        }
    }
}
