package io.minibroker.broker.group;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A streams group's topology as its members declare it when they join (KIP-1071), Kafka's StreamsTopology: its
 * epoch and its subtopologies, by id. A subtopology reads its source topics (the user's and the repartition topics it
 * consumes), writes repartition topics, and keeps its state in changelog topics; the internal topics (repartition
 * and changelog) are the broker's to create. Immutable; compared whole, as Kafka refuses a changed topology at the
 * same epoch.
 */
record StreamsTopology(int epoch, SortedMap<String, Subtopology> subtopologies) {

    /**
     * An internal topic as declared: a partition count of 0 means undecided (the broker works it out), a
     * replication factor of 0 the broker's default.
     */
    record TopicInfo(String name, int partitions, short replicationFactor, Map<String, String> configs) {
    }

    /**
     * One subtopology: {@code sourceTopics} are the user's input topics, {@code repartitionSourceTopics} the
     * repartition topics it consumes, {@code repartitionSinkTopics} those it produces to, and each set of
     * {@code copartitionGroups} topics whose partitions must match (a join).
     */
    record Subtopology(String id, List<String> sourceTopics, List<String> repartitionSinkTopics,
                       List<TopicInfo> repartitionSourceTopics, List<TopicInfo> stateChangelogTopics,
                       List<Set<String>> copartitionGroups) {

        /** Every topic this subtopology reads: its user source topics and its repartition source topics. */
        List<String> inputTopics() {
            List<String> inputs = new java.util.ArrayList<>(sourceTopics);
            repartitionSourceTopics.forEach(topic -> inputs.add(topic.name()));
            return inputs;
        }
    }

    /**
     * Every topic the subtopologies read (Kafka's source topic map): while a streams group has members, OffsetDelete
     * refuses these topics' commits and they do not expire.
     */
    Set<String> inputTopics() {
        Set<String> inputs = new TreeSet<>();
        subtopologies.values().forEach(subtopology -> inputs.addAll(subtopology.inputTopics()));
        return inputs;
    }

    /**
     * Kafka's requiredTopics: the source, repartition source and changelog topics, those the group's metadata hash
     * covers; sorted, and a new set each time.
     */
    SortedSet<String> requiredTopics() {
        SortedSet<String> topics = new TreeSet<>();
        for (Subtopology subtopology : subtopologies.values()) {
            topics.addAll(subtopology.sourceTopics());
            subtopology.repartitionSourceTopics().forEach(topic -> topics.add(topic.name()));
            subtopology.stateChangelogTopics().forEach(topic -> topics.add(topic.name()));
        }
        return topics;
    }

    /** Every topic the topology names, sorted: the required ones and the repartition sinks. */
    Set<String> topics() {
        Set<String> topics = requiredTopics();
        subtopologies.values().forEach(subtopology -> topics.addAll(subtopology.repartitionSinkTopics()));
        return topics;
    }
}
