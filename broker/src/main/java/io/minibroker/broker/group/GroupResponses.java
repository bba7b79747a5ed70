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
        JoinGroupResponseView response = new JoinGroupResponseView()
                .errorCode(Errors.NONE.code())
                .generationId(group.generationId)
                .protocolType(group.protocolType)
                .protocolName(group.protocolName)
                .leader(group.leaderId)
                .memberId(member.memberId);
        if (member.memberId.equals(group.leaderId)) {
            for (GroupMember each : group.members.values()) {
                response.addMember()
                        .memberId(each.memberId)
                        .groupInstanceId(version >= 5 ? each.groupInstanceId : null)
                        .metadata(each.protocols.get(group.protocolName));
            }
        }
        return response.struct();
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
