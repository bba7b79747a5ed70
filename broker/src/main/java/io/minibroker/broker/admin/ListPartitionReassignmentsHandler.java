package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.ReassignableTopics;
import io.minibroker.broker.topic.ReassignableTopics.Ongoing;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ListPartitionReassignmentsRequestView;
import io.minibroker.protocol.message.view.ListPartitionReassignmentsRequestView.ListPartitionReassignmentsTopics;
import io.minibroker.protocol.message.view.ListPartitionReassignmentsResponseView;
import io.minibroker.protocol.message.view.ListPartitionReassignmentsResponseView.OngoingTopicReassignment;
import io.minibroker.protocol.schema.Struct;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ListPartitionReassignments ({@code kafka-reassign-partitions --verify} and {@code --list},
 * {@code Admin.listPartitionReassignments}), answered as Kafka's controller answers it: only partitions that are
 * moving are listed, with their replicas, adding and removing replicas; a topic with none of them, or that does not
 * exist, is left out; no topics named (null) lists every move. Kafka's controller gives this read no deadline, so
 * {@code TimeoutMs} is not looked at.
 */
public final class ListPartitionReassignmentsHandler implements ApiHandler {

    private final ReassignableTopics topics;

    public ListPartitionReassignmentsHandler(ReassignableTopics topics) {
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ListPartitionReassignmentsRequestView list = new ListPartitionReassignmentsRequestView(request.body());
        // A null top-level message, as Kafka's controller sets it (the field's default is the empty string).
        ListPartitionReassignmentsResponseView response = new ListPartitionReassignmentsResponseView()
                .errorMessage(null);
        if (list.topics() == null) {
            topics.ongoingAll().forEach((topic, moving) -> addTopic(response, topic, moving));
        } else {
            for (ListPartitionReassignmentsTopics topic : list.topics()) {
                addTopic(response, topic.name(), topics.ongoing(topic.name(), topic.partitionIndexes()));
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    private static void addTopic(ListPartitionReassignmentsResponseView response, String topic,
                                 Map<Integer, Ongoing> moving) {
        if (moving.isEmpty()) {
            return;
        }
        OngoingTopicReassignment entry = response.addTopic().name(topic);
        moving.forEach((partition, ongoing) -> entry.addPartition().partitionIndex(partition)
                .replicas(ongoing.replicas()).addingReplicas(ongoing.adding()).removingReplicas(ongoing.removing()));
    }
}
