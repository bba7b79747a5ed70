package io.minibroker.broker.group;

import java.util.Map;

/**
 * A member of a streams group (KIP-1071), Kafka's StreamsGroupMember: a Kafka Streams thread, of the process
 * (application instance) {@link #processId}, with the topology epoch it runs, its endpoint for interactive queries, and
 * where its reconciliation stands: its epoch and the one before, its tasks and those it must still revoke. Guarded by
 * its group's lock but for what its timeouts watch ({@link TimedMember}).
 */
final class StreamsGroupMember extends TimedMember {

    /** The epoch a member leaves with, and the one a static member leaves with to come back. */
    static final int LEAVE_GROUP_MEMBER_EPOCH = -1;
    static final int LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2;

    /** Where the member stands towards its target, Kafka's streams MemberState. */
    enum State {
        STABLE, UNREVOKED_TASKS, UNRELEASED_TASKS
    }

    /** A host and port where the member's process answers interactive queries (its {@code application.server}). */
    record Endpoint(String host, int port) {
    }

    final String memberId;
    String instanceId;
    String rackId;
    String clientId = "";
    String clientHost = "";
    int topologyEpoch = -1;
    String processId = "";
    Endpoint userEndpoint;
    Map<String, String> clientTags = Map.of();
    /** Its RebalanceTimeoutMs: how long it has to revoke what it must give up; -1 until it tells. */
    int rebalanceTimeoutMs = -1;

    int memberEpoch;
    int previousMemberEpoch;
    State state = State.STABLE;
    StreamsTasks assignedTasks = StreamsTasks.EMPTY;
    StreamsTasks tasksPendingRevocation = StreamsTasks.EMPTY;
    /**
     * The epoch at which each active task it holds or revokes was assigned to it (Kafka's TasksTupleWithEpochs): an
     * OffsetCommit at an older member epoch is accepted for the tasks it held by then.
     */
    Map<TaskId, Integer> activeTaskEpochs = Map.of();

    StreamsGroupMember(String memberId) {
        this.memberId = memberId;
    }
}
