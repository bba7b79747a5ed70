package io.minibroker.broker.cluster;

import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.MetadataResponseView;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntPredicate;

/**
 * One immutable image of the cluster's metadata, as the controller publishes it and every broker answers
 * Metadata from it: the live brokers (at every listener they advertise), the fenced ones apart, and each topic's
 * partitions with leader, leader epoch, replicas, ISR and offline replicas. It travels from the controller to the brokers as a
 * Metadata response, so it reads itself from one and writes itself into one.
 */
public record ClusterMetadata(List<BrokerNode> brokers, Map<String, TopicImage> topics,
                              List<BrokerNode> fencedBrokers) {

    private static final int NO_LEADER = -1;
    /**
     * In front of the listener's name in the rack field of a fenced broker's endpoint, on the controller's link only
     * (see {@link #describeImage}).
     */
    private static final String FENCED = "fenced:";
    /** Kafka's MetadataResponse.NO_CONTROLLER_ID. */
    private static final int NO_CONTROLLER = -1;

    /**
     * Between the listener's name and the broker's rack in the rack field on the controller's link: a listener's name
     * never holds it, being what comes before it in {@code NAME://host:port}.
     */
    private static final String RACK_SEPARATOR = "://";

    /** A live broker's endpoint on one of its listeners, and its {@code broker.rack} (null: none). */
    public record BrokerNode(int id, String listener, String host, int port, String rack) {

        /** A broker without a rack. */
        public BrokerNode(int id, String listener, String host, int port) {
            this(id, listener, host, port, null);
        }
    }

    /**
     * A topic: its id, partitions and config overrides. The overrides do not travel in the Metadata response the
     * image is read from; a broker fetches them with a DescribeConfigs of its own ({@link MetadataFetcher}).
     */
    public record TopicImage(String name, UUID id, List<PartitionImage> partitions, Map<String, String> configs) {

        public TopicImage {
            partitions = List.copyOf(partitions);
            configs = Map.copyOf(configs);
        }

        /** A topic without config overrides. */
        public TopicImage(String name, UUID id, List<PartitionImage> partitions) {
            this(name, id, partitions, Map.of());
        }

        /** This topic with other partitions, the same id and configs. */
        public TopicImage withPartitions(List<PartitionImage> newPartitions) {
            return new TopicImage(name, id, newPartitions, configs);
        }

        /** This topic with other config overrides. */
        public TopicImage withConfigs(Map<String, String> newConfigs) {
            return new TopicImage(name, id, partitions, newConfigs);
        }
    }

    /**
     * A partition: its leader and epoch, every replica, the ISR and the replicas not live; while it is being
     * reassigned, as Kafka's PartitionRecord, {@code replicas} holds the target and the replicas leaving,
     * {@code addingReplicas} the target's newcomers and {@code removingReplicas} those leaving (only the controller
     * keeps these two: a broker's image, read from a Metadata answer, has them empty, as it needs only the replicas).
     */
    public record PartitionImage(int index, int leader, int leaderEpoch, List<Integer> replicas, List<Integer> isr,
                                 List<Integer> offlineReplicas, List<Integer> addingReplicas,
                                 List<Integer> removingReplicas) {

        /** A partition that is not being reassigned. */
        public PartitionImage(int index, int leader, int leaderEpoch, List<Integer> replicas, List<Integer> isr,
                              List<Integer> offlineReplicas) {
            this(index, leader, leaderEpoch, replicas, isr, offlineReplicas, List.of(), List.of());
        }

        /** Whether a reassignment is in progress: Kafka's isReassignmentInProgress. */
        public boolean reassigning() {
            return !addingReplicas.isEmpty() || !removingReplicas.isEmpty();
        }
    }

    /** What a broker knows before its first fetch from the controller: no brokers, no topics. */
    public static ClusterMetadata empty() {
        return new ClusterMetadata(List.of(), Map.of());
    }

    public ClusterMetadata {
        brokers = List.copyOf(brokers);
        topics = Map.copyOf(topics);
        fencedBrokers = List.copyOf(fencedBrokers);
    }

    /** An image without fenced brokers. */
    public ClusterMetadata(List<BrokerNode> brokers, Map<String, TopicImage> topics) {
        this(brokers, topics, List.of());
    }

    public Optional<TopicImage> topic(String name) {
        return Optional.ofNullable(topics.get(name));
    }

    public Optional<TopicImage> topic(UUID id) {
        return topics.values().stream().filter(topic -> topic.id().equals(id)).findFirst();
    }

    /** The brokers' endpoints on one listener only, each broker once; a broker without that listener is left out. */
    public List<BrokerNode> brokers(String listener) {
        return brokers.stream().filter(broker -> broker.listener().equals(listener)).toList();
    }

    /** The fenced brokers' endpoints on one listener, each broker once. */
    public List<BrokerNode> fencedBrokers(String listener) {
        return fencedBrokers.stream().filter(broker -> broker.listener().equals(listener)).toList();
    }

    /** This image with the brokers' endpoints on one listener only (replication reads the inter-broker one). */
    public ClusterMetadata forListener(String listener) {
        return new ClusterMetadata(brokers(listener), topics, fencedBrokers(listener));
    }

    /** This image with each topic's config overrides as given (a topic not given keeps none). */
    public ClusterMetadata withTopicConfigs(Map<String, Map<String, String>> configs) {
        Map<String, TopicImage> configured = new LinkedHashMap<>();
        topics.forEach((name, topic) -> configured.put(name, topic.withConfigs(configs.getOrDefault(name, Map.of()))));
        return new ClusterMetadata(brokers, configured, fencedBrokers);
    }

    /**
     * Reads the image from the controller's answer to a Metadata request for every topic. The controller lists
     * each broker once per listener, with the listener's name and the broker's rack in the rack field (see
     * {@link #describeImage}).
     */
    public static ClusterMetadata from(MetadataResponseView response) {
        List<BrokerNode> brokers = new ArrayList<>();
        List<BrokerNode> fenced = new ArrayList<>();
        for (MetadataResponseView.MetadataResponseBroker broker : response.brokers()) {
            boolean isFenced = broker.rack().startsWith(FENCED);
            String listenerAndRack = isFenced ? broker.rack().substring(FENCED.length()) : broker.rack();
            int separator = listenerAndRack.indexOf(RACK_SEPARATOR);
            String listener = separator < 0 ? listenerAndRack : listenerAndRack.substring(0, separator);
            String rack = separator < 0 ? null : listenerAndRack.substring(separator + RACK_SEPARATOR.length());
            (isFenced ? fenced : brokers).add(new BrokerNode(broker.nodeId(), listener, broker.host(), broker.port(),
                    rack));
        }
        Map<String, TopicImage> topics = new LinkedHashMap<>();
        for (MetadataResponseView.MetadataResponseTopic topic : response.topics()) {
            List<PartitionImage> partitions = topic.partitions().stream()
                    .map(p -> new PartitionImage(p.partitionIndex(), p.leaderId(), p.leaderEpoch(),
                            List.copyOf(p.replicaNodes()), List.copyOf(p.isrNodes()), List.copyOf(p.offlineReplicas())))
                    .toList();
            topics.put(topic.name(), new TopicImage(topic.name(), topic.topicId(), partitions));
        }
        return new ClusterMetadata(brokers, topics, fenced);
    }

    /**
     * The ControllerId a client is told, in Metadata and DescribeCluster: as Kafka's KRaft brokers answer it, a live
     * broker picked at random each time, since a client cannot reach the controller itself (KIP-590) and any broker
     * takes the requests once sent to it; -1 while no broker is live. An endpoint is picked, which picks its broker
     * as evenly as brokers register the same listeners, without a list of ids made per request.
     */
    public int randomAliveBrokerId() {
        return brokers.isEmpty() ? NO_CONTROLLER
                : brokers.get(ThreadLocalRandom.current().nextInt(brokers.size())).id();
    }

    /**
     * Writes the ControllerId and the brokers at their endpoints on {@code listener}, with their racks, into a
     * client's answer.
     */
    public void describeCluster(MetadataResponseView response, String listener) {
        response.controllerId(randomAliveBrokerId());
        for (BrokerNode broker : brokers(listener)) {
            response.addBroker().nodeId(broker.id()).host(broker.host()).port(broker.port()).rack(broker.rack());
        }
    }

    /**
     * Writes every endpoint of every broker, for the brokers' image fetch: a broker appears
     * once per listener, the listener's name in the rack field (this link only; clients never see it), followed by
     * {@value #RACK_SEPARATOR} and the broker's rack if it has one, behind {@value #FENCED} for a registered broker
     * that is fenced (DescribeCluster v2 lists those when asked).
     */
    public void describeImage(MetadataResponseView response) {
        for (BrokerNode broker : brokers) {
            response.addBroker().nodeId(broker.id()).host(broker.host()).port(broker.port()).rack(imageRack(broker));
        }
        for (BrokerNode broker : fencedBrokers) {
            response.addBroker().nodeId(broker.id()).host(broker.host()).port(broker.port())
                    .rack(FENCED + imageRack(broker));
        }
    }

    private static String imageRack(BrokerNode broker) {
        return broker.rack() == null ? broker.listener() : broker.listener() + RACK_SEPARATOR + broker.rack();
    }

    /** Writes a topic and its partitions, as the image has them, into a Metadata response's topic entry. */
    public static void describe(TopicImage topic, MetadataResponseView.MetadataResponseTopic result) {
        describe(topic, result, leader -> true);
    }

    /**
     * Which leaders a client on {@code listener} can reach: the brokers live in this image with an endpoint there.
     * Worked out once per request and given to {@link #describe(TopicImage, MetadataResponseView.MetadataResponseTopic,
     * IntPredicate)} for each topic.
     */
    public IntPredicate reachableOn(String listener) {
        Set<Integer> reachable = new HashSet<>();
        brokers(listener).forEach(broker -> reachable.add(broker.id()));
        return reachable::contains;
    }

    /**
     * Writes a topic into a client's answer: a partition whose leader is not {@code leaderReachable} (a fenced broker
     * the controller has not replaced yet) has no leader, LEADER_NOT_AVAILABLE, as Kafka's KRaftMetadataCache answers
     * it, so that clients wait for the new leader instead of sending to a dead one.
     */
    public static void describe(TopicImage topic, MetadataResponseView.MetadataResponseTopic result,
                                IntPredicate leaderReachable) {
        result.name(topic.name()).topicId(topic.id()).errorCode(Errors.NONE.code())
                .isInternal(InternalTopics.isInternal(topic.name()));
        for (PartitionImage partition : topic.partitions()) {
            boolean led = partition.leader() >= 0 && leaderReachable.test(partition.leader());
            result.addPartition()
                    .partitionIndex(partition.index())
                    .leaderId(led ? partition.leader() : NO_LEADER)
                    .leaderEpoch(partition.leaderEpoch())
                    .replicaNodes(partition.replicas())
                    .isrNodes(partition.isr())
                    .offlineReplicas(partition.offlineReplicas())
                    .errorCode(led ? Errors.NONE.code() : Errors.LEADER_NOT_AVAILABLE.code());
        }
    }
}
