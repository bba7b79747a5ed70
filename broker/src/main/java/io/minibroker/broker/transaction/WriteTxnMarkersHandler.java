package io.minibroker.broker.transaction;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView.WritableTxnMarker;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView.WritableTxnMarkerTopic;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView.WritableTxnMarkerResult;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView.WritableTxnMarkerTopicResult;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * WriteTxnMarkers, which a transaction coordinator sends the leaders of a transaction's partitions: each marker
 * (producer, epoch, coordinator epoch, COMMIT or ABORT, and from v2 its transaction version, by which a TV2 marker's
 * epoch must be above the producer's) is written to each partition named through the
 * {@link TransactionMarkerAppender}, and the response answers every partition with its error once all of them count
 * (Kafka's per-partition errors: UNKNOWN_TOPIC_OR_PARTITION, NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS,
 * INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED, REQUEST_TIMED_OUT, KAFKA_STORAGE_ERROR, ...; a name or
 * index that cannot be a partition, such as -1, is UNKNOWN_TOPIC_OR_PARTITION without an append). Markers
 * are independent: each is written as soon as it is read, and the answer waits for the slowest.
 */
public final class WriteTxnMarkersHandler implements ApiHandler {

    private final TransactionMarkerAppender appender;

    public WriteTxnMarkersHandler(TransactionMarkerAppender appender) {
        this.appender = appender;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        WriteTxnMarkersRequestView body = new WriteTxnMarkersRequestView(request.body());
        WriteTxnMarkersResponseView response = new WriteTxnMarkersResponseView();
        List<CompletableFuture<Void>> answered = new ArrayList<>();
        for (WritableTxnMarker requested : body.markers()) {
            TransactionMarker marker = new TransactionMarker(requested.producerId(), requested.producerEpoch(),
                    requested.coordinatorEpoch(), TransactionResult.of(requested.transactionResult()),
                    requested.transactionVersion());
            Set<TopicPartition> partitions = new LinkedHashSet<>();
            for (WritableTxnMarkerTopic topic : requested.topics()) {
                for (int partition : topic.partitionIndexes()) {
                    if (TopicPartition.isValid(topic.name(), partition)) { // the others cannot exist here
                        partitions.add(new TopicPartition(topic.name(), partition));
                    }
                }
            }
            WritableTxnMarkerResult result = response.addMarker().producerId(requested.producerId());
            answered.add(appender.append(marker, partitions).toCompletableFuture()
                    .thenAccept(errors -> fill(result, requested, errors)));
        }
        return CompletableFuture.allOf(answered.toArray(CompletableFuture[]::new))
                .thenApply(done -> response.struct());
    }

    /** The marker's answer, topic by topic and partition by partition in the order asked. */
    private static void fill(WritableTxnMarkerResult result, WritableTxnMarker requested,
                             Map<TopicPartition, Errors> errors) {
        for (WritableTxnMarkerTopic topic : requested.topics()) {
            WritableTxnMarkerTopicResult topicResult = result.addTopic().name(topic.name());
            for (int partition : topic.partitionIndexes()) {
                Errors error = TopicPartition.isValid(topic.name(), partition)
                        ? errors.get(new TopicPartition(topic.name(), partition)) : Errors.UNKNOWN_TOPIC_OR_PARTITION;
                topicResult.addPartition().partitionIndex(partition).errorCode(error.code());
            }
        }
    }
}
