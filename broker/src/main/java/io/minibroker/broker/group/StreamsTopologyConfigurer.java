package io.minibroker.broker.group;

import io.minibroker.broker.group.StreamsConfiguredTopology.InternalTopic;
import io.minibroker.broker.group.StreamsTopology.Subtopology;
import io.minibroker.broker.group.StreamsTopology.TopicInfo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Checks a streams topology against the topics there are and decides its internal topics' partitions, as Kafka's
 * InternalTopicManager.configureTopics: every user source topic must exist (else MISSING_SOURCE_TOPICS); a
 * repartition topic of undecided size gets the largest partition count among the inputs of the subtopologies that
 * write it; topics that must be co-partitioned (a join) get one count; a changelog topic gets its subtopology's
 * number of tasks (the largest partition count among its inputs); an internal topic that exists with another count
 * is INCORRECTLY_PARTITIONED_TOPICS, and those that do not exist yet are returned to be created
 * (MISSING_INTERNAL_TOPICS until they are). A topology whose repartition topics cannot be sized is invalid
 * ({@link InvalidTopologyException}, the heartbeat's STREAMS_INVALID_TOPOLOGY).
 */
final class StreamsTopologyConfigurer {

    /** How many topics a status names before "and N additional topics", as Kafka's summary. */
    private static final int TOPICS_NAMED = 3;

    /** A topology no topic configuration can run: Kafka's StreamsInvalidTopologyException. */
    static final class InvalidTopologyException extends RuntimeException {
        InvalidTopologyException(String message) {
            super(message);
        }
    }

    /** Thrown inside to end configuration with a status, as Kafka's TopicConfigurationException. */
    private static final class StatusException extends RuntimeException {
        final byte code;

        StatusException(byte code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    private StreamsTopologyConfigurer() {
    }

    /**
     * @param partitions a topic's partition count, or null if the topic does not exist
     * @throws InvalidTopologyException if the repartition topics' sizes cannot be decided
     */
    static StreamsConfiguredTopology configure(StreamsTopology topology, Function<String, Integer> partitions) {
        try {
            throwOnMissingSourceTopics(topology, partitions);
            Map<String, Integer> decided = new HashMap<>();
            Function<String, Integer> count = topic -> {
                Integer existing = partitions.apply(topic);
                return existing != null ? existing : decided.get(topic);
            };
            decideRepartitionTopics(topology, count, decided);
            enforceCopartitioning(topology, count, decided);
            SortedMap<String, Integer> taskCounts = new TreeMap<>();
            for (Subtopology subtopology : topology.subtopologies().values()) {
                int tasks = subtopology.inputTopics().stream().mapToInt(count::apply).max().orElse(0);
                taskCounts.put(subtopology.id(), tasks);
                for (TopicInfo changelog : subtopology.stateChangelogTopics()) {
                    decided.put(changelog.name(), tasks);
                }
            }
            List<InternalTopic> missing = missingInternalTopics(topology, partitions, decided);
            StreamsConfiguredTopology.Status status = missing.isEmpty() ? null
                    : new StreamsConfiguredTopology.Status(StreamsConfiguredTopology.MISSING_INTERNAL_TOPICS,
                    "Internal topics are missing: " + summarize(missing.stream().map(InternalTopic::name).toList()));
            return new StreamsConfiguredTopology(topology.epoch(), taskCounts, missing, status);
        } catch (StatusException e) {
            return StreamsConfiguredTopology.failed(topology.epoch(), e.code, e.getMessage());
        }
    }

    private static void throwOnMissingSourceTopics(StreamsTopology topology, Function<String, Integer> partitions) {
        Set<String> repartitionTopics = new HashSet<>();
        topology.subtopologies().values().forEach(s -> s.repartitionSourceTopics().forEach(t -> repartitionTopics.add(t.name())));
        Set<String> missing = new TreeSet<>();
        for (Subtopology subtopology : topology.subtopologies().values()) {
            for (String topic : subtopology.sourceTopics()) {
                if (!repartitionTopics.contains(topic) && partitions.apply(topic) == null) {
                    missing.add(topic);
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new StatusException(StreamsConfiguredTopology.MISSING_SOURCE_TOPICS,
                    "Source topics " + summarize(missing) + " are missing.");
        }
    }

    /**
     * Kafka's RepartitionTopics: a declared count stands; an undecided one is the largest count among the inputs of
     * the subtopologies writing the topic, found in rounds, as one repartition topic may feed another.
     */
    private static void decideRepartitionTopics(StreamsTopology topology, Function<String, Integer> count,
                                                Map<String, Integer> decided) {
        List<TopicInfo> undecided = new ArrayList<>();
        Set<String> sinks = new HashSet<>();
        for (Subtopology subtopology : topology.subtopologies().values()) {
            sinks.addAll(subtopology.repartitionSinkTopics());
            for (TopicInfo topic : subtopology.repartitionSourceTopics()) {
                if (topic.partitions() != 0) {
                    decided.put(topic.name(), topic.partitions());
                } else {
                    undecided.add(topic); // even if it exists: the count it should have is checked against its own
                }
            }
        }
        for (TopicInfo topic : undecided) {
            if (!sinks.contains(topic.name())) {
                throw new InvalidTopologyException("Failed to compute number of partitions for all repartition "
                        + "topics, because a repartition source topic is never used as a sink topic.");
            }
        }
        while (!undecided.isEmpty()) {
            boolean progress = false;
            for (var it = undecided.iterator(); it.hasNext(); ) {
                TopicInfo topic = it.next();
                Integer max = null;
                for (Subtopology writer : topology.subtopologies().values()) {
                    if (!writer.repartitionSinkTopics().contains(topic.name())) {
                        continue;
                    }
                    for (String input : writer.inputTopics()) {
                        Integer candidate = count.apply(input);
                        if (candidate != null && (max == null || candidate > max)) {
                            max = candidate;
                        }
                    }
                }
                if (max != null) {
                    decided.put(topic.name(), max);
                    it.remove();
                    progress = true;
                }
            }
            if (!progress) {
                throw new InvalidTopologyException("Failed to compute number of partitions for all repartition "
                        + "topics. There may be loops in the topology that cannot be resolved.");
            }
        }
    }

    /**
     * Kafka's CopartitionedTopicsEnforcer: within a co-partition group, the user topics must have one count, which
     * the group's repartition topics of undecided size take; a group of repartition topics only takes the declared
     * count if any (all declared counts equal), else the largest.
     */
    private static void enforceCopartitioning(StreamsTopology topology, Function<String, Integer> count,
                                              Map<String, Integer> decided) {
        Map<String, TopicInfo> repartition = new HashMap<>();
        topology.subtopologies().values().forEach(s -> s.repartitionSourceTopics().forEach(t -> repartition.put(t.name(), t)));
        for (Subtopology subtopology : topology.subtopologies().values()) {
            for (Set<String> group : subtopology.copartitionGroups()) {
                Map<String, Integer> external = new TreeMap<>();
                Map<String, Integer> fixed = new TreeMap<>();
                int largest = 0;
                for (String topic : group) {
                    TopicInfo info = repartition.get(topic);
                    if (info == null) {
                        external.put(topic, count.apply(topic));
                    } else {
                        if (info.partitions() != 0) {
                            fixed.put(topic, info.partitions());
                        }
                        Integer known = count.apply(topic);
                        largest = Math.max(largest, known == null ? 0 : known);
                    }
                }
                int target;
                if (!external.isEmpty()) {
                    if (new HashSet<>(external.values()).size() > 1) {
                        throw new StatusException(StreamsConfiguredTopology.INCORRECTLY_PARTITIONED_TOPICS,
                                "Following topics do not have the same number of partitions: [" + external + "]");
                    }
                    target = external.values().iterator().next();
                } else if (!fixed.isEmpty()) {
                    if (new HashSet<>(fixed.values()).size() > 1) {
                        throw new StatusException(StreamsConfiguredTopology.INCORRECTLY_PARTITIONED_TOPICS,
                                "Following topics do not have the same number of partitions: [" + fixed + "]");
                    }
                    target = fixed.values().iterator().next();
                } else {
                    target = largest;
                }
                for (String topic : group) {
                    TopicInfo info = repartition.get(topic);
                    if (info == null) {
                        continue;
                    }
                    if (info.partitions() != 0 && info.partitions() != target) {
                        throw new StatusException(StreamsConfiguredTopology.INCORRECTLY_PARTITIONED_TOPICS,
                                String.format("Number of partitions [%d] of repartition topic [%s] doesn't match "
                                        + "number of partitions [%d] of the source topic.", info.partitions(), topic, target));
                    }
                    decided.put(topic, target);
                }
            }
        }
    }

    /** The internal topics that do not exist yet, sorted by name; one that exists with another count is refused. */
    private static List<InternalTopic> missingInternalTopics(StreamsTopology topology,
                                                             Function<String, Integer> partitions,
                                                             Map<String, Integer> decided) {
        Map<String, InternalTopic> wanted = new TreeMap<>();
        for (Subtopology subtopology : topology.subtopologies().values()) {
            for (TopicInfo topic : subtopology.repartitionSourceTopics()) {
                wanted.put(topic.name(), internal(topic, decided));
            }
            for (TopicInfo topic : subtopology.stateChangelogTopics()) {
                wanted.put(topic.name(), internal(topic, decided));
            }
        }
        List<InternalTopic> missing = new ArrayList<>();
        for (InternalTopic topic : wanted.values()) {
            Integer existing = partitions.apply(topic.name());
            if (existing == null) {
                missing.add(topic);
            } else if (existing != topic.partitions()) {
                throw new StatusException(StreamsConfiguredTopology.INCORRECTLY_PARTITIONED_TOPICS, "Existing topic "
                        + topic.name() + " has different number of partitions: expected " + topic.partitions()
                        + ", found " + existing);
            }
        }
        return missing;
    }

    private static InternalTopic internal(TopicInfo topic, Map<String, Integer> decided) {
        short replication = topic.replicationFactor() == 0 ? -1 : topic.replicationFactor();
        return new InternalTopic(topic.name(), decided.get(topic.name()), replication, topic.configs());
    }

    /** Kafka's summarizeTopics: the first three names, then how many more. */
    static String summarize(Collection<String> topics) {
        if (topics.isEmpty()) {
            return "<none>";
        }
        String named = String.join(", ", topics.stream().limit(TOPICS_NAMED).toList());
        return topics.size() > TOPICS_NAMED ? named + " and " + (topics.size() - TOPICS_NAMED) + " additional topics"
                : named;
    }
}
