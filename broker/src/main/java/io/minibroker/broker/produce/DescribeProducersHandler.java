package io.minibroker.broker.produce;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.ProducerSnapshot;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeProducersRequestView;
import io.minibroker.protocol.message.view.DescribeProducersRequestView.TopicRequest;
import io.minibroker.protocol.message.view.DescribeProducersResponseView;
import io.minibroker.protocol.message.view.DescribeProducersResponseView.PartitionResponse;
import io.minibroker.protocol.message.view.DescribeProducersResponseView.TopicResponse;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeProducers ({@code kafka-transactions.sh describe-producers}, Admin.describeProducers): the producers
 * each asked partition's log holds batches of, with their epochs, last sequences, last timestamps, last markers'
 * coordinator epochs and the start of the transaction each has open (kafka-transactions.sh find-hanging), from the
 * log's producer state, a leader's and a follower's alike, as Kafka's. UNKNOWN_TOPIC_OR_PARTITION for a partition it
 * does not know, and NOT_LEADER_OR_FOLLOWER for one of the topic's partitions that has no replica here. As Kafka's
 * KafkaApis, an invalid topic name (INVALID_TOPIC_EXCEPTION) and a topic it does not know are answered for each of
 * their partitions with a message, the name's fault or the error's default; a partition's own error has none.
 */
public final class DescribeProducersHandler implements ApiHandler {

    private final TopicRegistry topics;

    public DescribeProducersHandler(TopicRegistry topics) {
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DescribeProducersResponseView response = new DescribeProducersResponseView();
        for (TopicRequest topic : new DescribeProducersRequestView(request.body()).topics()) {
            String name = topic.name();
            TopicResponse topicResponse = response.addTopic().name(name);
            Optional<TopicMetadata> metadata = topics.get(name);
            String invalidName = TopicRegistry.invalidName(name);
            boolean unknown = invalidName == null && topics.known(name).isEmpty();
            for (int index : topic.partitionIndexes()) {
                PartitionResponse result = topicResponse.addPartition().partitionIndex(index);
                if (invalidName != null) {
                    result.errorCode(Errors.INVALID_TOPIC_EXCEPTION.code()).errorMessage(invalidName);
                    continue;
                }
                if (unknown) {
                    result.errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                            .errorMessage(DefaultMessages.of(Errors.UNKNOWN_TOPIC_OR_PARTITION));
                    continue;
                }
                Optional<PartitionLog> log = metadata.flatMap(t -> topics.partitionLog(t, index));
                if (log.isEmpty()) {
                    result.errorCode(topics.partitionNotHere(false, name, null, index).code());
                    continue;
                }
                List<ProducerSnapshot.Entry> producers = new ArrayList<>(log.get().producers());
                producers.sort(Comparator.comparingLong(ProducerSnapshot.Entry::producerId));
                for (ProducerSnapshot.Entry producer : producers) {
                    result.addActiveProducer()
                            .producerId(producer.producerId())
                            .producerEpoch(producer.epoch())
                            .lastSequence(producer.lastSequence())
                            .lastTimestamp(producer.timestamp())
                            .coordinatorEpoch(producer.coordinatorEpoch())
                            .currentTxnStartOffset(producer.currentTxnFirstOffset());
                }
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
