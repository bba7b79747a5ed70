package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.ElectableTopics.ElectionResult;
import io.minibroker.broker.topic.ElectableTopics;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
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
        Struct body = request.body();
        Struct response = ApiKey.ELECT_LEADERS.response().newMessage();
        List<Struct> named = body.getStructs("TopicPartitions");
        byte typeValue = request.version() >= ELECTION_TYPE_FROM_VERSION ? body.getInt8("ElectionType") : 0;
        ElectableTopics.Type type = ElectableTopics.Type.of(typeValue);
        if (named != null && named.isEmpty()) {
            return CompletableFuture.completedFuture(response); // nothing to do, whatever the type: as Kafka
        } else if (body.getInt32("TimeoutMs") <= 0) {
            ElectionResult timedOut = new ElectionResult(Errors.REQUEST_TIMED_OUT, null);
            response.set("ErrorCode", Errors.REQUEST_TIMED_OUT.code());
            if (named != null) {
                for (Struct topic : named) {
                    List<Integer> partitions = topic.getList("Partitions");
                    addTopic(response, topic.getString("Topic"), partitions,
                            partitions.stream().map(p -> timedOut).toList());
                }
            }
        } else if (type == null) {
            ElectionResult refused = new ElectionResult(Errors.INVALID_REQUEST, "Unknown election type " + typeValue);
            response.set("ErrorCode", Errors.INVALID_REQUEST.code());
            if (named != null) {
                for (Struct topic : named) {
                    List<Integer> partitions = topic.getList("Partitions");
                    addTopic(response, topic.getString("Topic"), partitions,
                            partitions.stream().map(p -> refused).toList());
                }
            }
        } else if (named == null) {
            for (Map.Entry<String, Map<Integer, ElectionResult>> topic : topics.electAll(type).entrySet()) {
                Map<Integer, ElectionResult> results = topic.getValue();
                addTopic(response, topic.getKey(), List.copyOf(results.keySet()), List.copyOf(results.values()));
            }
        } else {
            for (Struct topic : named) {
                String name = topic.getString("Topic");
                List<Integer> partitions = topic.getList("Partitions");
                addTopic(response, name, partitions, topics.elect(type, name, partitions));
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private static void addTopic(Struct response, String topic, List<Integer> partitions, List<ElectionResult> results) {
        Struct entry = response.addElement("ReplicaElectionResults").set("Topic", topic);
        for (int i = 0; i < partitions.size(); i++) {
            entry.addElement("PartitionResult")
                    .set("PartitionId", partitions.get(i))
                    .set("ErrorCode", results.get(i).error().code())
                    .set("ErrorMessage", results.get(i).message());
        }
    }
}
