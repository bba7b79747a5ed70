package io.minibroker.broker.share;

import io.minibroker.broker.share.ShareSessionCache.TopicIdPartition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** What ShareFetch and ShareAcknowledge have in common: the request checks and the acknowledgement batches. */
final class ShareRequests {

    private ShareRequests() {
    }

    /**
     * Kafka refuses a request without a group id (null) or a valid member id as INVALID_REQUEST. An empty group id
     * goes on, as in Kafka 4.3.1's KafkaApis: its session is kept as any other's, and its share partitions fail to
     * load at the share coordinator, which serves no group without a name.
     */
    static boolean namesMember(String groupId, String memberId) {
        return groupId != null && ShareMemberIds.isValid(memberId);
    }

    /** Adds one partition's acknowledgement batches, read through the request's own view types. */
    static <B> void addAcknowledgements(Map<TopicIdPartition, List<Acknowledgement>> into, TopicIdPartition tp,
                                        List<B> batches, Function<B, Acknowledgement> read) {
        if (batches.isEmpty()) {
            return;
        }
        List<Acknowledgement> list = into.computeIfAbsent(tp, k -> new ArrayList<>());
        batches.forEach(batch -> list.add(read.apply(batch)));
    }

    static Map<TopicIdPartition, List<Acknowledgement>> newAcknowledgements() {
        return new LinkedHashMap<>();
    }
}
