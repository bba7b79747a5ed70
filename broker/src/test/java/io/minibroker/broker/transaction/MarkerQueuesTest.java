package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView.WritableTxnMarker;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Markers to another node go as Kafka's TransactionMarkerChannelManager sends them: one WriteTxnMarkers in flight
 * per node, the next carrying every marker queued meanwhile (one marker per producer in a request); each marker
 * gets its own producer's answer. The node is a fake that holds each request until the test answers it.
 */
class MarkerQueuesTest {

    private static final BrokerNode NODE_2 = new BrokerNode(2, "PLAINTEXT", "localhost", 9092);
    private static final BrokerNode NODE_3 = new BrokerNode(3, "PLAINTEXT", "localhost", 9093);
    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);
    private static final TopicPartition PAYMENTS = new TopicPartition("payments", 1);

    /** A request sent and its response, for the test to give. */
    private record Sent(BrokerNode node, WriteTxnMarkersRequestView request, CompletableFuture<Struct> response) {
        List<Long> producers() {
            return request.markers().stream().map(WritableTxnMarker::producerId).toList();
        }

        /** Answers every partition of every marker with {@code error}, markers in the reverse of the asked order. */
        void answer(Errors error) {
            WriteTxnMarkersResponseView answer = new WriteTxnMarkersResponseView();
            List<WritableTxnMarker> reversed = new ArrayList<>(request.markers());
            Collections.reverse(reversed);
            for (WritableTxnMarker marker : reversed) {
                var result = answer.addMarker().producerId(marker.producerId());
                marker.topics().forEach(topic -> {
                    var topicResult = result.addTopic().name(topic.name());
                    topic.partitionIndexes().forEach(partition -> topicResult.addPartition()
                            .partitionIndex(partition).errorCode(error.code()));
                });
            }
            response.complete(answer.struct());
        }
    }

    private final List<Sent> sent = new ArrayList<>();
    private final MarkerQueues queues = new MarkerQueues((node, request) -> {
        CompletableFuture<Struct> response = new CompletableFuture<>();
        synchronized (sent) {
            sent.add(new Sent(node, new WriteTxnMarkersRequestView(request), response));
        }
        return response;
    });

    private static TransactionMarker commit(long producerId) {
        return new TransactionMarker(producerId, (short) 0, 0, TransactionResult.COMMIT, (short) 0);
    }

    @Test
    void transactionsEndingWhileARequestIsInFlightShareTheNextRequest() {
        var first = queues.enqueue(NODE_2, commit(10), List.of(ORDERS));
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).producers()).containsExactly(10L);

        // Two transactions end together while the first request is in flight: they wait, then go as one request.
        var second = queues.enqueue(NODE_2, commit(11), List.of(ORDERS, PAYMENTS));
        var third = queues.enqueue(NODE_2, new TransactionMarker(12, (short) 3, 0, TransactionResult.ABORT, (short) 0),
                List.of(PAYMENTS));
        assertThat(sent).as("one request in flight per node").hasSize(1);

        sent.get(0).answer(Errors.NONE);
        assertThat(first).isCompletedWithValue(Map.of(ORDERS, Errors.NONE));
        assertThat(sent).hasSize(2);
        Sent batch = sent.get(1);
        assertThat(batch.producers()).containsExactly(11L, 12L);
        WritableTxnMarker abort = batch.request().markers().get(1);
        assertThat(abort.transactionResult()).isFalse();
        assertThat(abort.producerEpoch()).isEqualTo((short) 3);
        assertThat(second).isNotDone();

        batch.answer(Errors.NOT_LEADER_OR_FOLLOWER);
        assertThat(second).isCompletedWithValue(Map.of(ORDERS, Errors.NOT_LEADER_OR_FOLLOWER,
                PAYMENTS, Errors.NOT_LEADER_OR_FOLLOWER));
        assertThat(third).isCompletedWithValue(Map.of(PAYMENTS, Errors.NOT_LEADER_OR_FOLLOWER));
        assertThat(sent).as("nothing left to send").hasSize(2);
    }

    @Test
    void eachNodeHasItsOwnQueueAndAProducerHasOneMarkerPerRequest() {
        queues.enqueue(NODE_2, commit(10), List.of(ORDERS));
        var other = queues.enqueue(NODE_3, commit(10), List.of(PAYMENTS));
        assertThat(sent).as("a request to each node").extracting(Sent::node).containsExactly(NODE_2, NODE_3);
        sent.get(1).answer(Errors.NONE);
        assertThat(other).isCompletedWithValue(Map.of(PAYMENTS, Errors.NONE));

        var again = queues.enqueue(NODE_2, commit(20), List.of(ORDERS));
        var sameProducer = queues.enqueue(NODE_2, commit(20), List.of(PAYMENTS));
        var another = queues.enqueue(NODE_2, commit(21), List.of(ORDERS));
        sent.get(0).answer(Errors.NONE);
        assertThat(sent.get(2).producers()).containsExactly(20L, 21L);
        sent.get(2).answer(Errors.NONE);
        assertThat(again).isCompletedWithValue(Map.of(ORDERS, Errors.NONE));
        assertThat(another).isCompletedWithValue(Map.of(ORDERS, Errors.NONE));
        assertThat(sent.get(3).producers()).as("the same producer's next marker, in the next request")
                .containsExactly(20L);
        sent.get(3).answer(Errors.NONE);
        assertThat(sameProducer).isCompletedWithValue(Map.of(PAYMENTS, Errors.NONE));
    }

    @Test
    void eachMarkerCarriesItsTransactionVersionAsKafkaReadsWriteTxnMarkersV2() {
        queues.enqueue(NODE_2, new TransactionMarker(10, (short) 5, 3, TransactionResult.COMMIT, (short) 2),
                List.of(ORDERS));
        queues.enqueue(NODE_2, commit(11), List.of(PAYMENTS));
        sent.get(0).answer(Errors.NONE);

        assertThat(kafkasMarkers(sent.get(0).request()))
                .singleElement().satisfies(marker -> {
                    assertThat(marker.producerId()).isEqualTo(10L);
                    assertThat(marker.producerEpoch()).isEqualTo((short) 5);
                    assertThat(marker.coordinatorEpoch()).isEqualTo(3);
                    assertThat(marker.transactionVersion()).isEqualTo((short) 2);
                });
        assertThat(kafkasMarkers(sent.get(1).request()))
                .singleElement().satisfies(marker -> assertThat(marker.transactionVersion()).isZero());
    }

    /** The request as sent (WriteTxnMarkers at the version the cluster's channels use), parsed by kafka-clients. */
    private static List<org.apache.kafka.common.requests.WriteTxnMarkersRequest.TxnMarkerEntry> kafkasMarkers(
            WriteTxnMarkersRequestView request) {
        short version = ApiKey.WRITE_TXN_MARKERS.highestStableVersion();
        byte[] frame = MessageCodec.encodeRequestToArray(
                new RequestHeader(ApiKey.WRITE_TXN_MARKERS.id(), version, 1, "test"), request.struct());
        ByteBuffer buffer = ByteBuffer.wrap(frame, 4, frame.length - 4);
        org.apache.kafka.common.requests.RequestHeader.parse(buffer);
        return org.apache.kafka.common.requests.WriteTxnMarkersRequest
                .parse(new ByteBufferAccessor(buffer), version).markers();
    }

    @Test
    void aFailedRequestAnswersItsMarkersNotLeaderAndTheQueueGoesOn() {
        var first = queues.enqueue(NODE_2, commit(10), List.of(ORDERS));
        var queued = queues.enqueue(NODE_2, commit(11), List.of(ORDERS));
        sent.get(0).response().completeExceptionally(new IOException("connection refused"));
        assertThat(first).isCompletedWithValue(Map.of(ORDERS, Errors.NOT_LEADER_OR_FOLLOWER));
        assertThat(sent).hasSize(2);
        sent.get(1).answer(Errors.NONE);
        assertThat(queued).isCompletedWithValue(Map.of(ORDERS, Errors.NONE));
    }

    @Test
    void aPartitionOrAProducerTheResponseLeavesOutIsAnUnknownError() {
        var answered = queues.enqueue(NODE_2, commit(10), List.of(ORDERS, PAYMENTS));
        WriteTxnMarkersResponseView partial = new WriteTxnMarkersResponseView();
        partial.addMarker().producerId(10).addTopic().name(ORDERS.topic()).addPartition()
                .partitionIndex(ORDERS.partition()).errorCode(Errors.NONE.code());
        sent.get(0).response().complete(partial.struct());
        assertThat(answered).isCompletedWithValue(Map.of(ORDERS, Errors.NONE, PAYMENTS, Errors.UNKNOWN_SERVER_ERROR));

        var forgotten = queues.enqueue(NODE_2, commit(11), List.of(ORDERS));
        sent.get(1).response().complete(new WriteTxnMarkersResponseView().struct());
        assertThat(forgotten).isCompletedWithValue(Map.of(ORDERS, Errors.UNKNOWN_SERVER_ERROR));
    }
}
