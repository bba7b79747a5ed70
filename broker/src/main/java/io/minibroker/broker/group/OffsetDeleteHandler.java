package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.OffsetDeleteRequestView;
import io.minibroker.protocol.message.view.OffsetDeleteRequestView.OffsetDeleteRequestPartition;
import io.minibroker.protocol.message.view.OffsetDeleteRequestView.OffsetDeleteRequestTopic;
import io.minibroker.protocol.message.view.OffsetDeleteResponseView;
import io.minibroker.protocol.message.view.OffsetDeleteResponseView.OffsetDeleteResponseTopic;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * OffsetDelete ({@code kafka-consumer-groups --delete-offsets}, Admin.deleteConsumerGroupOffsets), in Kafka's two
 * steps: a partition of a topic this broker does not know, or past its partitions, is UNKNOWN_TOPIC_OR_PARTITION;
 * the coordinator answers the rest ({@link GroupCoordinator#deleteOffsets}). An error for the whole group comes
 * back with no topics, as Kafka's does. As Kafka's answer, every partition asked is answered, one asked twice twice,
 * within one entry per topic: first the partitions this broker does not know (KafkaApis.handleOffsetDeleteRequest
 * adds them to its answer before it merges the coordinator's), then the coordinator's, each in the order asked.
 */
public final class OffsetDeleteHandler implements ApiHandler {

    private final GroupCoordinator coordinator;
    private final TopicRegistry topics;

    public OffsetDeleteHandler(GroupCoordinator coordinator, TopicRegistry topics) {
        this.coordinator = coordinator;
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        OffsetDeleteRequestView body = new OffsetDeleteRequestView(request.body());
        String groupId = body.groupId();
        // What was asked, which need not name a partition at all (an empty name, a negative index).
        List<Asked> unknown = new ArrayList<>();
        List<Asked> coordinated = new ArrayList<>();
        List<TopicPartition> toCoordinator = new ArrayList<>();
        for (OffsetDeleteRequestTopic topic : body.topics()) {
            String name = topic.name();
            Optional<TopicMetadata> known = topics.known(name);
            for (OffsetDeleteRequestPartition partition : topic.partitions()) {
                int index = partition.partitionIndex();
                if (known.isEmpty() || !known.get().hasPartition(index)) {
                    unknown.add(new Asked(name, index, Errors.UNKNOWN_TOPIC_OR_PARTITION));
                } else {
                    coordinated.add(new Asked(name, index, null)); // the coordinator's to answer
                    toCoordinator.add(new TopicPartition(name, index));
                }
            }
        }
        return coordinator.deleteOffsets(groupId, toCoordinator).thenApply(deletion -> {
            OffsetDeleteResponseView response = new OffsetDeleteResponseView().errorCode(deletion.error().code());
            if (deletion.error() != Errors.NONE) {
                return response.struct();
            }
            Map<String, OffsetDeleteResponseTopic> byTopic = new HashMap<>();
            for (List<Asked> answered : List.of(unknown, coordinated)) {
                for (Asked asked : answered) {
                    Errors error = asked.error() != null ? asked.error()
                            : deletion.partitions().get(new TopicPartition(asked.topic(), asked.partition()));
                    byTopic.computeIfAbsent(asked.topic(), name -> response.addTopic().name(name))
                            .addPartition().partitionIndex(asked.partition()).errorCode(error.code());
                }
            }
            return response.struct();
        });
    }

    /** A partition as the request names it, and its answer where it is not the coordinator's (else null). */
    private record Asked(String topic, int partition, Errors error) {
    }
}
