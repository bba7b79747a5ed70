package io.minibroker.broker.group;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The server-side assignors of consumer-protocol groups: balanced, complete, sticky (both), ranged (range). */
class ConsumerGroupAssignorsTest {

    private static final UUID A = new UUID(0, 1);
    private static final UUID B = new UUID(0, 2);

    private static ConsumerGroupAssignor.MemberSpec member(String id, Set<UUID> topics,
                                                           Map<UUID, Set<Integer>> current) {
        return new ConsumerGroupAssignor.MemberSpec(id, null, topics, current);
    }

    /** How many partitions a member's assignment has. */
    private static int size(Map<UUID, Set<Integer>> assignment) {
        return assignment.values().stream().mapToInt(Set::size).sum();
    }

    /** Every partition of every topic is assigned to exactly one member. */
    private static void assertComplete(Map<String, Map<UUID, Set<Integer>>> assignment,
                                       Map<UUID, Integer> partitions) {
        Map<UUID, Set<Integer>> seen = new HashMap<>();
        assignment.values().forEach(target -> target.forEach((topic, numbers) -> numbers.forEach(p ->
                assertThat(seen.computeIfAbsent(topic, t -> new HashSet<>()).add(p))
                        .as("partition %s-%d assigned once", topic, p).isTrue())));
        partitions.forEach((topic, count) -> assertThat(seen.getOrDefault(topic, Set.of())).hasSize(count));
    }

    @Test
    void uniformSpreadsEvenlyAcrossTopics() {
        Map<UUID, Integer> partitions = Map.of(A, 4, B, 3);
        Map<String, Map<UUID, Set<Integer>>> assignment = new UniformAssignor().assign(List.of(
                member("m1", Set.of(A, B), Map.of()), member("m2", Set.of(A, B), Map.of()),
                member("m3", Set.of(A, B), Map.of())), partitions);
        assertComplete(assignment, partitions);
        assertThat(assignment.values()).allSatisfy(target -> assertThat(size(target))
                .isBetween(2, 3));
    }

    @Test
    void uniformKeepsWhatAMemberHadWhenAnotherJoins() {
        Map<UUID, Integer> partitions = Map.of(A, 6);
        Map<String, Map<UUID, Set<Integer>>> first = new UniformAssignor().assign(List.of(
                member("m1", Set.of(A), Map.of()), member("m2", Set.of(A), Map.of())), partitions);
        Map<String, Map<UUID, Set<Integer>>> second = new UniformAssignor().assign(List.of(
                member("m1", Set.of(A), first.get("m1")), member("m2", Set.of(A), first.get("m2")),
                member("m3", Set.of(A), Map.of())), partitions);
        assertComplete(second, partitions);
        assertThat(first.get("m1").get(A)).containsAll(second.get("m1").get(A));
        assertThat(first.get("m2").get(A)).containsAll(second.get("m2").get(A));
        assertThat(second.values()).allSatisfy(target -> assertThat(size(target)).isEqualTo(2));
    }

    @Test
    void uniformGivesATopicOnlyToItsSubscribers() {
        Map<UUID, Integer> partitions = Map.of(A, 2, B, 4);
        Map<String, Map<UUID, Set<Integer>>> assignment = new UniformAssignor().assign(List.of(
                member("onlyA", Set.of(A), Map.of()), member("both", Set.of(A, B), Map.of())), partitions);
        assertComplete(assignment, partitions);
        assertThat(assignment.get("onlyA")).containsOnlyKeys(A);
        assertThat(assignment.get("both").get(B)).hasSize(4);
    }

    @Test
    void rangeGivesContiguousRangesTheFirstMembersOneMore() {
        Map<UUID, Integer> partitions = Map.of(A, 5, B, 5);
        Map<String, Map<UUID, Set<Integer>>> assignment = new RangeAssignor().assign(List.of(
                member("m2", Set.of(A, B), Map.of()), member("m1", Set.of(A, B), Map.of())), partitions);
        assertComplete(assignment, partitions);
        assertThat(assignment.get("m1")).isEqualTo(Map.of(A, Set.of(0, 1, 2), B, Set.of(0, 1, 2)));
        assertThat(assignment.get("m2")).isEqualTo(Map.of(A, Set.of(3, 4), B, Set.of(3, 4)));
    }

    /** Kafka's range assignor is sticky: a member joining takes what the others can spare, not new ranges. */
    @Test
    void rangeKeepsWhatEachMemberHadUpToItsShare() {
        Map<UUID, Integer> partitions = Map.of(A, 5);
        Map<String, Map<UUID, Set<Integer>>> assignment = new RangeAssignor().assign(List.of(
                member("m1", Set.of(A), Map.of(A, Set.of(0, 1, 2))), member("m2", Set.of(A), Map.of(A, Set.of(3, 4))),
                member("m0", Set.of(A), Map.of())), partitions);
        assertComplete(assignment, partitions);
        assertThat(assignment.get("m1")).isEqualTo(Map.of(A, Set.of(0, 1)));
        assertThat(assignment.get("m2")).isEqualTo(Map.of(A, Set.of(3, 4)));
        assertThat(assignment.get("m0")).isEqualTo(Map.of(A, Set.of(2)));
    }

    @Test
    void theAssignorsAreNamedAsKafkaNamesThem() {
        assertThat(ConsumerGroupAssignor.named("uniform")).isInstanceOf(UniformAssignor.class);
        assertThat(ConsumerGroupAssignor.named("org.apache.kafka.coordinator.group.assignor.RangeAssignor"))
                .isInstanceOf(RangeAssignor.class);
    }

    /**
     * Kafka 4.x's built-in server-side assignors (UniformHomogeneous/HeterogeneousAssignmentBuilder, RangeAssignor)
     * do not look at racks: the rack a member sends is kept (ConsumerGroupDescribe, the records) and reaches the
     * assignor, but the assignment is the one it would be without racks.
     */
    @Test
    void racksDoNotChangeTheBuiltInAssignments() {
        Map<UUID, Integer> partitions = Map.of(A, 5, B, 3);
        for (ConsumerGroupAssignor assignor : List.of(new UniformAssignor(), new RangeAssignor())) {
            Map<String, Map<UUID, Set<Integer>>> withoutRacks = assignor.assign(List.of(
                    member("m1", Set.of(A, B), Map.of()), member("m2", Set.of(A), Map.of()),
                    member("m3", Set.of(A, B), Map.of())), partitions);
            Map<String, Map<UUID, Set<Integer>>> withRacks = assignor.assign(List.of(
                    new ConsumerGroupAssignor.MemberSpec("m1", "rack-c", Set.of(A, B), Map.of()),
                    new ConsumerGroupAssignor.MemberSpec("m2", "rack-a", Set.of(A), Map.of()),
                    new ConsumerGroupAssignor.MemberSpec("m3", "rack-b", Set.of(A, B), Map.of())), partitions);
            assertComplete(withRacks, partitions);
            assertThat(withRacks).as(assignor.name()).isEqualTo(withoutRacks);
        }
    }
}
