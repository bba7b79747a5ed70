package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.AddPartitionsToTxnRequestView;
import io.minibroker.protocol.message.view.AddPartitionsToTxnRequestView.AddPartitionsToTxnTransaction;
import io.minibroker.protocol.message.view.AddPartitionsToTxnResponseView;
import io.minibroker.protocol.schema.Struct;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A leader's questions to another node's transaction coordinator go as Kafka's AddPartitionsToTxnManager sends them:
 * one AddPartitionsToTxn v5 in flight per node, the next carrying every transaction queued meanwhile (one entry per
 * transactional id), each verify-only or adding as asked; each gets its own id's answer. The coordinator node is a
 * fake that holds each request until the test answers it.
 */
class AddPartitionsQueuesTest {

    private static final BrokerNode COORDINATOR = new BrokerNode(2, "PLAINTEXT", "localhost", 9092);
    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);
    private static final TopicPartition PAYMENTS = new TopicPartition("payments", 1);

    /** A request sent and its response, for the test to give. */
    private record Sent(AddPartitionsToTxnRequestView request, CompletableFuture<Struct> response) {
        List<String> ids() {
            return request.transactions().stream().map(AddPartitionsToTxnTransaction::transactionalId).toList();
        }

        /** Answers each transaction's partitions with the error this gives for its id, in the reverse order. */
        void answer(Map<String, Errors> byId) {
            AddPartitionsToTxnResponseView answer = new AddPartitionsToTxnResponseView();
            List<AddPartitionsToTxnTransaction> transactions = new ArrayList<>(request.transactions());
            Collections.reverse(transactions);
            for (AddPartitionsToTxnTransaction transaction : transactions) {
                var result = answer.addResultsByTransaction().transactionalId(transaction.transactionalId());
                transaction.topics().forEach(topic -> {
                    var topicResult = result.addTopicResult().name(topic.name());
                    topic.partitions().forEach(partition -> topicResult.addResultsByPartition()
                            .partitionIndex(partition)
                            .partitionErrorCode(byId.get(transaction.transactionalId()).code()));
                });
            }
            response.complete(answer.struct());
        }
    }

    private final List<Sent> sent = new ArrayList<>();
    private final AddPartitionsQueues queues = new AddPartitionsQueues((node, request) -> {
        CompletableFuture<Struct> response = new CompletableFuture<>();
        sent.add(new Sent(new AddPartitionsToTxnRequestView(request), response));
        return response;
    });

    @Test
    void transactionsAskedWhileARequestIsInFlightShareTheNextRequest() {
        var first = queues.enqueue(COORDINATOR, "a", 1, (short) 0, List.of(ORDERS), false);
        assertThat(sent).hasSize(1);

        var second = queues.enqueue(COORDINATOR, "b", 2, (short) 3, List.of(ORDERS, PAYMENTS), true);
        var third = queues.enqueue(COORDINATOR, "c", 3, (short) 0, List.of(PAYMENTS), false);
        var sameId = queues.enqueue(COORDINATOR, "a", 1, (short) 1, List.of(PAYMENTS), false);
        assertThat(sent).as("one request in flight per node").hasSize(1);

        sent.get(0).answer(Map.of("a", Errors.NONE));
        assertThat(first).isCompletedWithValue(Map.of(ORDERS, Errors.NONE));
        assertThat(sent).hasSize(2);
        assertThat(sent.get(1).ids()).containsExactly("b", "c", "a").doesNotHaveDuplicates();
        AddPartitionsToTxnTransaction verifying = sent.get(1).request().transactions().get(0);
        assertThat(verifying.verifyOnly()).isTrue();
        assertThat(verifying.producerId()).isEqualTo(2);
        assertThat(verifying.producerEpoch()).isEqualTo((short) 3);
        assertThat(sent.get(1).request().transactions().get(1).verifyOnly()).isFalse();

        sent.get(1).answer(Map.of("b", Errors.INVALID_TXN_STATE, "c", Errors.NONE, "a", Errors.PRODUCER_FENCED));
        assertThat(second).isCompletedWithValue(Map.of(ORDERS, Errors.INVALID_TXN_STATE,
                PAYMENTS, Errors.INVALID_TXN_STATE));
        assertThat(third).isCompletedWithValue(Map.of(PAYMENTS, Errors.NONE));
        assertThat(sameId).isCompletedWithValue(Map.of(PAYMENTS, Errors.PRODUCER_FENCED));
    }

    @Test
    void aSecondQuestionAboutOneIdWaitsForTheNextRequest() {
        queues.enqueue(COORDINATOR, "a", 1, (short) 0, List.of(ORDERS), false);
        queues.enqueue(COORDINATOR, "a", 1, (short) 0, List.of(PAYMENTS), false);
        var later = queues.enqueue(COORDINATOR, "a", 1, (short) 0, List.of(PAYMENTS), false);
        sent.get(0).answer(Map.of("a", Errors.NONE));
        assertThat(sent.get(1).ids()).containsExactly("a");
        sent.get(1).answer(Map.of("a", Errors.NONE));
        assertThat(sent.get(2).ids()).containsExactly("a");
        sent.get(2).answer(Map.of("a", Errors.CONCURRENT_TRANSACTIONS));
        assertThat(later).isCompletedWithValue(Map.of(PAYMENTS, Errors.CONCURRENT_TRANSACTIONS));
    }

    @Test
    void aWholeRequestErrorIsEveryTransactionsAndAFailureIsRetriable() {
        var refused = queues.enqueue(COORDINATOR, "a", 1, (short) 0, List.of(ORDERS), false);
        var queued = queues.enqueue(COORDINATOR, "b", 2, (short) 0, List.of(PAYMENTS), false);
        sent.get(0).response().complete(new AddPartitionsToTxnResponseView()
                .errorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code()).struct());
        assertThat(refused).as("the client never sees the inter-broker refusal")
                .isCompletedWithValue(Map.of(ORDERS, Errors.INVALID_TXN_STATE));

        sent.get(1).response().completeExceptionally(new IOException("connection refused"));
        assertThat(queued).isCompletedWithValue(Map.of(PAYMENTS, Errors.COORDINATOR_NOT_AVAILABLE));
        var after = queues.enqueue(COORDINATOR, "c", 3, (short) 0, List.of(ORDERS), false);
        assertThat(sent).as("the queue goes on after a failure").hasSize(3);
        sent.get(2).answer(Map.of("c", Errors.NONE));
        assertThat(after).isCompletedWithValue(Map.of(ORDERS, Errors.NONE));
    }
}
