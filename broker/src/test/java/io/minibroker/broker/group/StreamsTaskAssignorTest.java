package io.minibroker.broker.group;

import io.minibroker.broker.group.StreamsTaskAssignor.Member;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** The sticky task assignor: balanced, sticky active tasks; standbys on other processes. */
class StreamsTaskAssignorTest {

    private static final TreeMap<String, Integer> SIX_TASKS = new TreeMap<>(Map.of("0", 3, "1", 3));

    private static StreamsTasks active(Map<String, Set<Integer>> tasks) {
        return new StreamsTasks(tasks, Map.of(), Map.of());
    }

    @Test
    void everyTaskIsActiveOnceAndMembersAreBalanced() {
        Map<String, StreamsTasks> result = StreamsTaskAssignor.assign(List.of(new Member("a", "p1", StreamsTasks.EMPTY),
                new Member("b", "p2", StreamsTasks.EMPTY), new Member("c", "p3", StreamsTasks.EMPTY)), SIX_TASKS, 0);
        assertThat(result.values()).allSatisfy(tasks -> assertThat(StreamsTasks.count(tasks.active())).isEqualTo(2));
        StreamsTasks all = result.values().stream().reduce(StreamsTasks.EMPTY, StreamsTasks::union);
        assertThat(all.active()).isEqualTo(Map.of("0", Set.of(0, 1, 2), "1", Set.of(0, 1, 2)));
        assertThat(all.standby()).isEmpty();
    }

    @Test
    void aNewMemberTakesItsShareWhileTheOthersKeepTheRest() {
        StreamsTasks aHad = active(Map.of("0", Set.of(0, 1, 2)));
        StreamsTasks bHad = active(Map.of("1", Set.of(0, 1, 2)));
        Map<String, StreamsTasks> result = StreamsTaskAssignor.assign(List.of(new Member("a", "p1", aHad),
                new Member("b", "p2", bHad), new Member("c", "p3", StreamsTasks.EMPTY)), SIX_TASKS, 0);
        assertThat(result.values()).allSatisfy(tasks -> assertThat(StreamsTasks.count(tasks.active())).isEqualTo(2));
        assertThat(aHad.containsAll(result.get("a"))).isTrue();
        assertThat(bHad.containsAll(result.get("b"))).isTrue();
    }

    @Test
    void aLeaversTasksGoToTheOthersWhoKeepTheirOwn() {
        StreamsTasks aHad = active(Map.of("0", Set.of(0, 1)));
        StreamsTasks bHad = active(Map.of("0", Set.of(2), "1", Set.of(0)));
        Map<String, StreamsTasks> result = StreamsTaskAssignor.assign(List.of(new Member("a", "p1", aHad),
                new Member("b", "p2", bHad)), SIX_TASKS, 0);
        assertThat(result.get("a").containsAll(aHad)).isTrue();
        assertThat(result.get("b").containsAll(bHad)).isTrue();
        assertThat(StreamsTasks.count(result.get("a").active())).isEqualTo(3);
        assertThat(StreamsTasks.count(result.get("b").active())).isEqualTo(3);
    }

    @Test
    void standbysGoToAnotherProcessThanTheActiveCopy() {
        Map<String, StreamsTasks> result = StreamsTaskAssignor.assign(List.of(new Member("a1", "p1", StreamsTasks.EMPTY),
                new Member("a2", "p1", StreamsTasks.EMPTY), new Member("b", "p2", StreamsTasks.EMPTY)), SIX_TASKS, 1);
        Map<String, Set<Integer>> p1Active = TopicAssignment.union(result.get("a1").active(), result.get("a2").active());
        Map<String, Set<Integer>> p1Standby = TopicAssignment.union(result.get("a1").standby(), result.get("a2").standby());
        assertThat(TopicAssignment.intersection(p1Active, p1Standby)).isEmpty();
        assertThat(TopicAssignment.intersection(result.get("b").active(), result.get("b").standby())).isEmpty();
        assertThat(StreamsTasks.count(p1Standby) + StreamsTasks.count(result.get("b").standby())).isEqualTo(6);
    }

    @Test
    void withOneProcessThereIsNoStandby() {
        Map<String, StreamsTasks> result = StreamsTaskAssignor.assign(List.of(new Member("a1", "p1", StreamsTasks.EMPTY),
                new Member("a2", "p1", StreamsTasks.EMPTY)), SIX_TASKS, 1);
        assertThat(result.values()).allSatisfy(tasks -> assertThat(tasks.standby()).isEmpty());
    }
}
