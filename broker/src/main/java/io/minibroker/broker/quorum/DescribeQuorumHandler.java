package io.minibroker.broker.quorum;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeQuorumRequestView;
import io.minibroker.protocol.message.view.DescribeQuorumResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * DescribeQuorum ({@code kafka-metadata-quorum.sh describe}, {@code Admin.describeMetadataQuorum}) where the
 * controller is: on a single node and at a cluster's controller (brokers forward it there, as Kafka's do). Shaped as
 * a Kafka 4.3.1 single-voter quorum answers, checked against one: a request for anything but partition 0 of
 * {@code __cluster_metadata} alone is answered UNKNOWN_TOPIC_OR_PARTITION on every partition it names, with Kafka's
 * message; the voter's directory id is the zero id of a static quorum ({@code controller.quorum.voters},
 * kraft.version 0), its own once kraft.version 1 is finalized ({@link VoterSet}); the error messages of a success are
 * empty, not null, as Kafka's. What the numbers mean here: {@link QuorumReport}.
 */
public final class DescribeQuorumHandler implements ApiHandler {

    private static final String METADATA_TOPIC = "__cluster_metadata";
    private static final String NOT_HOSTED = "This server does not host this topic-partition.";

    private final Supplier<QuorumReport> quorum;

    public DescribeQuorumHandler(Supplier<QuorumReport> quorum) {
        this.quorum = quorum;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        List<DescribeQuorumRequestView.TopicData> topics = new DescribeQuorumRequestView(request.body()).topics();
        DescribeQuorumResponseView response = new DescribeQuorumResponseView().errorCode(Errors.NONE.code())
                .errorMessage("");
        if (!asksForTheMetadataPartitionAlone(topics)) {
            for (DescribeQuorumRequestView.TopicData topic : topics) {
                DescribeQuorumResponseView.TopicData answered = response.addTopic().topicName(topic.topicName());
                topic.partitions().forEach(partition -> answered.addPartition()
                        .partitionIndex(partition.partitionIndex())
                        .errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()).errorMessage(NOT_HOSTED));
            }
            return CompletableFuture.completedFuture(response.struct());
        }
        QuorumReport report = quorum.get();
        DescribeQuorumResponseView.PartitionData partition = response.addTopic().topicName(METADATA_TOPIC)
                .addPartition().partitionIndex(0).errorCode(Errors.NONE.code()).errorMessage("")
                .leaderId(report.leaderId()).leaderEpoch(QuorumReport.LEADER_EPOCH)
                .highWatermark(report.highWatermark());
        report.voters().forEach(voter -> fill(partition.addCurrentVoter(), voter));
        report.observers().forEach(observer -> fill(partition.addObserver(), observer));
        DescribeQuorumResponseView.Node leader = response.addNode().nodeId(report.leaderId());
        for (Endpoint listener : report.leaderListeners()) {
            leader.addListener().name(listener.listenerName()).host(listener.host()).port(listener.port());
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    private static boolean asksForTheMetadataPartitionAlone(List<DescribeQuorumRequestView.TopicData> topics) {
        return topics.size() == 1 && METADATA_TOPIC.equals(topics.get(0).topicName())
                && topics.get(0).partitions().size() == 1
                && topics.get(0).partitions().get(0).partitionIndex() == 0;
    }

    private static void fill(DescribeQuorumResponseView.ReplicaState state, QuorumReport.Replica replica) {
        state.replicaId(replica.replicaId()).replicaDirectoryId(replica.directoryId())
                .logEndOffset(replica.logEndOffset())
                .lastFetchTimestamp(replica.lastFetchMs()).lastCaughtUpTimestamp(replica.lastCaughtUpMs());
    }
}
