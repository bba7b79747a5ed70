package io.minibroker.broker.group;

/**
 * What the timeouts of a consumer-group or streams-group member watch ({@link MemberTimeouts}): two tokens, and the
 * rebalance timeout it asked for. The tokens are volatile so that a timeout can tell, without the group's lock, that
 * it was superseded.
 */
abstract class TimedMember {

    /** Bumped by every heartbeat: a session timeout scheduled before sees it and ends quietly. */
    volatile long sessionToken;
    /** Bumped whenever the member's revocation ends or restarts: the rebalance timeout watches it. */
    volatile long revocationToken;
    /** Its RebalanceTimeoutMs: how long it has to revoke what it must give up; -1 until it tells. */
    int rebalanceTimeoutMs = -1;
}
