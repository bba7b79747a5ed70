package io.minibroker.broker.admin;

import io.minibroker.protocol.error.Errors;

/**
 * The deadline Kafka's controller gives a topic change: its arrival plus the request's TimeoutMs
 * (ControllerRequestContext.requestTimeoutMsToDeadlineNs). With a TimeoutMs of 0 or less the change is past its
 * deadline before it runs, so Kafka answers the whole request REQUEST_TIMED_OUT with no message (each request's
 * getErrorResponse; ElectLeaders and AlterPartitionReassignments at the top and on each partition) and changes
 * nothing, once its own checks leave anything to change. kafka-go sends 0 when its caller sets no timeout. This
 * broker does its topic changes at once; only the answer to an expired deadline is Kafka's.
 *
 * <p>With ACLs the deadline keeps Kafka's place among the checks (authz/AdminApiChecks): ElectLeaders and
 * AlterPartitionReassignments check ALTER on the cluster first; CreateTopics and CreatePartitions time out whole,
 * refused topics too, once a topic the principal may change is left; DeleteTopics looks every name and id up
 * before (ids) or regardless of (names) what the principal may delete, so it times out whole whatever the ACLs.
 */
public final class PastDeadline {

    static final Errors ERROR = Errors.REQUEST_TIMED_OUT;

    private PastDeadline() {
    }

    public static boolean at(int timeoutMs) {
        return timeoutMs <= 0;
    }
}
