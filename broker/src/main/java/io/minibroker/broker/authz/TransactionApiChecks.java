package io.minibroker.broker.authz;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AddOffsetsToTxnRequestView;
import io.minibroker.protocol.message.view.AddPartitionsToTxnRequestView;
import io.minibroker.protocol.message.view.AddPartitionsToTxnRequestView.AddPartitionsToTxnTopic;
import io.minibroker.protocol.message.view.AddPartitionsToTxnResponseView;
import io.minibroker.protocol.message.view.DescribeTransactionsRequestView;
import io.minibroker.protocol.message.view.DescribeTransactionsResponseView;
import io.minibroker.protocol.message.view.EndTxnRequestView;
import io.minibroker.protocol.message.view.InitProducerIdRequestView;
import io.minibroker.protocol.message.view.ListTransactionsResponseView;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView;
import io.minibroker.protocol.message.view.TxnOffsetCommitResponseView;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * The checks of the transaction APIs, as Kafka's KafkaApis makes them: WRITE on the transactional id for
 * InitProducerId (TWO_PHASE_COMMIT too with enable2Pc; an idempotent producer IDEMPOTENT_WRITE on the cluster or
 * WRITE on some topic), AddPartitionsToTxn (and WRITE on each topic; from v4, the brokers' verification,
 * CLUSTER_ACTION), AddOffsetsToTxn (and READ on the group), EndTxn and TxnOffsetCommit (and READ on the group and each
 * topic); DESCRIBE on the transactional id for DescribeTransactions (whose answer keeps only the topics the principal
 * may describe) and ListTransactions (which lists only those); ALTER or CLUSTER_ACTION on the cluster for the brokers'
 * WriteTxnMarkers.
 */
final class TransactionApiChecks {

    private static final short ADD_PARTITIONS_BROKER_VERSION = 4;

    private static final short TXN_OFFSET_COMMIT_TOPIC_IDS_FROM_VERSION = 6;

    private final TopicFacts topics;

    TransactionApiChecks(TopicFacts topics) {
        this.topics = topics;
    }

    private static boolean mayWrite(Access access, String transactionalId) {
        return access.allowed(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId);
    }

