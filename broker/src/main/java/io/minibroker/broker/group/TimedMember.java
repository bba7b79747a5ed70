package io.minibroker.broker.group;

/**
 * What the timeouts of a consumer-, streams- or share-group member watch ({@link MemberTimeouts}): two tokens, volatile
 * so that a timeout can tell, without the group's lock, that it was superseded. A share-group member has nothing to
 * revoke (a partition may be shared): its revocation token only moves when it is removed.
 */
abstract class TimedMember {

    /** Bumped by every heartbeat: a session timeout scheduled before sees it and ends quietly. */
    volatile long sessionToken;
    /** Bumped whenever the member's revocation ends or restarts: the rebalance timeout watches it. */
    volatile long revocationToken;
}
