package io.minibroker.broker.group;

/**
 * Where a consumer-protocol member stands in its reconciliation towards the group's target assignment, Kafka's
 * MemberState: STABLE (it owns its target at the target's epoch), UNREVOKED_PARTITIONS (it must first give up the
 * partitions pending revocation, and keeps its epoch until it says it has), UNRELEASED_PARTITIONS (it is at the
 * target epoch, but some of its target partitions are still owned by others that have not revoked them yet).
 */
enum MemberState {
    STABLE((byte) 0),
    UNREVOKED_PARTITIONS((byte) 1),
    UNRELEASED_PARTITIONS((byte) 2);

    /** The value ConsumerGroupCurrentMemberAssignmentValue stores. */
    final byte value;

    MemberState(byte value) {
        this.value = value;
    }

    static MemberState of(byte value) {
        for (MemberState state : values()) {
            if (state.value == value) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown member state " + value);
    }
}
