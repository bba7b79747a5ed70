package io.minibroker.broker.group;

/** A member a LeaveGroup names: by member id, or (v3+, a static member) by instance id with an empty member id. */
record LeavingMember(String memberId, String groupInstanceId) {
}
