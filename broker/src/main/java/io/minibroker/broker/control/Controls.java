package io.minibroker.broker.control;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;

import java.time.Duration;
import java.util.List;

/**
 * What a test can make a broker do (docs/test-controls.md): the same operations in process ({@link BrokerControls},
 * from {@code EmbeddedBroker.controls()} or {@code MiniCluster.controls(node)}) and over HTTP ({@link HttpControls},
 * for a broker in another process or a container).
 */
public interface Controls {

    // ---- errors

    /** Sets a rule; returns its id. An error answered instead of serving needs the API to have a shape for it. */
    long inject(ErrorRule rule);

    /** The next {@code n} requests of {@code api} answer {@code error} instead of being served. */
    default long failNext(ApiKey api, Errors error, int n) {
        return inject(ErrorRule.answer(RequestMatch.api(api), error).times(n));
    }

    /** The rules set, in the order they fire. */
    List<InstalledRule> errorRules();

    /** Removes a rule; false if it was not set (or has fired its count). */
    boolean removeErrorRule(long id);

    void clearErrorRules();

    // ---- latency and silence

    /** Every answer of {@code api} waits {@code ms} more before it is written (0 removes the delay). */
    void delay(ApiKey api, long ms);

    /** Every answer of this broker waits {@code ms} before it is written (a round trip time; 0 removes it). */
    void delayAll(long ms);

    void clearDelays();

    /** The broker stops answering: requests are read and served, answers held, connections kept. */
    void hang();

    /** Ends a {@link #hang}: the held answers are written, in each connection's order. */
    void resume();

    boolean hung();

    /** Closes every client connection now; clients reconnect (unless {@link #refuseConnections} is set). */
    void closeConnections();

    /** While {@code refuse}, each new client connection is closed as soon as it is accepted. */
    void refuseConnections(boolean refuse);

    // ---- versions

    /** Advertises and accepts {@code api} only up to {@code maxVersion}, as an older broker would. */
    void capVersion(ApiKey api, int maxVersion);

    void clearVersionCaps();

    // ---- topology (asked of a cluster's controller node)

    /** Moves a partition's leadership to {@code node}, a live member of its ISR. */
    void moveLeader(String topic, int partition, int node);

    /** Makes {@code node} the coordinator of {@code group} (the leader of its {@code __consumer_offsets} partition). */
    void moveGroupCoordinator(String group, int node);

    /**
     * Makes {@code node} the coordinator of {@code transactionalId} (the leader of its {@code __transaction_state}
     * partition).
     */
    void moveTransactionCoordinator(String transactionalId, int node);

    // ---- topology (asked of a partition's leader or of a follower)

    /**
     * Asked of the partition's leader: takes {@code node} out of the ISR now, as if it lagged, and keeps it out until
     * {@link #growIsr}; returns the ISR. Clients see it in Metadata, and acks=all produces answer
     * NOT_ENOUGH_REPLICAS while the ISR is smaller than {@code min.insync.replicas}.
     */
    List<Integer> shrinkIsr(String topic, int partition, int node);

    /** Asked of the partition's leader: lets {@code node} back into the ISR, at once if it has caught up. */
    List<Integer> growIsr(String topic, int partition, int node);

    /**
     * Asked of a follower: it stops replicating the partition ({@code partition} -1: the whole topic; a null topic:
     * everything it follows), so it falls behind and its leader drops it from the ISR after
     * {@code replica.lag.time.max.ms}.
     */
    void lagFollower(String topic, int partition);

    /** Asked of a follower: it replicates again what {@link #lagFollower} stopped (a null topic: everything). */
    void resumeFollower(String topic, int partition);

    /**
     * Asked of a follower: it goes on replicating the partition ({@code partition} -1: the whole topic; a null topic:
     * everything it follows), but sends each fetch of it {@code delay} after the previous answer, so the leader's
     * high watermark and acks=all produces wait about that long for it, and a delay above
     * {@code replica.lag.time.max.ms} takes it out of the ISR; {@link Duration#ZERO} lifts the delay (a null topic:
     * every delay), and it catches up and rejoins. A negative delay is refused.
     */
    void slowFollower(String topic, int partition, Duration delay);

    // ---- nodes (a cluster in one process: MiniCluster, minibroker --nodes)

    /** Stops {@code node} as a crash would (no word to the controller). Over HTTP, ask another node's endpoint. */
    void killNode(int node);

    /** Stops {@code node} cleanly. Over HTTP, ask another node's endpoint. */
    void stopNode(int node);

    /** Starts {@code node} again on its data, after {@link #killNode} or {@link #stopNode}. */
    void restartNode(int node);

    // ---- request log and time

    RequestLog requestLog();

    /** Moves the broker's manual clock: what comes due fires before this returns. */
    void advanceClock(Duration by);

    /** Whether the broker runs on a manual clock that {@link #advanceClock} moves. */
    boolean clockIsManual();

    /**
     * Every control off: no rules, delays, hang, refusal or version caps, no lagging follower or ISR held smaller;
     * the log stops and is cleared. Nodes taken down stay down.
     */
    void reset();
}
