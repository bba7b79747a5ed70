package io.minibroker.broker.group;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.minibroker.broker.group.GroupState.COMPLETING_REBALANCE;
import static io.minibroker.broker.group.GroupState.DEAD;
import static io.minibroker.broker.group.GroupState.EMPTY;
import static io.minibroker.broker.group.GroupState.PREPARING_REBALANCE;
import static io.minibroker.broker.group.GroupState.STABLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every pair of classic group states against Kafka's ClassicGroupState table: the legal moves happen, the others
 * throw and leave the group where it was. A group loaded from its record is restored into its state, no move.
 */
class GroupStateTransitionTest {

    /** Each state and the states a group may come to it from, written out independently of {@link GroupState}. */
    private static final Map<GroupState, Set<GroupState>> LEGAL = Map.of(
            EMPTY, EnumSet.of(PREPARING_REBALANCE),
            PREPARING_REBALANCE, EnumSet.of(STABLE, COMPLETING_REBALANCE, EMPTY),
            COMPLETING_REBALANCE, EnumSet.of(PREPARING_REBALANCE),
            STABLE, EnumSet.of(COMPLETING_REBALANCE),
            DEAD, EnumSet.of(STABLE, PREPARING_REBALANCE, COMPLETING_REBALANCE, EMPTY, DEAD));

    static List<Arguments> everyPair() {
        List<Arguments> pairs = new ArrayList<>();
        for (GroupState from : GroupState.values()) {
            for (GroupState to : GroupState.values()) {
                pairs.add(Arguments.of(from, to, LEGAL.get(to).contains(from)));
            }
        }
        return pairs;
    }

    @ParameterizedTest(name = "{0} -> {1}: legal {2}")
    @MethodSource("everyPair")
    void transitionIsCheckedAgainstTheTable(GroupState from, GroupState to, boolean legal) {
        assertThat(to.allowsFrom(from)).isEqualTo(legal);
        ClassicGroup group = groupIn(from);
        if (legal) {
            group.transitionTo(to);
            assertThat(group.state()).isEqualTo(to);
        } else {
            assertThatThrownBy(() -> group.transitionTo(to)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(from.kafkaName()).hasMessageContaining(to.kafkaName());
            assertThat(group.state()).isEqualTo(from);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("states")
    void validPreviousStatesAreKafkas(GroupState state) {
        assertThat(state.validPreviousStates()).isEqualTo(LEGAL.get(state));
    }

    static GroupState[] states() {
        return GroupState.values();
    }

    @Test
    void aGroupLoadedWithMembersIsRestoredStableAndMovesOnFromThere() {
        GroupMetadataRecord.StoredMember member = new GroupMetadataRecord.StoredMember("m-1", null, "client",
                "/127.0.0.1", 60_000, 10_000, new byte[] {1}, new byte[] {2});
        ClassicGroup group = ClassicGroup.restored("loaded",
                new GroupMetadataRecord.StoredGroup("consumer", 7, "range", "m-1", 1_000L, List.of(member)));

        assertThat(group.state()).as("restored straight into the stored state, no transition").isEqualTo(STABLE);
        assertThat(group.generationId).isEqualTo(7);
        assertThat(group.members).containsOnlyKeys("m-1");
        group.transitionTo(PREPARING_REBALANCE);
        assertThat(group.state()).isEqualTo(PREPARING_REBALANCE);
    }

    @Test
    void aGroupLoadedWithoutMembersIsRestoredEmpty() {
        ClassicGroup group = ClassicGroup.restored("loaded",
                new GroupMetadataRecord.StoredGroup("consumer", 3, null, null, 1_000L, List.of()));

        assertThat(group.state()).isEqualTo(EMPTY);
        assertThat(group.emptySinceMs).isEqualTo(1_000L);
        assertThatThrownBy(() -> group.transitionTo(STABLE)).isInstanceOf(IllegalStateException.class);
    }

    /** A new group, walked to {@code state} by legal moves only. */
    private static ClassicGroup groupIn(GroupState state) {
        ClassicGroup group = new ClassicGroup("g");
        List<GroupState> path = switch (state) {
            case EMPTY -> List.of();
            case PREPARING_REBALANCE -> List.of(PREPARING_REBALANCE);
            case COMPLETING_REBALANCE -> List.of(PREPARING_REBALANCE, COMPLETING_REBALANCE);
            case STABLE -> List.of(PREPARING_REBALANCE, COMPLETING_REBALANCE, STABLE);
            case DEAD -> List.of(DEAD);
        };
        path.forEach(group::transitionTo);
        assertThat(group.state()).isEqualTo(state);
        return group;
    }
}
