package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.JoinGroupResponseView;
import io.minibroker.protocol.message.view.SyncGroupResponseView;
import io.minibroker.protocol.schema.Struct;

/** The JoinGroup and SyncGroup answers the membership completes; the caller holds the group's lock. */
final class GroupResponses {

    static final int NO_GENERATION = -1;

    private GroupResponses() {
    }

    /** A successful join: the generation, and for the leader every member's metadata for the chosen protocol. */
    static Struct joinResponse(ClassicGroup group, GroupMember member, short version) {
        return joinView(group, member, version).struct();
    }

    /**
     * The join of a static member that took its old id's place in a Stable group without a rebalance, answered as
     * Kafka answers it: the group's assignment stands, so a member that now leads is told to skip computing one
     * (v9+, KIP-814); before v9, which cannot say so, the answer names the previous leader and no members, so that
     * the client does not assign.
     */
    static Struct replacedStaticMemberJoinResponse(ClassicGroup group, GroupMember member, String previousLeaderId,
                                                   short version) {
        if (!member.memberId.equals(group.leaderId)) {
            return joinResponse(group, member, version);
        }
        if (version >= 9) {
            return joinView(group, member, version).skipAssignment(true).struct();
        }
        return baseView(group, member).leader(previousLeaderId).struct();
    }

    private static JoinGroupResponseView joinView(ClassicGroup group, GroupMember member, short version) {
        JoinGroupResponseView response = baseView(group, member).leader(group.leaderId);
        if (member.memberId.equals(group.leaderId)) {
            for (GroupMember each : group.members.values()) {
                response.addMember()
                        .memberId(each.memberId)
                        .groupInstanceId(version >= 5 ? each.groupInstanceId : null)
                        .metadata(each.protocols.get(group.protocolName));
            }
        }
        return response;
    }

    private static JoinGroupResponseView baseView(ClassicGroup group, GroupMember member) {
        return new JoinGroupResponseView()
                .errorCode(Errors.NONE.code())
                .generationId(group.generationId)
                .protocolType(group.protocolType)
                .protocolName(group.protocolName)
                .memberId(member.memberId);
    }

    static Struct joinError(Errors error, String memberId) {
        return new JoinGroupResponseView()
                .errorCode(error.code())
                .generationId(NO_GENERATION)
                .protocolName("")
                .leader("")
                .memberId(memberId)
                .struct();
    }

    static Struct syncResponse(Errors error, byte[] assignment) {
        return new SyncGroupResponseView()
                .errorCode(error.code())
                .assignment(assignment)
                .struct();
    }
}
