package io.minibroker.broker.group;

import io.minibroker.broker.topic.RequestingClient;
import io.minibroker.protocol.error.Errors;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/** A StreamsGroupHeartbeat as the coordinator sees it, and its answer. */
final class StreamsGroupHeartbeat {

    private StreamsGroupHeartbeat() {
    }

    /**
     * {@code topology} is null unless the member (re-)joins; the task lists are null when the member did not say what
     * it holds (each alone, as the request has them, so that Kafka's "all or none" check can be made); the endpoint,
     * process id and client tags are null when unchanged since the member's last heartbeat.
     * {@code usesSourceTopicRegex} tells whether the topology subscribes to topics by regular expression;
     * {@code mayCreateTopic} whether the member's principal may have an internal topic created, and {@code requester}
     * the heartbeat on whose account they are created.
     */
    record Request(String groupId, String memberId, int memberEpoch, int endpointInformationEpoch, String instanceId,
                   String rackId, int rebalanceTimeoutMs, StreamsTopology topology, boolean usesSourceTopicRegex,
                   Map<String, Set<Integer>> activeTasks, Map<String, Set<Integer>> standbyTasks,
                   Map<String, Set<Integer>> warmupTasks, String processId, StreamsGroupMember.Endpoint userEndpoint,
                   Map<String, String> clientTags, boolean shutdownApplication, String clientId, String clientHost,
                   Predicate<String> mayCreateTopic, RequestingClient requester) {

        /** What the member says it holds, or null if it did not say. */
        StreamsTasks ownedTasks() {
            return activeTasks == null ? null : new StreamsTasks(activeTasks, standbyTasks, warmupTasks);
        }
    }

    /** The partitions an endpoint's process holds, by topic: what interactive queries are routed by. */
    record EndpointPartitions(StreamsGroupMember.Endpoint endpoint, Map<String, Set<Integer>> active,
                              Map<String, Set<Integer>> standby) {
    }

    /**
     * {@code tasks} is null when the member's tasks are unchanged (the fields are left out),
     * {@code partitionsByUserEndpoint} when the member knows the endpoints' partitions at this epoch already.
     */
    record Response(Errors error, String message, String memberId, int memberEpoch, int heartbeatIntervalMs,
                    List<StreamsConfiguredTopology.Status> statuses, StreamsTasks tasks,
                    int endpointInformationEpoch, List<EndpointPartitions> partitionsByUserEndpoint) {
        static Response error(Errors error, String message) {
            return new Response(error, message, null, 0, 0, null, null, 0, null);
        }

        Response withStatuses(List<StreamsConfiguredTopology.Status> replaced) {
            return new Response(error, message, memberId, memberEpoch, heartbeatIntervalMs, replaced, tasks,
                    endpointInformationEpoch, partitionsByUserEndpoint);
        }
    }
}
