package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/** ClassicGroup's own bookkeeping of its members: who leads, who holds a static instance, who is fenced. */
class ClassicGroupMembersTest {

    private final ClassicGroup group = new ClassicGroup("g");

    @Test
    void theFirstMemberSetsTheProtocolTypeAndLeads() {
        group.add(member("a", null), "consumer");
        group.add(member("b", null), "other");

        assertThat(group.protocolType).isEqualTo("consumer");
        assertThat(group.leaderId).isEqualTo("a");
        assertThat(group.members).containsOnlyKeys("a", "b");
    }

    @Test
    void aLeaderLeavingHandsLeadershipToTheFirstMemberLeft() {
        GroupMember a = member("a", "instance-a");
        group.add(a, "consumer");
        group.add(member("b", null), "consumer");

        group.remove(a);

        assertThat(group.leaderId).isEqualTo("b");
        assertThat(group.staticMembers).isEmpty();
        group.remove(group.members.get("b"));
        assertThat(group.leaderId).isNull();
    }

    @Test
    void aStaticMembersReplacementTakesItsPlaceAndLeadershipAndFencesTheOldId() {
        GroupMember old = member("old", "instance");
        group.add(old, "consumer");
        GroupMember replacement = member("new", "instance");

        group.replace(old, replacement);

        assertThat(group.members).containsOnlyKeys("new");
        assertThat(group.leaderId).isEqualTo("new");
        assertThat(group.staticMembers).containsEntry("instance", "new");
        assertThat(group.checkInstance("instance", "old")).isEqualTo(Errors.FENCED_INSTANCE_ID);
        assertThat(group.checkInstance("instance", "new")).isEqualTo(Errors.NONE);
        assertThat(group.checkInstance(null, "old")).isEqualTo(Errors.NONE);
        assertThat(group.checkInstance("unknown", "new")).as("Kafka's validateMember")
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void onlyAMemberOfTheCurrentGenerationOfALiveGroupPassesTheMemberCheck() {
        group.add(member("a", null), "consumer");
        assertThat(group.checkMember(0, "a", null)).as("Empty").isEqualTo(Errors.UNKNOWN_MEMBER_ID);

        group.transitionTo(GroupState.PREPARING_REBALANCE);
        group.transitionTo(GroupState.COMPLETING_REBALANCE);
        group.generationId = 1;

        assertThat(group.checkMember(1, "a", null)).isEqualTo(Errors.NONE);
        assertThat(group.checkMember(0, "a", null)).isEqualTo(Errors.ILLEGAL_GENERATION);
        assertThat(group.checkMember(1, "stranger", null)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);

        group.transitionTo(GroupState.DEAD);
        assertThat(group.checkMember(1, "a", null)).as("deleted meanwhile: find the coordinator again")
                .isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
    }

    private static GroupMember member(String memberId, String groupInstanceId) {
        GroupMember member = new GroupMember(memberId, groupInstanceId, "client", "/127.0.0.1");
        member.protocols = new LinkedHashMap<>();
        return member;
    }
}
