package io.minibroker.broker.authz;

import java.util.Optional;
import java.util.UUID;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * What some checks must know of the topics, as Kafka's handlers ask their metadata cache: a topic id's name (requests
 * that name topics by id are checked by name) and a topic name's id (refusals that carry both), whether a topic or
 * one of its partitions exists (for the answers that may tell it once the principal may describe the topic), and
 * whether Metadata may auto-create topics at all ({@code auto.create.topics.enable}) and DeleteTopics delete any
 * ({@code delete.topic.enable}, which Kafka's controller checks before it authorizes).
 */
public record TopicFacts(Function<UUID, Optional<String>> names, Function<String, Optional<UUID>> ids,
                         BiPredicate<String, Integer> partitionExists, boolean autoCreate, boolean deleteEnabled) {

    /** The id Kafka answers for a topic it does not know, or names without its id. */
    static final UUID ZERO_ID = new UUID(0, 0);

    Optional<String> nameOf(UUID id) {
        return names.apply(id);
    }

    /** The topic's id, or the zero id Kafka answers for a topic it does not know. */
    UUID idOrZero(String name) {
        return ids.apply(name).orElse(ZERO_ID);
    }

    boolean exists(String name) {
        return ids.apply(name).isPresent();
    }
}
