package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.schema.Struct;

import java.util.LinkedHashMap;
import java.util.concurrent.CompletableFuture;

/**
 * One member of a classic group, guarded by its group's lock. A member waits in at most one place at a time:
 * for the join to complete ({@link #awaitingJoin}) or for the leader's assignment ({@link #awaitingSync}); answering
 * a wait only enqueues the response onto its channel's event loop.
 */
final class GroupMember {

    final String memberId;
    final String groupInstanceId;
    final String clientId;
    final String clientHost;
    int sessionTimeoutMs;
    int rebalanceTimeoutMs;
    /** Protocol name to metadata, in the member's order of preference. */
    LinkedHashMap<String, byte[]> protocols;
    byte[] assignment = new byte[0];
    PendingJoin awaitingJoin;
    CompletableFuture<Struct> awaitingSync;
    /**
     * Bumped on every sign of life and on removal; a scheduled session timeout that sees a newer epoch is stale.
     * Volatile because the heartbeat purgatory reads it without the group lock.
     */
    volatile long livenessEpoch;

    GroupMember(String memberId, String groupInstanceId, String clientId, String clientHost) {
        this.memberId = memberId;
        this.groupInstanceId = groupInstanceId;
        this.clientId = clientId;
        this.clientHost = clientHost;
    }

    /** Answers the member's parked JoinGroup, if any, with {@code error}. */
    void failJoin(Errors error) {
        if (awaitingJoin != null) {
            awaitingJoin.response().complete(GroupResponses.joinError(error, memberId));
            awaitingJoin = null;
        }
    }

    /** Answers the member's parked SyncGroup, if any, with {@code error}. */
    void failSync(Errors error) {
        answerSync(GroupResponses.syncError(error));
    }

    /** Answers the member's parked SyncGroup, if any. */
    void answerSync(Struct response) {
        if (awaitingSync != null) {
            awaitingSync.complete(response);
            awaitingSync = null;
        }
    }

    /** A JoinGroup waiting for the rebalance to complete, with the version its response is encoded in. */
    record PendingJoin(CompletableFuture<Struct> response, short version) {
    }
}
