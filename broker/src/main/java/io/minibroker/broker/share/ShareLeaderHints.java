package io.minibroker.broker.share;

import io.minibroker.broker.api.LeaderHints;
import io.minibroker.broker.api.PartitionLeadership.CurrentLeader;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ShareAcknowledgeResponseView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.UUID;
import java.util.function.Consumer;

/**
 * KIP-951's hints in a ShareFetch or ShareAcknowledge answer, as Kafka's KafkaApis fills them (its
 * processShareFetchResponse and processShareAcknowledgeResponse): a partition answered NOT_LEADER_OR_FOLLOWER or
 * FENCED_LEADER_EPOCH names its current leader and epoch, and the answer lists each such leader's endpoint once, on
 * the listener the request came in on. In a ShareFetch only the partition's fetch error counts, not its
 * acknowledgements': Kafka looks at that one alone.
 */
final class ShareLeaderHints {

    private final ShareLogs logs;
    private final String listener;
    /** Made at the first partition to name a leader for: most answers have none. */
    private LeaderHints hints;

    private ShareLeaderHints(ShareLogs logs, String listener) {
        this.logs = logs;
        this.listener = listener;
    }

    /** A ShareFetch answer with its hints filled in. */
    static Struct fill(ShareFetchResponseView response, ShareLogs logs, String listener) {
        ShareLeaderHints hints = new ShareLeaderHints(logs, listener);
        response.responses().forEach(topic -> topic.partitions().forEach(partition -> hints.name(topic.topicId(),
                partition.partitionIndex(), partition.errorCode(), leader -> partition.currentLeader()
                        .leaderId(leader.leaderId()).leaderEpoch(leader.leaderEpoch()))));
        hints.writeEndpoints(endpoint -> response.addNodeEndpoint().nodeId(endpoint.leaderId())
                .host(endpoint.host()).port(endpoint.port()));
        return response.struct();
    }

    /** A ShareAcknowledge answer with its hints filled in. */
    static Struct fill(ShareAcknowledgeResponseView response, ShareLogs logs, String listener) {
        ShareLeaderHints hints = new ShareLeaderHints(logs, listener);
        response.responses().forEach(topic -> topic.partitions().forEach(partition -> hints.name(topic.topicId(),
                partition.partitionIndex(), partition.errorCode(), leader -> partition.currentLeader()
                        .leaderId(leader.leaderId()).leaderEpoch(leader.leaderEpoch()))));
        hints.writeEndpoints(endpoint -> response.addNodeEndpoint().nodeId(endpoint.leaderId())
                .host(endpoint.host()).port(endpoint.port()));
        return response.struct();
    }

    /** Hands {@code named} the current leader of a partition answered {@code errorCode}, if there is one to name. */
    private void name(UUID topicId, int partition, short errorCode, Consumer<CurrentLeader> named) {
        if (errorCode != Errors.NOT_LEADER_OR_FOLLOWER.code() && errorCode != Errors.FENCED_LEADER_EPOCH.code()) {
            return;
        }
        logs.partitionOf(topicId, partition).ifPresent(tp -> {
            hints = hints != null ? hints : logs.leaderHints(listener);
            named.accept(hints.leaderOf(tp));
        });
    }

    /** Each leader named, with an endpoint, once. */
    private void writeEndpoints(Consumer<CurrentLeader> endpoint) {
        if (hints != null) {
            hints.writeEndpoints(endpoint);
        }
    }
}
