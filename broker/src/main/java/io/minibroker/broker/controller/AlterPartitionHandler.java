package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterPartitionRequestView;
import io.minibroker.protocol.message.view.AlterPartitionResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * AlterPartition, on the controller's listener: a leader shrinks or expands a partition's ISR
 * ({@link TopicAssignments#alterIsr}). Each partition is answered with its error, or with the leader, leader epoch,
 * ISR and partition epoch it now has. A request whose BrokerEpoch (when not -1) is not the sender's registered one
 * is refused as a whole, STALE_BROKER_EPOCH, as Kafka's controller does. Runs on the disk executor: a change is
 * saved before it is answered.
 */
public final class AlterPartitionHandler implements ApiHandler {

    /** From v3 the new ISR names each broker with its epoch (KIP-903); before, by id only. */
    private static final int ISR_WITH_EPOCHS_FROM_VERSION = 3;
    /** A broker epoch that asks for no check. */
    private static final long NO_EPOCH = -1;

    private final BrokerMembership membership;
    private final TopicAssignments assignments;

    public AlterPartitionHandler(BrokerMembership membership, TopicAssignments assignments) {
        this.membership = membership;
        this.assignments = assignments;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        AlterPartitionRequestView body = new AlterPartitionRequestView(request.body());
        int brokerId = body.brokerId();
        AlterPartitionResponseView response = new AlterPartitionResponseView();
        long brokerEpoch = body.brokerEpoch();
        if (brokerEpoch != NO_EPOCH && brokerEpoch != membership.epoch(brokerId)) {
            return CompletableFuture.completedFuture(response.errorCode(Errors.STALE_BROKER_EPOCH.code()).struct());
        }
        for (AlterPartitionRequestView.TopicData topic : body.topics()) {
            AlterPartitionResponseView.TopicData topicResult = response.addTopic().topicId(topic.topicId());
            for (AlterPartitionRequestView.PartitionData partition : topic.partitions()) {
                int index = partition.partitionIndex();
                List<TopicAssignments.IsrMember> newIsr = request.version() >= ISR_WITH_EPOCHS_FROM_VERSION
                        ? partition.newIsrWithEpochs().stream()
                                .map(b -> new TopicAssignments.IsrMember(b.brokerId(), b.brokerEpoch()))
                                .toList()
                        : partition.newIsr().stream()
                                .map(id -> new TopicAssignments.IsrMember(id, NO_EPOCH)).toList();
                TopicAssignments.IsrChange change = assignments.alterIsr(brokerId, topic.topicId(), index,
                        partition.leaderEpoch(), partition.partitionEpoch(), newIsr);
                AlterPartitionResponseView.PartitionData result = topicResult.addPartition().partitionIndex(index)
                        .errorCode(change.error().code());
                if (change.error() == Errors.NONE) {
                    result.leaderId(change.partition().leader())
                            .leaderEpoch(change.partition().leaderEpoch())
                            .isr(change.partition().isr())
                            .partitionEpoch(change.partitionEpoch());
                }
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
