package io.minibroker.broker.authz;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.DeleteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.DeleteShareGroupStateResponseView;
import io.minibroker.protocol.message.view.InitializeShareGroupStateRequestView;
import io.minibroker.protocol.message.view.InitializeShareGroupStateResponseView;
import io.minibroker.protocol.message.view.ReadShareGroupStateRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateResponseView;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryResponseView;
import io.minibroker.protocol.message.view.WriteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.WriteShareGroupStateResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletionStage;

/**
 * The share coordinator's inter-broker APIs (Read/Write/Delete/InitializeShareGroupState,
 * ReadShareGroupStateSummary), as Kafka's KafkaApis checks them:
 * CLUSTER_ACTION on the cluster, else every partition asked for is answered CLUSTER_AUTHORIZATION_FAILED (the
 * responses have no top-level error code).
 */
final class ShareStateApiChecks {

    private static final short REFUSED = Errors.CLUSTER_AUTHORIZATION_FAILED.code();

    private ShareStateApiChecks() {
    }

    static CompletionStage<Struct> read(Access access) {
        if (access.allowedOnCluster(AclOperation.CLUSTER_ACTION)) {
            return access.serve();
        }
        ReadShareGroupStateResponseView response = new ReadShareGroupStateResponseView();
        for (ReadShareGroupStateRequestView.ReadStateData topic
                : new ReadShareGroupStateRequestView(access.request().body()).topics()) {
            ReadShareGroupStateResponseView.ReadStateResult result = response.addResult().topicId(topic.topicId());
            topic.partitions().forEach(p -> result.addPartition().partition(p.partition()).errorCode(REFUSED)
                    .errorMessage(Access.message(Errors.CLUSTER_AUTHORIZATION_FAILED)));
        }
        return Access.answer(response.struct());
    }

    static CompletionStage<Struct> write(Access access) {
        if (access.allowedOnCluster(AclOperation.CLUSTER_ACTION)) {
            return access.serve();
        }
        WriteShareGroupStateResponseView response = new WriteShareGroupStateResponseView();
        for (WriteShareGroupStateRequestView.WriteStateData topic
                : new WriteShareGroupStateRequestView(access.request().body()).topics()) {
            WriteShareGroupStateResponseView.WriteStateResult result = response.addResult().topicId(topic.topicId());
            topic.partitions().forEach(p -> result.addPartition().partition(p.partition()).errorCode(REFUSED)
                    .errorMessage(Access.message(Errors.CLUSTER_AUTHORIZATION_FAILED)));
        }
        return Access.answer(response.struct());
    }

    static CompletionStage<Struct> delete(Access access) {
        if (access.allowedOnCluster(AclOperation.CLUSTER_ACTION)) {
            return access.serve();
        }
        DeleteShareGroupStateResponseView response = new DeleteShareGroupStateResponseView();
        for (DeleteShareGroupStateRequestView.DeleteStateData topic
                : new DeleteShareGroupStateRequestView(access.request().body()).topics()) {
            DeleteShareGroupStateResponseView.DeleteStateResult result = response.addResult()
                    .topicId(topic.topicId());
            topic.partitions().forEach(p -> result.addPartition().partition(p.partition()).errorCode(REFUSED)
                    .errorMessage(Access.message(Errors.CLUSTER_AUTHORIZATION_FAILED)));
        }
        return Access.answer(response.struct());
    }

    static CompletionStage<Struct> initialize(Access access) {
        if (access.allowedOnCluster(AclOperation.CLUSTER_ACTION)) {
            return access.serve();
        }
        InitializeShareGroupStateResponseView response = new InitializeShareGroupStateResponseView();
        for (InitializeShareGroupStateRequestView.InitializeStateData topic
                : new InitializeShareGroupStateRequestView(access.request().body()).topics()) {
            InitializeShareGroupStateResponseView.InitializeStateResult result = response.addResult()
                    .topicId(topic.topicId());
            topic.partitions().forEach(p -> result.addPartition().partition(p.partition()).errorCode(REFUSED)
                    .errorMessage(Access.message(Errors.CLUSTER_AUTHORIZATION_FAILED)));
        }
        return Access.answer(response.struct());
    }

    static CompletionStage<Struct> readSummary(Access access) {
        if (access.allowedOnCluster(AclOperation.CLUSTER_ACTION)) {
            return access.serve();
        }
        ReadShareGroupStateSummaryResponseView response = new ReadShareGroupStateSummaryResponseView();
        for (ReadShareGroupStateSummaryRequestView.ReadStateSummaryData topic
                : new ReadShareGroupStateSummaryRequestView(access.request().body()).topics()) {
            ReadShareGroupStateSummaryResponseView.ReadStateSummaryResult result = response.addResult()
                    .topicId(topic.topicId());
            topic.partitions().forEach(p -> result.addPartition().partition(p.partition()).errorCode(REFUSED)
                    .errorMessage(Access.message(Errors.CLUSTER_AUTHORIZATION_FAILED)));
        }
        return Access.answer(response.struct());
    }
}
