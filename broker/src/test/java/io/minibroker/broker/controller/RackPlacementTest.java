package io.minibroker.broker.controller;

import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.topic.PartitionRules;
import io.minibroker.protocol.error.Errors;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.placement.ClusterDescriber;
import org.apache.kafka.metadata.placement.PartitionAssignment;
import org.apache.kafka.metadata.placement.PlacementSpec;
import org.apache.kafka.metadata.placement.UsableBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replica placement once brokers have racks, as Kafka 4.3.1's StripedReplicaPlacer: the same replica lists as
 * Kafka's placer for the same random seed, over clusters of every shape (some brokers without a rack, fenced ones);
 * each partition's replicas in as many racks as it can be; leaders spread evenly; and the controller's CreateTopics
 * and CreatePartitions placed that way, while without any rack they stay the round-robin they were.
 */
class RackPlacementTest {

    private static final List<Endpoint> LISTENERS = List.of(new Endpoint("PLAINTEXT", "localhost", 9092));

    @TempDir
    Path dir;

    @Test
    void placesAsKafkasPlacerWithTheSameSeed() {
        Random shapes = new Random(7);
        for (int cluster = 0; cluster < 500; cluster++) {
            int brokers = 1 + shapes.nextInt(9);
            List<Integer> registered = new ArrayList<>();
            Set<Integer> live = new HashSet<>();
            Map<Integer, String> racks = new HashMap<>();
            for (int id = 0; id < brokers; id++) {
                int brokerId = id * 3 + shapes.nextInt(3); // ids with gaps
                registered.add(brokerId);
                if (id == 0 || shapes.nextInt(5) > 0) {
                    live.add(brokerId);
                }
                int rack = shapes.nextInt(4); // 3: no rack
                if (rack < 3) {
                    racks.put(brokerId, "rack-" + rack);
                }
            }
            int replicationFactor = 1 + shapes.nextInt(brokers);
            int partitions = 1 + shapes.nextInt(30);
            long seed = shapes.nextLong();

            List<List<Integer>> ours = new StripedReplicaPlacer(new Random(seed))
                    .place(registered, live, racks, partitions, replicationFactor);
            List<List<Integer>> kafkas = new org.apache.kafka.metadata.placement.StripedReplicaPlacer(new Random(seed))
                    .place(new PlacementSpec(0, partitions, (short) replicationFactor),
                            describer(registered, live, racks))
                    .assignments().stream().map(PartitionAssignment::replicas).toList();
            assertThat(ours).as("cluster %d: %s live %s racks %s, %d partitions of %d", cluster, registered, live,
                    racks, partitions, replicationFactor).isEqualTo(kafkas);
        }
    }

    @Test
    void eachPartitionSpansTheRacksAndLeadersSpreadEvenly() {
        Map<Integer, String> racks = Map.of(0, "a", 1, "a", 2, "b", 3, "b", 4, "c", 5, "c");
        List<Integer> brokers = List.of(0, 1, 2, 3, 4, 5);
        List<List<Integer>> placed = new StripedReplicaPlacer(new Random())
                .place(brokers, Set.copyOf(brokers), racks, 12, 3);

        Map<Integer, Integer> leaderships = new TreeMap<>();
        for (List<Integer> replicas : placed) {
            assertThat(replicas.stream().map(racks::get).distinct()).as("%s", replicas).hasSize(3);
            leaderships.merge(replicas.get(0), 1, Integer::sum);
        }
        assertThat(leaderships).as("each broker leads 2 of 12").containsOnlyKeys(brokers).allSatisfy(
                (broker, led) -> assertThat(led).isEqualTo(2));
    }

    @Test
    void brokersWithoutARackAreARackOfTheirOwnAndFencedOnesNeverLead() {
        // As Kafka's placer: no refusal when only some brokers have a rack; those without one are one more rack.
        Map<Integer, String> racks = Map.of(0, "a", 1, "a");
        List<List<Integer>> placed = new StripedReplicaPlacer(new Random())
                .place(List.of(0, 1, 2, 3), Set.of(0, 1, 2), racks, 20, 2);
        for (List<Integer> replicas : placed) {
            assertThat(replicas.stream().map(id -> racks.getOrDefault(id, "none")).distinct()).as("%s", replicas)
                    .hasSize(2);
            assertThat(replicas.get(0)).as("node 3 is fenced").isNotEqualTo(3);
        }
    }

    @Test
    void theControllerPlacesNewTopicsAndPartitionsOverRacks() throws Exception {
        Map<Integer, String> racks = Map.of(0, "a", 1, "a", 2, "b", 3, "b", 4, "c", 5, "c");
        TopicAssignments assignments = controllerWith(racks);

        assertThat(assignments.create("spread", counts(6, 3), Map.of(), false).error()).isEqualTo(Errors.NONE);
        assertThat(assignments.addPartitions("spread", 9, null, false, added -> true).error()).isEqualTo(Errors.NONE);

        TopicImage topic = assignments.image().topic("spread").orElseThrow();
        assertThat(topic.partitions()).hasSize(9).allSatisfy(partition ->
                assertThat(partition.replicas().stream().map(racks::get).distinct()).as("%s", partition.replicas())
                        .hasSize(3));
    }

    @Test
    void withoutRacksTheControllerKeepsItsRoundRobin() throws Exception {
        TopicAssignments assignments = controllerWith(Map.of());

        assertThat(assignments.create("plain", counts(4, 2), Map.of(), false).error()).isEqualTo(Errors.NONE);

        assertThat(assignments.image().topic("plain").orElseThrow().partitions()).extracting(PartitionImage::replicas)
                .containsExactly(List.of(0, 1), List.of(1, 2), List.of(2, 3), List.of(3, 4));
    }

    /** A controller whose six brokers 0-5 are registered and live, with these racks. */
    private TopicAssignments controllerWith(Map<Integer, String> racks) throws Exception {
        AtomicLong now = new AtomicLong(1_000);
        BrokerMembership membership = new BrokerMembership(9_000, now::get, () -> 0, id -> Long.MAX_VALUE, () -> { });
        for (int id = 0; id < 6; id++) {
            long epoch = membership.register(id, UUID.randomUUID(), LISTENERS, racks.get(id)).epoch();
            membership.heartbeat(id, epoch, 0, false, false);
        }
        return TopicAssignments.open(membership, dir, () -> { });
    }

    private static PartitionRules.NewTopic counts(int partitions, int replicationFactor) {
        return new PartitionRules.NewTopic(partitions, replicationFactor, List.of(), 1, 1);
    }

    private static ClusterDescriber describer(List<Integer> registered, Set<Integer> live, Map<Integer, String> racks) {
        return new ClusterDescriber() {
            @Override
            public Iterator<UsableBroker> usableBrokers() {
                return registered.stream().map(id -> new UsableBroker(id, java.util.Optional.ofNullable(racks.get(id)),
                        !live.contains(id))).iterator();
            }

            @Override
            public Uuid defaultDir(int brokerId) {
                return Uuid.ZERO_UUID;
            }
        };
    }
}
