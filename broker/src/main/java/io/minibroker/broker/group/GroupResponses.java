package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;

/** The JoinGroup and SyncGroup answers the membership completes; the caller holds the group's lock. */
final class GroupResponses {

    static final int NO_GENERATION = -1;

    private GroupResponses() {
    }

    /** A successful join: the generation, and for the leader every member's metadata for the chosen protocol. */
    static Struct joinResponse(ClassicGroup group, GroupMember member, short version) {
        Struct response = ApiKey.JOIN_GROUP.response().newMessage()
                .set("ErrorCode", Errors.NONE.code())
                .set("GenerationId", group.generationId)
                .set("ProtocolType", group.protocolType)
                .set("ProtocolName", group.protocolName)
                .set("Leader", group.leaderId)
                .set("MemberId", member.memberId);
        if (member.memberId.equals(group.leaderId)) {
            for (GroupMember each : group.members.values()) {
                response.addElement("Members")
                        .set("MemberId", each.memberId)
                        .set("GroupInstanceId", version >= 5 ? each.groupInstanceId : null)
                        .set("Metadata", each.protocols.get(group.protocolName));
            }
        }
        return response;
    }

    static Struct joinError(Errors error, String memberId) {
        return ApiKey.JOIN_GROUP.response().newMessage()
                .set("ErrorCode", error.code())
                .set("GenerationId", NO_GENERATION)
                .set("ProtocolName", "")
                .set("Leader", "")
                .set("MemberId", memberId);
    }

    static Struct syncResponse(Errors error, byte[] assignment) {
        return ApiKey.SYNC_GROUP.response().newMessage()
                .set("ErrorCode", error.code())
                .set("Assignment", assignment);
    }
}
