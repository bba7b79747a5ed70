package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.ReassignableTopics;
import io.minibroker.broker.topic.ReassignableTopics.Outcome;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterPartitionReassignmentsRequestView;
import io.minibroker.protocol.message.view.AlterPartitionReassignmentsRequestView.ReassignablePartition;
import io.minibroker.protocol.message.view.AlterPartitionReassignmentsRequestView.ReassignableTopic;
import io.minibroker.protocol.message.view.AlterPartitionReassignmentsResponseView;
import io.minibroker.protocol.message.view.AlterPartitionReassignmentsResponseView.ReassignableTopicResponse;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * AlterPartitionReassignments ({@code kafka-reassign-partitions --execute} and {@code --cancel},
 * {@code Admin.alterPartitionReassignments}) on the controller's partitions or a single node's, answered as Kafka's
 * controller answers it: every partition named gets an outcome, in the order given, each checked and applied on its
 * own (a null replica list cancels the partition's move); v1's {@code AllowReplicationFactorChange} (true in v0) is
 * echoed in the answer. A {@code TimeoutMs} of 0 or less is past its deadline on arrival, as Kafka's controller
 * reckons the deadline from it: REQUEST_TIMED_OUT at the top and on every partition, without messages, whether the
 * topic exists or not, and nothing moves (as a Kafka 4.3.1 node answers it).
 */
public final class AlterPartitionReassignmentsHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(AlterPartitionReassignmentsHandler.class);
    private static final short ALLOW_REPLICATION_FACTOR_CHANGE_FROM_VERSION = 1;

    private final ReassignableTopics topics;

    public AlterPartitionReassignmentsHandler(ReassignableTopics topics) {
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        AlterPartitionReassignmentsRequestView alter = new AlterPartitionReassignmentsRequestView(request.body());
        boolean allowReplicationFactorChange = request.version() < ALLOW_REPLICATION_FACTOR_CHANGE_FROM_VERSION
                || alter.allowReplicationFactorChange();
        // A null top-level message, as Kafka's controller sets it (the field's default is the empty string).
        AlterPartitionReassignmentsResponseView response = new AlterPartitionReassignmentsResponseView()
                .errorMessage(null);
        boolean timedOut = PastDeadline.at(alter.timeoutMs());
        if (timedOut) {
            // Kafka's error answer: the flag left at its default (true) whatever the request said.
            response.errorCode(PastDeadline.ERROR.code());
        } else {
            response.allowReplicationFactorChange(allowReplicationFactorChange);
        }
        for (ReassignableTopic topic : alter.topics()) {
            ReassignableTopicResponse answer = response.addResponse().name(topic.name());
            for (ReassignablePartition partition : topic.partitions()) {
                Outcome outcome = timedOut ? new Outcome(PastDeadline.ERROR, null)
                        : topics.reassign(topic.name(), partition.partitionIndex(), partition.replicas(),
                                allowReplicationFactorChange);
                if (outcome.error() != Errors.NONE) {
                    LOG.info("Unable to alter partition reassignment for {}:{}: {} {}", topic.name(),
                            partition.partitionIndex(), outcome.error(), outcome.message());
                }
                answer.addPartition().partitionIndex(partition.partitionIndex()).errorCode(outcome.error().code())
                        .errorMessage(outcome.message());
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
