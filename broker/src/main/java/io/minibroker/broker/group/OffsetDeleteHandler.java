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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * OffsetDelete ({@code kafka-consumer-groups --delete-offsets}, Admin.deleteConsumerGroupOffsets), in Kafka's two
 * steps: a partition of a topic this broker does not know, or past its partitions, is UNKNOWN_TOPIC_OR_PARTITION;
 * the coordinator answers the rest ({@link GroupCoordinator#deleteOffsets}). An error for the whole group comes
 * back with no topics, as Kafka's does.
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
        // Keyed by what was asked, which need not name a partition at all (an empty name, a negative index).
        Map<Asked, Errors> answers = new LinkedHashMap<>();
        List<TopicPartition> toCoordinator = new ArrayList<>();
        for (OffsetDeleteRequestTopic topic : body.topics()) {
            String name = topic.name();
            Optional<TopicMetadata> known = topics.known(name);
            for (OffsetDeleteRequestPartition partition : topic.partitions()) {
                int index = partition.partitionIndex();
                Asked asked = new Asked(name, index);
                if (known.isEmpty() || !known.get().hasPartition(index)) {
                    answers.put(asked, Errors.UNKNOWN_TOPIC_OR_PARTITION);
                } else {
                    answers.put(asked, null); // the coordinator's to answer, in the order asked
                    toCoordinator.add(new TopicPartition(name, index));
                }
            }
        }
        return coordinator.deleteOffsets(groupId, toCoordinator).thenApply(deletion -> {
            OffsetDeleteResponseView response = new OffsetDeleteResponseView().errorCode(deletion.error().code());
            if (deletion.error() != Errors.NONE) {
                return response.struct();
            }
            Map<String, OffsetDeleteResponseTopic> byTopic = new LinkedHashMap<>();
            answers.forEach((asked, error) -> byTopic
                    .computeIfAbsent(asked.topic(), name -> response.addTopic().name(name))
                    .addPartition().partitionIndex(asked.partition())
                    .errorCode((error != null ? error
                            : deletion.partitions().get(new TopicPartition(asked.topic(), asked.partition()))).code()));
            return response.struct();
        });
    }

    /** A partition as the request names it. */
    private record Asked(String topic, int partition) {
    }
}
