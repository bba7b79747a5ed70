package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.JoinGroupResponseView;
import io.minibroker.protocol.message.view.SyncGroupResponseView;
import io.minibroker.protocol.schema.Struct;

/** The JoinGroup and SyncGroup answers the membership completes; the caller holds the group's lock. */
final class GroupResponses {

    static final int NO_GENERATION = -1;
    /** Kafka's JoinGroupRequest.UNKNOWN_MEMBER_ID: no member id. */
    static final String UNKNOWN_MEMBER_ID = "";

    private GroupResponses() {
    }

    /** A successful join: the generation, and for the leader every member's metadata for the chosen protocol. */
    static Struct joinResponse(ClassicGroup group, GroupMember member, short version) {
        return joined(group, member, group.leaderId, version, member.memberId.equals(group.leaderId)).struct();
    }

    /**
     * The join of a static member's new id that took the old one's place without a rebalance (KIP-814). From v9
     * a new leader gets the members with SkipAssignment: the assignment stands, it must not compute another. An
     * older client cannot be told to skip it, so it is told the leader it replaced (as Kafka does): not itself,
     * it computes nothing and syncs for its own assignment.
     */
    static Struct staticReplacementJoinResponse(ClassicGroup group, GroupMember member, String replacedLeader,
                                                short version) {
        if (version < 9) {
            return joined(group, member, replacedLeader, version, false).struct();
        }
        boolean leads = member.memberId.equals(group.leaderId);
        return joined(group, member, group.leaderId, version, leads).skipAssignment(leads).struct();
    }

    private static JoinGroupResponseView joined(ClassicGroup group, GroupMember member, String leader,
                                                short version, boolean withMembers) {
        JoinGroupResponseView response = new JoinGroupResponseView()
                .errorCode(Errors.NONE.code())
                .generationId(group.generationId)
                .protocolType(group.protocolType)
                .protocolName(group.protocolName)
                .leader(leader)
                .memberId(member.memberId);
        if (withMembers) {
            for (GroupMember each : group.members.values()) {
                response.addMember()
                        .memberId(each.memberId)
                        .groupInstanceId(version >= 5 ? each.groupInstanceId : null)
                        .metadata(each.protocols.get(group.protocolName));
            }
        }
        return response;
    }

    /**
     * A join Kafka's coordinator refuses by throwing, or for a group classic members cannot join (a share group, a
     * streams group with members): its answer is a bare JoinGroupResponseData with the error, so with Kafka's
     * UNKNOWN_MEMBER_ID (empty) as the member id whatever the request named.
     */
    static Struct joinRefused(Errors error) {
        return joinError(error, UNKNOWN_MEMBER_ID);
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

    /** A failed sync: no assignment, and (v5+) null protocol type and name, as Kafka answers errors. */
    static Struct syncError(Errors error) {
        return new SyncGroupResponseView()
                .errorCode(error.code())
                .assignment(new byte[0])
                .struct();
    }

    /** A sync that hands the member its assignment, with (v5+) the protocol type and name it is for. */
    static Struct syncResponse(String protocolType, String protocolName, byte[] assignment) {
        return new SyncGroupResponseView()
                .errorCode(Errors.NONE.code())
                .protocolType(protocolType)
                .protocolName(protocolName)
                .assignment(assignment)
                .struct();
    }
}
