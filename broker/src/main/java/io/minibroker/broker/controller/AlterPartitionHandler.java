package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
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
        Struct body = request.body();
        int brokerId = body.getInt32("BrokerId");
        Struct response = ApiKey.ALTER_PARTITION.response().newMessage();
        long brokerEpoch = body.getInt64("BrokerEpoch");
        if (brokerEpoch != NO_EPOCH && brokerEpoch != membership.epoch(brokerId)) {
            return CompletableFuture.completedFuture(response.set("ErrorCode", Errors.STALE_BROKER_EPOCH.code()));
        }
        for (Struct topic : body.getStructs("Topics")) {
            Struct topicResult = response.addElement("Topics").set("TopicId", topic.getUuid("TopicId"));
            for (Struct partition : topic.getStructs("Partitions")) {
                int index = partition.getInt32("PartitionIndex");
                List<TopicAssignments.IsrMember> newIsr = request.version() >= ISR_WITH_EPOCHS_FROM_VERSION
                        ? partition.getStructs("NewIsrWithEpochs").stream()
                                .map(b -> new TopicAssignments.IsrMember(b.getInt32("BrokerId"), b.getInt64("BrokerEpoch")))
                                .toList()
                        : partition.<Integer>getList("NewIsr").stream()
                                .map(id -> new TopicAssignments.IsrMember(id, NO_EPOCH)).toList();
                TopicAssignments.IsrChange change = assignments.alterIsr(brokerId, topic.getUuid("TopicId"), index,
                        partition.getInt32("LeaderEpoch"), partition.getInt32("PartitionEpoch"), newIsr);
                Struct result = topicResult.addElement("Partitions").set("PartitionIndex", index)
                        .set("ErrorCode", change.error().code());
                if (change.error() == Errors.NONE) {
                    result.set("LeaderId", change.partition().leader())
                            .set("LeaderEpoch", change.partition().leaderEpoch())
                            .set("Isr", change.partition().isr())
                            .set("PartitionEpoch", change.partitionEpoch());
                }
            }
        }
        return CompletableFuture.completedFuture(response);
    }
}
