package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/** A ConsumerGroupHeartbeat as the coordinator sees it, and its answer. */
final class ConsumerGroupHeartbeat {

    private ConsumerGroupHeartbeat() {
    }

    /**
     * The request; null fields are "unchanged since the last heartbeat", as KIP-848 sends them.
     *
     * @param ownedTopicPartitions the partitions the member says it owns, or null if it did not say
     */
    record Request(String groupId, String memberId, int memberEpoch, String instanceId, String rackId,
                   int rebalanceTimeoutMs, List<String> subscribedTopicNames, String subscribedTopicRegex,
                   String serverAssignor, Map<UUID, Set<Integer>> ownedTopicPartitions, String clientId,
                   String clientHost, short version, Predicate<String> describableTopics) {
    }

    /** The answer; {@code assignment} is null when it is not sent (the member's is unchanged). */
    record Response(Errors error, String message, String memberId, int memberEpoch, int heartbeatIntervalMs,
                    Map<UUID, Set<Integer>> assignment) {

        static Response error(Errors error, String message) {
            return new Response(error, message, null, 0, 0, null);
        }
    }
}
