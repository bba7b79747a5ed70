package io.minibroker.broker.group;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The share groups' simple assignor: every partition assigned, shared only when members outnumber partitions. */
class ShareGroupAssignorTest {

    private static final UUID A = new UUID(0, 1);
    private static final UUID B = new UUID(0, 2);

    /** Each topic's partitions, by who holds them. */
    private static Map<Integer, Set<String>> holders(Map<String, Map<UUID, Set<Integer>>> assignment, UUID topic) {
        Map<Integer, Set<String>> holders = new HashMap<>();
        assignment.forEach((member, target) -> target.getOrDefault(topic, Set.of()).forEach(p ->
                holders.computeIfAbsent(p, k -> new TreeSet<>()).add(member)));
        return holders;
    }

    @Test
    void fewerMembersThanPartitionsEachPartitionOnce() {
        Map<String, Map<UUID, Set<Integer>>> assignment = ShareGroupAssignor.assign(
                Map.of("m1", Set.of(A), "m2", Set.of(A)), Map.of(A, List.of(0, 1, 2, 3, 4)));
        assertThat(holders(assignment, A)).hasSize(5).allSatisfy((p, members) -> assertThat(members).hasSize(1));
        assertThat(assignment.get("m1").get(A)).containsExactly(0, 2, 4);
        assertThat(assignment.get("m2").get(A)).containsExactly(1, 3);
    }

    @Test
    void moreMembersThanPartitionsShareThem() {
        Map<String, Map<UUID, Set<Integer>>> assignment = ShareGroupAssignor.assign(
                Map.of("m1", Set.of(A), "m2", Set.of(A), "m3", Set.of(A)), Map.of(A, List.of(0, 1)));
        assertThat(assignment.values()).allSatisfy(target -> assertThat(target.get(A)).hasSize(1));
        assertThat(holders(assignment, A)).containsOnlyKeys(0, 1);
        assertThat(holders(assignment, A).get(0)).containsExactly("m1", "m3");
    }

    @Test
    void eachTopicGoesToItsOwnSubscribers() {
        Map<String, Map<UUID, Set<Integer>>> assignment = ShareGroupAssignor.assign(
                Map.of("m1", Set.of(A, B), "m2", Set.of(B), "m3", Set.of()), Map.of(A, List.of(0, 1), B, List.of(0, 1)));
        assertThat(assignment.get("m1").get(A)).containsExactly(0, 1);
        assertThat(assignment.get("m1").get(B)).containsExactly(0);
        assertThat(assignment.get("m2")).containsOnlyKeys(B);
        assertThat(assignment.get("m3")).isEmpty();
        assertThat(ShareGroupAssignor.assign(Map.of("m1", Set.of(A)), Map.of()).get("m1")).as("a topic gone")
                .isEmpty();
    }

    @Test
    void onlyTheAssignablePartitionsAreDealt() {
        Map<String, Map<UUID, Set<Integer>>> assignment = ShareGroupAssignor.assign(
                Map.of("m1", Set.of(A), "m2", Set.of(A)), Map.of(A, List.of(1, 3, 4)));
        assertThat(assignment.get("m1").get(A)).containsExactly(1, 4);
        assertThat(assignment.get("m2").get(A)).containsExactly(3);
    }
}
