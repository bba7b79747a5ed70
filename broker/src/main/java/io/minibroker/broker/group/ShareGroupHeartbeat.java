package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** A ShareGroupHeartbeat as the coordinator sees it, and its answer. */
final class ShareGroupHeartbeat {

    private ShareGroupHeartbeat() {
    }

    /** {@code subscribedTopicNames} is null when unchanged since the member's last heartbeat. */
    record Request(String groupId, String memberId, int memberEpoch, String rackId, List<String> subscribedTopicNames,
                   String clientId, String clientHost) {
    }

    /** {@code assignment} is null when the member's assignment is unchanged (the field is left out). */
    record Response(Errors error, String message, String memberId, int memberEpoch, int heartbeatIntervalMs,
                    Map<UUID, Set<Integer>> assignment) {
        static Response error(Errors error, String message) {
            return new Response(error, message, null, 0, 0, null);
        }
    }
}
