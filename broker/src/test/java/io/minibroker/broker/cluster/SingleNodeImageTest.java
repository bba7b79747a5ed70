package io.minibroker.broker.cluster;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.topic.TopicRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A single node's image for DescribeTopicPartitions holds every partition of every topic, so it is built once and
 * kept while the topics and the advertised listeners stay as they were, and built again when either changed (it
 * was built at every request: 42,752 of the 45,032 bytes a one-topic request allocated with 100 topics of 4
 * partitions).
 */
class SingleNodeImageTest {

    @TempDir
    Path dir;
    private TopicRegistry topics;
    private final AtomicReference<List<Endpoint>> listeners =
            new AtomicReference<>(List.of(new Endpoint("PLAINTEXT", "localhost", 9092)));
    private Supplier<ClusterMetadata> image;

    @BeforeEach
    void open() throws Exception {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", dir.toString())), Clock.systemUTC());
        topics.create("a", 2, 1, Map.of(), false);
        image = DescribeTopicPartitionsHandler.singleNode(new LocalNode(1, "cluster", listeners::get, null), topics);
    }

    @AfterEach
    void close() throws Exception {
        topics.close();
    }

    @Test
    void keptWhileNothingChanged() {
        ClusterMetadata first = image.get();
        assertThat(first.topic("a").orElseThrow().partitions()).hasSize(2);
        assertThat(image.get()).isSameAs(first);
    }

    @Test
    void builtAgainWhenTheTopicsChange() {
        ClusterMetadata first = image.get();
        topics.create("b", 3, 1, Map.of(), false);
        ClusterMetadata next = image.get();
        assertThat(next.topic("b").orElseThrow().partitions()).hasSize(3);
        topics.addPartitions("a", 4, null, 1, false, added -> true);
        assertThat(image.get().topic("a").orElseThrow().partitions()).hasSize(4);
        assertThat(first.topic("b")).isEmpty();
    }

    @Test
    void builtAgainWhenTheAdvertisedListenersChange() {
        image.get();
        listeners.set(List.of(new Endpoint("PLAINTEXT", "localhost", 9093)));
        assertThat(image.get().brokers("PLAINTEXT")).extracting(ClusterMetadata.BrokerNode::port)
                .containsExactly(9093);
    }
}
