package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.ElectableTopics.ElectionResult;
import io.minibroker.broker.topic.ElectableTopics;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ElectLeadersRequestView;
import io.minibroker.protocol.message.view.ElectLeadersRequestView.TopicPartitions;
import io.minibroker.protocol.message.view.ElectLeadersResponseView;
import io.minibroker.protocol.message.view.ElectLeadersResponseView.ReplicaElectionResult;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ElectLeaders ({@code kafka-leader-election}, {@code Admin.electLeaders}) on the controller's partitions or a
 * single node's, shaped as Kafka's controller answers it: v0 asks for PREFERRED elections (it has no election
 * type); the partitions named are answered one by one, in the order given; no partitions named (null) means
 * every partition of every topic, each topic answered and only the partitions that needed an election listed; an
 * empty list elects nothing and is answered empty before anything else is read. A {@code TimeoutMs} of 0 or less is
 * past its deadline on arrival: Kafka's controller sets a request's deadline to its arrival plus {@code TimeoutMs}
 * and times out an election whose deadline has passed before it runs, so such a request is answered
 * REQUEST_TIMED_OUT (at the top level and on every partition named, with no message) and elects nothing. An election
 * type that names none refuses the whole request INVALID_REQUEST (at the top level from v1, and on every partition
 * named).
 */
public final class ElectLeadersHandler implements ApiHandler {

    private static final int ELECTION_TYPE_FROM_VERSION = 1;

    private final ElectableTopics topics;

    public ElectLeadersHandler(ElectableTopics topics) {
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ElectLeadersRequestView elect = new ElectLeadersRequestView(request.body());
        ElectLeadersResponseView response = new ElectLeadersResponseView();
        List<TopicPartitions> named = elect.topicPartitions();
        byte typeValue = request.version() >= ELECTION_TYPE_FROM_VERSION ? elect.electionType() : 0;
        ElectableTopics.Type type = ElectableTopics.Type.of(typeValue);
        if (named != null && named.isEmpty()) {
            return CompletableFuture.completedFuture(response.struct()); // nothing to do, whatever the type: as Kafka
        } else if (PastDeadline.at(elect.timeoutMs())) {
            // Already past its deadline, as Kafka's controller answers it, on every partition named.
            refuseAll(response, named, new ElectionResult(PastDeadline.ERROR, null));
        } else if (type == null) {
            refuseAll(response, named, new ElectionResult(Errors.INVALID_REQUEST, "Unknown election type " + typeValue));
        } else if (named == null) {
            for (Map.Entry<String, Map<Integer, ElectionResult>> topic : topics.electAll(type).entrySet()) {
                Map<Integer, ElectionResult> results = topic.getValue();
                addTopic(response, topic.getKey(), List.copyOf(results.keySet()), List.copyOf(results.values()));
            }
        } else {
            for (TopicPartitions topic : named) {
                String name = topic.topic();
                List<Integer> partitions = topic.partitions();
                addTopic(response, name, partitions, topics.elect(type, name, partitions));
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    /** The whole request refused: the error at the top and on every partition named. */
    private static void refuseAll(ElectLeadersResponseView response, List<TopicPartitions> named,
                                  ElectionResult refused) {
        response.errorCode(refused.error().code());
        if (named != null) {
            for (TopicPartitions topic : named) {
                List<Integer> partitions = topic.partitions();
                addTopic(response, topic.topic(), partitions, partitions.stream().map(p -> refused).toList());
            }
        }
    }

    private static void addTopic(ElectLeadersResponseView response, String topic, List<Integer> partitions,
                                 List<ElectionResult> results) {
        ReplicaElectionResult entry = response.addReplicaElectionResult().topic(topic);
        for (int i = 0; i < partitions.size(); i++) {
            entry.addPartitionResult()
                    .partitionId(partitions.get(i))
                    .errorCode(results.get(i).error().code())
                    .errorMessage(results.get(i).message());
        }
    }
}
