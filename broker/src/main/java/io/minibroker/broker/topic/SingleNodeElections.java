package io.minibroker.broker.topic;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ElectLeaders on a single node: the node is the only replica of every partition and leads it, so no election
 * is ever needed; a partition that does not exist is answered as Kafka's controller answers it.
 */
public final class SingleNodeElections implements ElectableTopics {

    private final TopicRegistry topics;

    public SingleNodeElections(TopicRegistry topics) {
        this.topics = topics;
    }

    @Override
    public List<ElectionResult> elect(Type type, String topic, List<Integer> partitions) {
        TopicMetadata metadata = topics.get(topic).orElse(null);
        return partitions.stream()
                .map(p -> metadata == null ? ElectionResult.noSuchTopic(topic)
                        : metadata.hasPartition(p) ? ElectionResult.NOT_NEEDED : ElectionResult.noSuchPartition(topic, p))
                .toList();
    }

    @Override
    public Map<String, Map<Integer, ElectionResult>> electAll(Type type) {
        Map<String, Map<Integer, ElectionResult>> results = new LinkedHashMap<>();
        for (TopicMetadata topic : topics.all()) {
            results.put(topic.name(), Map.of());
        }
        return results;
    }
}
