package io.minibroker.protocol.error;

/**
 * Kafka's default messages of its errors (the text its {@code Errors} carries for each code), for answers whose
 * message field Kafka fills with it. Only the errors an answer of ours carries that way are here; any other gets
 * Kafka's UNKNOWN_SERVER_ERROR text.
 */
public final class DefaultMessages {

    private DefaultMessages() {
    }

    /** Kafka's default message of {@code error}. */
    public static String of(Errors error) {
        return switch (error) {
            case NOT_COORDINATOR -> "This is not the correct coordinator.";
            case COORDINATOR_NOT_AVAILABLE -> "The coordinator is not available.";
            case COORDINATOR_LOAD_IN_PROGRESS -> "The coordinator is loading and hence can't process requests.";
            case UNKNOWN_TOPIC_OR_PARTITION -> "This server does not host this topic-partition.";
            case UNKNOWN_TOPIC_ID -> "This server does not host this topic ID.";
            case NOT_LEADER_OR_FOLLOWER -> "For requests intended only for the leader, this error indicates that the"
                    + " broker is not the current leader. For requests intended for any replica, this error indicates"
                    + " that the broker is not a replica of the topic partition.";
            case REQUEST_TIMED_OUT -> "The request timed out.";
            case NOT_ENOUGH_REPLICAS -> "Messages are rejected since there are fewer in-sync replicas than required.";
            case NOT_ENOUGH_REPLICAS_AFTER_APPEND ->
                    "Messages are written to the log, but to fewer in-sync replicas than required.";
            case KAFKA_STORAGE_ERROR -> "Disk error when trying to access log file on the disk.";
            case MESSAGE_TOO_LARGE ->
                    "The request included a message larger than the max message size the server will accept.";
            case RECORD_LIST_TOO_LARGE ->
                    "The request included message batch larger than the configured segment size on the server.";
            case FENCED_LEADER_EPOCH -> "The leader epoch in the request is older than the epoch on the broker.";
            case GROUP_ID_NOT_FOUND -> "The group id does not exist.";
            case INVALID_GROUP_ID -> "The group id is invalid.";
            case FENCED_STATE_EPOCH ->
                    "The share coordinator rejected the request because the share-group state epoch did not match.";
            // A topic creation's refusals, which a streams group's heartbeat names when the refusal had no message.
            case TOPIC_ALREADY_EXISTS -> "Topic with this name already exists.";
            case POLICY_VIOLATION -> "Request parameters do not satisfy the configured policy.";
            case INVALID_REPLICATION_FACTOR ->
                    "Replication factor is below 1 or larger than the number of available brokers.";
            case TOPIC_AUTHORIZATION_FAILED -> "Topic authorization failed.";
            case CLUSTER_AUTHORIZATION_FAILED -> "Cluster authorization failed.";
            case THROTTLING_QUOTA_EXCEEDED -> "The throttling quota has been exceeded.";
            case INVALID_PARTITIONS -> "Number of partitions is below 1.";
            case INVALID_CONFIG -> "Configuration is invalid.";
            case INVALID_TOPIC_EXCEPTION -> "The request attempted to perform an operation on an invalid topic.";
            case INVALID_REPLICA_ASSIGNMENT -> "Replica assignment is invalid.";
            // A request's error response (a DescribeConfigs naming a resource type Kafka does not know).
            case INVALID_REQUEST -> "This most likely occurs because of a request being malformed by the client"
                    + " library or the message was sent to an incompatible broker. See the broker logs for more"
                    + " details.";
            default -> "The server experienced an unexpected error when processing the request.";
        };
    }
}