    CompletionStage<Struct> initProducerId(Access access) {
        InitProducerIdRequestView body = new InitProducerIdRequestView(access.request().body());
        String transactionalId = body.transactionalId();
        if (transactionalId != null) {
            boolean allowed = mayWrite(access, transactionalId) && (!body.enable2Pc()
                    || access.allowed(AclOperation.TWO_PHASE_COMMIT, ResourceType.TRANSACTIONAL_ID, transactionalId));
            return allowed ? access.serve() : access.refuse(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        }
        boolean idempotent = access.allowedOnCluster(AclOperation.IDEMPOTENT_WRITE)
                || access.allowedOnAny(AclOperation.WRITE, ResourceType.TOPIC);
        return idempotent ? access.serve() : access.refuse(Errors.CLUSTER_AUTHORIZATION_FAILED);
    }

    /**
     * A client's request (before v4): WRITE on the transactional id, else every partition is answered
     * TRANSACTIONAL_ID_AUTHORIZATION_FAILED; then WRITE on each topic: if one is refused nothing is added, the refused
     * topics answered TOPIC_AUTHORIZATION_FAILED, partitions that do not exist UNKNOWN_TOPIC_OR_PARTITION and the
     * rest OPERATION_NOT_ATTEMPTED (Kafka's KafkaApis, which asks its metadata cache per partition). The brokers'
     * batched verification (v4 on) needs CLUSTER_ACTION.
     */
    CompletionStage<Struct> addPartitionsToTxn(Access access) {
        Request request = access.request();
        if (request.version() >= ADD_PARTITIONS_BROKER_VERSION) {
            return access.allowedOnCluster(AclOperation.CLUSTER_ACTION) ? access.serve()
                    : access.refuse(Errors.CLUSTER_AUTHORIZATION_FAILED);
        }
        AddPartitionsToTxnRequestView body = new AddPartitionsToTxnRequestView(request.body());
        boolean transactionAllowed = mayWrite(access, body.v3AndBelowTransactionalId());
        boolean topicsAllowed = transactionAllowed && body.v3AndBelowTopics().stream().allMatch(t -> access.allowed(
                AclOperation.WRITE, ResourceType.TOPIC, t.name()));
        if (topicsAllowed) {
            return access.serve();
        }
        AddPartitionsToTxnResponseView response = new AddPartitionsToTxnResponseView();
        for (AddPartitionsToTxnTopic topic : body.v3AndBelowTopics()) {
            Errors refused = !transactionAllowed ? Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
                    : !access.allowed(AclOperation.WRITE, ResourceType.TOPIC, topic.name())
                    ? Errors.TOPIC_AUTHORIZATION_FAILED : null;
            AddPartitionsToTxnResponseView.AddPartitionsToTxnTopicResult answered =
                    response.addResultsByTopicV3AndBelow().name(topic.name());
            for (int partition : topic.partitions()) {
                Errors error = refused != null ? refused
                        : topics.partitionExists().test(topic.name(), partition) ? Errors.OPERATION_NOT_ATTEMPTED
                        : Errors.UNKNOWN_TOPIC_OR_PARTITION;
                answered.addResultsByPartition().partitionIndex(partition).partitionErrorCode(error.code());
            }
        }
        return Access.answer(response.struct());
    }

    CompletionStage<Struct> addOffsetsToTxn(Access access) {
        AddOffsetsToTxnRequestView body = new AddOffsetsToTxnRequestView(access.request().body());
        if (!mayWrite(access, body.transactionalId())) {
            return access.refuse(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        }
        return access.allowed(AclOperation.READ, ResourceType.GROUP, body.groupId()) ? access.serve()
                : access.refuse(Errors.GROUP_AUTHORIZATION_FAILED);
    }

    CompletionStage<Struct> endTxn(Access access) {
        return mayWrite(access, new EndTxnRequestView(access.request().body()).transactionalId()) ? access.serve()
                : access.refuse(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
    }

    CompletionStage<Struct> txnOffsetCommit(Access access) {
        TxnOffsetCommitRequestView body = new TxnOffsetCommitRequestView(access.request().body());
        Errors refusal = !mayWrite(access, body.transactionalId()) ? Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
                : !access.allowed(AclOperation.READ, ResourceType.GROUP, body.groupId())
                ? Errors.GROUP_AUTHORIZATION_FAILED : null;
        if (refusal != null) {
            TxnOffsetCommitResponseView response = new TxnOffsetCommitResponseView();
            body.topics().forEach(t -> addTxnOffsetCommitErrors(response, t, refusal));
            return Access.answer(response.struct());
        }
        boolean byId = access.request().version() >= TXN_OFFSET_COMMIT_TOPIC_IDS_FROM_VERSION;
        return access.serveAllowed(body.topics(), topic -> access.topicRefusal(AclOperation.READ,
                byId ? topics.nameOf(topic.topicId()).orElse(null) : topic.name()), body::topics, (answer, refused) ->
                addTxnOffsetCommitErrors(new TxnOffsetCommitResponseView(answer), refused.item(), refused.error()));
    }

    private static void addTxnOffsetCommitErrors(TxnOffsetCommitResponseView response,
                                                 TxnOffsetCommitRequestView.TxnOffsetCommitRequestTopic topic,
                                                 Errors error) {
        TxnOffsetCommitResponseView.TxnOffsetCommitResponseTopic answered = response.addTopic().name(topic.name())
                .topicId(topic.topicId());
        topic.partitions().forEach(p -> answered.addPartition().partitionIndex(p.partitionIndex())
                .errorCode(error.code()));
    }

    CompletionStage<Struct> describeTransactions(Access access) {
        DescribeTransactionsRequestView body = new DescribeTransactionsRequestView(access.request().body());
        return access.serveAllowed(body.transactionalIds(), id -> access.allowed(AclOperation.DESCRIBE,
                        ResourceType.TRANSACTIONAL_ID, id) ? null : Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                body::transactionalIds, (answer, refused) -> new DescribeTransactionsResponseView(answer)
                        .addTransactionState().transactionalId(refused.item()).errorCode(refused.error().code())
                        .transactionState(""))
                .thenApply(answer -> {
                    new DescribeTransactionsResponseView(answer).transactionStates().forEach(state -> state.topics(
                            state.topics().stream().filter(t -> access.allowed(AclOperation.DESCRIBE,
                                    ResourceType.TOPIC, t.topic())).collect(Collectors.toCollection(ArrayList::new))));
                    return answer;
                });
    }

    CompletionStage<Struct> listTransactions(Access access) {
        return access.serveFiltered(answer -> {
            ListTransactionsResponseView response = new ListTransactionsResponseView(answer);
            response.transactionStates(response.transactionStates().stream().filter(s -> access.allowed(
                    AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, s.transactionalId()))
                    .collect(Collectors.toCollection(ArrayList::new)));
        });
    }

    /** The brokers' markers: ALTER or CLUSTER_ACTION on the cluster, else every partition is refused. */
    CompletionStage<Struct> writeTxnMarkers(Access access) {
        if (access.allowedOnCluster(AclOperation.ALTER) || access.allowedOnCluster(AclOperation.CLUSTER_ACTION)) {
            return access.serve();
        }
        WriteTxnMarkersRequestView body = new WriteTxnMarkersRequestView(access.request().body());
        WriteTxnMarkersResponseView response = new WriteTxnMarkersResponseView();
        body.markers().forEach(marker -> {
            WriteTxnMarkersResponseView.WritableTxnMarkerResult result = response.addMarker()
                    .producerId(marker.producerId());
            marker.topics().forEach(topic -> {
                WriteTxnMarkersResponseView.WritableTxnMarkerTopicResult answered = result.addTopic()
                        .name(topic.name());
                topic.partitionIndexes().forEach(p -> answered.addPartition().partitionIndex(p)
                        .errorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code()));
            });
        });
        return Access.answer(response.struct());
    }
}
