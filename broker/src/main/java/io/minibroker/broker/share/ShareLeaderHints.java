package io.minibroker.broker.share;

import io.minibroker.broker.api.LeaderHints;
import io.minibroker.broker.api.PartitionLeadership.CurrentLeader;
import io.minibroker.protocol.error.Errors;

import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * KIP-951's hints of one ShareFetch or ShareAcknowledge answer, as Kafka's KafkaApis fills them (its
 * processShareFetchResponse and processShareAcknowledgeResponse): a partition answered NOT_LEADER_OR_FOLLOWER or
 * FENCED_LEADER_EPOCH names its current leader and epoch, and the answer lists each such leader's endpoint once, on
 * the listener the request came in on. Each answer names them as it adds each partition, so nothing walks it again
 * ({@link ShareFetchWork}, {@link ShareAcknowledgeHandler}); a ShareFetch by the partition's fetch error only, not
 * its acknowledgements': Kafka looks at that one alone.
 */
final class ShareLeaderHints {

    private final ShareLogs logs;
    private final String listener;
    /** Made at the first partition to name a leader for: most answers have none. */
    private LeaderHints hints;

    ShareLeaderHints(ShareLogs logs, String listener) {
        this.logs = logs;
        this.listener = listener;
    }

    /**
     * The current leader to name for a partition answered {@code errorCode}: as KafkaApis names one, only for
     * NOT_LEADER_OR_FOLLOWER and FENCED_LEADER_EPOCH ({@link CurrentLeader#UNKNOWN}, leader and epoch -1, for a
     * topic this broker does not know). Empty for any other answer, whose CurrentLeader keeps the schema's defaults
     * (leader 0, epoch 0), as Kafka 4.3.1's generated LeaderIdAndEpoch does there.
     */
    Optional<CurrentLeader> leaderOf(UUID topicId, int partition, short errorCode) {
        if (errorCode != Errors.NOT_LEADER_OR_FOLLOWER.code() && errorCode != Errors.FENCED_LEADER_EPOCH.code()) {
            return Optional.empty();
        }
        return Optional.of(logs.partitionOf(topicId, partition).map(tp -> {
            hints = hints != null ? hints : logs.leaderHints(listener);
            return hints.leaderOf(tp);
        }).orElse(CurrentLeader.UNKNOWN));
    }

    /** Each leader named, with an endpoint, once. */
    void writeEndpoints(Consumer<CurrentLeader> endpoint) {
        if (hints != null) {
            hints.writeEndpoints(endpoint);
        }
    }
}
