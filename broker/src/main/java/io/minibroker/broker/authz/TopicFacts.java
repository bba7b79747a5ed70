package io.minibroker.broker.authz;

import java.util.Optional;
import java.util.UUID;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What some checks must know of the topics, as Kafka's handlers ask their metadata cache: a topic id's name (requests
 * that name topics by id are checked by name), whether a topic or one of its partitions exists (for the answers
 * that may tell it once the principal may describe the topic), and whether Metadata may auto-create topics at all
 * ({@code auto.create.topics.enable}).
 */
public record TopicFacts(Function<UUID, Optional<String>> names, Predicate<String> exists,
                         BiPredicate<String, Integer> partitionExists, boolean autoCreate) {

    /** For a table whose checks look up no topic: the controller's, served to the nodes' principals. */
    public static final TopicFacts NONE = new TopicFacts(id -> Optional.empty(), name -> false,
            (name, partition) -> false, false);

    Optional<String> nameOf(UUID id) {
        return names.apply(id);
    }
}
