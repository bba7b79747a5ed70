package io.minibroker.broker.group;

import io.minibroker.broker.group.StreamsConfiguredTopology.InternalTopic;
import io.minibroker.broker.group.StreamsTopology.Subtopology;
import io.minibroker.broker.group.StreamsTopology.TopicInfo;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Topology configuration as Kafka's InternalTopicManager: statuses, and the internal topics' partitions. */
class StreamsTopologyConfigurerTest {

    /** A word count: subtopology 0 reads "input" and writes the repartition topic; 1 reads it and counts. */
    static StreamsTopology wordCount(int epoch) {
        Subtopology split = new Subtopology("0", List.of("input"), List.of("app-repartition"), List.of(), List.of(),
                List.of());
        Subtopology count = new Subtopology("1", List.of(), List.of(),
                List.of(new TopicInfo("app-repartition", 0, (short) 0, Map.of("cleanup.policy", "delete"))),
                List.of(new TopicInfo("app-changelog", 0, (short) 0, Map.of("cleanup.policy", "compact"))), List.of());
        return new StreamsTopology(epoch, new TreeMap<>(Map.of("0", split, "1", count)));
    }

    @Test
    void aMissingSourceTopicIsNamed() {
        StreamsConfiguredTopology configured = StreamsTopologyConfigurer.configure(wordCount(1), topic -> null);
        assertThat(configured.isReady()).isFalse();
        assertThat(configured.status().code()).isEqualTo(StreamsConfiguredTopology.MISSING_SOURCE_TOPICS);
        assertThat(configured.status().detail()).isEqualTo("Source topics input are missing.");
        assertThat(configured.missingInternalTopics()).isEmpty();
    }

    @Test
    void missingInternalTopicsAreSizedFromTheirSourcesAndReturnedToBeCreated() {
        StreamsConfiguredTopology configured = StreamsTopologyConfigurer.configure(wordCount(1),
                Map.of("input", 3)::get);
        assertThat(configured.status().code()).isEqualTo(StreamsConfiguredTopology.MISSING_INTERNAL_TOPICS);
        assertThat(configured.status().detail()).isEqualTo("Internal topics are missing: app-changelog, app-repartition");
        assertThat(configured.missingInternalTopics()).containsExactly(
                new InternalTopic("app-changelog", 3, (short) -1, Map.of("cleanup.policy", "compact")),
                new InternalTopic("app-repartition", 3, (short) -1, Map.of("cleanup.policy", "delete")));
        assertThat(configured.isReady()).isFalse();
    }

    @Test
    void onceTheInternalTopicsExistTheTopologyIsReadyWithItsTasks() {
        StreamsConfiguredTopology configured = StreamsTopologyConfigurer.configure(wordCount(1),
                Map.of("input", 3, "app-repartition", 3, "app-changelog", 3)::get);
        assertThat(configured.isReady()).isTrue();
        assertThat(configured.taskCounts()).containsExactlyEntriesOf(new TreeMap<>(Map.of("0", 3, "1", 3)));
    }

    @Test
    void anInternalTopicWithOtherPartitionsIsIncorrectlyPartitioned() {
        StreamsConfiguredTopology configured = StreamsTopologyConfigurer.configure(wordCount(1),
                Map.of("input", 3, "app-repartition", 3, "app-changelog", 2)::get);
        assertThat(configured.status().code()).isEqualTo(StreamsConfiguredTopology.INCORRECTLY_PARTITIONED_TOPICS);
        assertThat(configured.status().detail())
                .isEqualTo("Existing topic app-changelog has different number of partitions: expected 3, found 2");
    }

    @Test
    void copartitionedUserTopicsMustMatch() {
        Subtopology join = new Subtopology("0", List.of("left", "right"), List.of(), List.of(), List.of(),
                List.of(Set.of("left", "right")));
        StreamsConfiguredTopology configured = StreamsTopologyConfigurer.configure(
                new StreamsTopology(1, new TreeMap<>(Map.of("0", join))), Map.of("left", 2, "right", 4)::get);
        assertThat(configured.status().code()).isEqualTo(StreamsConfiguredTopology.INCORRECTLY_PARTITIONED_TOPICS);
        assertThat(configured.status().detail())
                .isEqualTo("Following topics do not have the same number of partitions: [{left=2, right=4}]");
    }

    @Test
    void aRepartitionTopicNobodyWritesIsAnInvalidTopology() {
        Subtopology reader = new Subtopology("0", List.of(), List.of(),
                List.of(new TopicInfo("orphan", 0, (short) 0, Map.of())), List.of(), List.of());
        assertThatThrownBy(() -> StreamsTopologyConfigurer.configure(
                new StreamsTopology(1, new TreeMap<>(Map.of("0", reader))), new HashMap<String, Integer>()::get))
                .isInstanceOf(StreamsTopologyConfigurer.InvalidTopologyException.class)
                .hasMessageContaining("never used as a sink topic");
    }

    @Test
    void manyTopicsAreSummarizedAfterThree() {
        assertThat(StreamsTopologyConfigurer.summarize(List.of("a", "b", "c", "d", "e")))
                .isEqualTo("a, b, c and 2 additional topics");
    }
}
