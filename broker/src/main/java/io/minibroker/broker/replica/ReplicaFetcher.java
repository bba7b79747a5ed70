package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.log.LeaderEpochCache;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.quota.ReplicationQuota;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.FetchResponseView.FetchableTopicResponse;
import io.minibroker.protocol.message.view.FetchResponseView.PartitionData;
import io.minibroker.protocol.message.view.ListOffsetsRequestView;
import io.minibroker.protocol.message.view.ListOffsetsResponseView;
import io.minibroker.protocol.message.view.ListOffsetsResponseView.ListOffsetsPartitionResponse;
import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Copies the logs of the partitions this broker follows from one leader, on a thread of its own
 * ({@code replica-fetcher-<leader>}), as Kafka's ReplicaFetcherThread: a Fetch naming this replica and its broker
 * epoch (ReplicaState), from each log's end, that parks at the leader up to {@code replica.fetch.wait.max.ms} until
 * {@code replica.fetch.min.bytes} are there, so an idle follower waits instead of polling. What comes back is
 * appended as it is (the leader's offsets and batches), the leader's high watermark becomes ours, and its log
 * start offset too when it moved past ours. Each fetch names our leader epoch of the partition (a leader that has not
 * taken that term yet refuses it) and the last epoch in our log, so the leader tells where our log diverges from its
 * (DivergingEpoch, see {@link #setPartitions}). A fetch offset the leader finds out of range is settled by asking the
 * leader where its log ends and starts (see {@link #resetOutOfRange}). The next fetch's offsets tell the leader how
 * far we got. Fetches go in an incremental fetch session (KIP-227, {@link LeaderFetchSession}), as Kafka's fetcher:
 * after the first, a fetch names only the partitions whose offsets moved, and the leader answers only those that
 * changed.
 *
 * <p>Answers arrive while the broker's images move on: a partition may be led here, or followed at a newer epoch, by
 * the time its fetch or ListOffsets answer comes back. As Kafka's fetcher under its partitionMapLock, each
 * cut and each append holds this object's monitor and first checks that the partition is still followed as it was
 * when asked (the same epoch, past its truncation); {@link #setPartitions}, {@link #unfollow} and {@link #close}
 * take the same monitor, so once they return no answer touches a partition they took away: the answer is dropped.
 * The fsync that {@code flush.messages} asks for after an append runs outside it (see {@link #flush}): a leadership
 * change does not wait on this follower's disk.
 */
final class ReplicaFetcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaFetcher.class);
    /** How much longer than the fetch's own wait a response may take before the connection is given up. */
    private static final int RESPONSE_GRACE_MS = 30_000;
    /** ListOffsets' special timestamps: the log end (for a replica's id) and the log start. */
    private static final long LATEST_TIMESTAMP = -1;
    private static final long EARLIEST_TIMESTAMP = -2;
    /** A slowed follower's delays are the test's real time, even when the broker runs on a manual clock. */
    private static final BrokerClock REAL_TIME = BrokerClock.system();

    private final int nodeId;
    /** This broker's epoch, sent in each fetch so that the leader names it by its epoch in the ISR (KIP-903). */
    private final LongSupplier brokerEpoch;
    private final BrokerNode leader;
    private final FetcherSettings settings;
    private final NodeChannel channel;
    /** The partitions a test paused: not fetched while paused. */
    private final FetchPauses pauses;
    /** The partitions a test slowed: each fetch of one waits its delay after the previous answer. */
    private final FetchDelays delays;
    /** When a slowed partition may next be fetched (real monotonic ms): touched by {@link #thread} only. */
    private final Map<TopicPartition, Long> slowedUntil = new HashMap<>();
    /** A test's hold on this follower's fsyncs. */
    private final FlushHolds flushHolds;
    private final BrokerTopicMetrics metrics;
    /** KIP-73's throttle on what this broker fetches for the partitions it follows. */
    private final ReplicationQuota quota;
    /**
     * How far each followed partition's log end was behind the leader's high watermark at its last answer, as
     * Kafka's PartitionFetchState.lag: unknown until the first answer, so a partition new to this fetcher (or
     * followed at a new epoch) counts as not in sync. Touched by {@link #thread} only.
     */
    private final Map<FollowedPartition, Long> lags = new HashMap<>();
    /** Told of each partition an answer appended to or moved the high watermark of, outside this object's monitor. */
    private final Consumer<TopicPartition> onProgress;
    private final Thread thread;
    /** The fetch session with the leader: touched by {@link #thread} only. */
    private final LeaderFetchSession session = new LeaderFetchSession();
    /** The partitions followed, in the order given; replaced whole by each change (see {@link #take}). */
    private volatile Set<FollowedPartition> partitions = Set.of();
    /** Those of {@link #partitions} still to truncate before their first fetch, in the order they came. */
    private final Set<FollowedPartition> toTruncate = new LinkedHashSet<>();
    private volatile boolean running = true;
    /** What {@link #pause} waits on and {@link #close} and {@link #setPartitions} notify. */
    private final Object wakeUp = new Object();

    private ReplicaFetcher(int nodeId, LongSupplier brokerEpoch, BrokerNode leader, FetcherSettings settings,
                           ClientSecurity security, FetchPauses pauses, FetchDelays delays, FlushHolds flushHolds,
                           BrokerTopicMetrics metrics, ReplicationQuota quota, Consumer<TopicPartition> onProgress) {
        this.nodeId = nodeId;
        this.quota = quota;
        this.onProgress = onProgress;
        this.pauses = pauses;
        this.delays = delays;
        this.flushHolds = flushHolds;
        this.metrics = metrics;
        this.brokerEpoch = brokerEpoch;
        this.leader = leader;
        this.settings = settings;
        this.channel = new NodeChannel(leader.host(), leader.port(), "replica-fetcher-" + nodeId,
                settings.waitMaxMs() + RESPONSE_GRACE_MS, security);
        this.thread = new Thread(this::run, "replica-fetcher-" + leader.id());
        thread.setDaemon(true);
    }

    static ReplicaFetcher start(int nodeId, LongSupplier brokerEpoch, BrokerNode leader, FetcherSettings settings,
                                ClientSecurity security, FetchPauses pauses, FetchDelays delays,
                                FlushHolds flushHolds, BrokerTopicMetrics metrics, ReplicationQuota quota,
                                Consumer<TopicPartition> onProgress) {
        ReplicaFetcher fetcher = new ReplicaFetcher(nodeId, brokerEpoch, leader, settings, security, pauses,
                delays, flushHolds, metrics, quota, onProgress);
        fetcher.thread.start();
        return fetcher;
    }

    /** Whether this thread fetches from that broker at that address. */
    boolean fetchesFrom(BrokerNode broker) {
        return leader.equals(broker);
    }

    /**
     * Follows these partitions from now on. What lies past the point where a log new to this fetcher (or in a new
     * leader epoch) diverges from the leader's may differ from the leader's log (a former leader's unreplicated
     * tail): one with leader epochs is fetched at once, naming its last epoch, and the leader answers a divergence
     * with where that epoch ends in its log (DivergingEpoch), from which it is cut (see {@link #take}), as Kafka's
     * fetcher does with a leader that truncates on fetch; one without is first cut to its high watermark, on this
     * thread before its first fetch (see {@link #truncateToHighWatermark}).
     */
    synchronized void setPartitions(List<FollowedPartition> followed) {
        Set<FollowedPartition> next = Collections.unmodifiableSet(new LinkedHashSet<>(followed));
        toTruncate.retainAll(next);
        for (FollowedPartition partition : next) {
            if (!partitions.contains(partition) && partition.log().latestEpoch() == LeaderEpochCache.UNDEFINED_EPOCH) {
                toTruncate.add(partition);
            }
        }
        partitions = next;
        synchronized (wakeUp) {
            wakeUp.notifyAll(); // an idle fetcher (a new one too) waits up to replica.fetch.wait.max.ms otherwise
        }
    }

    /** Stops following these partitions (see {@link ReplicaFetchers#unfollow}). */
    synchronized void unfollow(Set<TopicPartition> led) {
        toTruncate.removeIf(partition -> led.contains(partition.log().topicPartition()));
        Set<FollowedPartition> still = new LinkedHashSet<>(partitions);
        still.removeIf(partition -> led.contains(partition.log().topicPartition()));
        partitions = Collections.unmodifiableSet(still);
    }

    private synchronized Set<FollowedPartition> pendingTruncations() {
        return new LinkedHashSet<>(toTruncate);
    }

    private void run() {
        boolean reportedFailure = false;
        while (running) {
            Set<FollowedPartition> followed = partitions;
            try {
                if (followed.isEmpty()) {
                    pause(settings.waitMaxMs());
                    continue;
                }
                pendingTruncations().forEach(this::truncateToHighWatermark);
                List<FollowedPartition> ready = new ArrayList<>(followed);
                ready.removeAll(pendingTruncations());
                ready.removeIf(partition -> pauses.paused(partition.log().topicPartition()));
                lags.keySet().retainAll(followed);
                ready.removeIf(this::throttled);
                long now = REAL_TIME.monotonicMs();
                long nextDue = holdBackSlowed(ready, now);
                if (ready.isEmpty()) {
                    // the leader cannot answer yet, our replication throttle holds us, or a test paused or slowed us
                    pause(Math.max(1, Math.min(nextDue - now, Math.min(settings.backoffMs(), settings.waitMaxMs()))));
                    continue;
                }
                fetchOnce(ready, followed);
                markSlowedFetched(ready);
                reportedFailure = false;
            } catch (IOException | LogException e) {
                if (running && !reportedFailure) {
                    LOG.warn("Fetching from leader {} failed ({}); retrying every {} ms", leader.id(), e.toString(),
                            settings.backoffMs());
                    reportedFailure = true;
                }
                pause(settings.backoffMs());
            } catch (RuntimeException e) {
                // A bug met while taking an answer must not end the thread: replication would stop unseen until a
                // restart. Kafka's fetcher thread likewise logs an unexpected error and goes on fetching.
                if (running && !reportedFailure) {
                    LOG.error("Fetching from leader {} failed unexpectedly; retrying every {} ms", leader.id(),
                            settings.backoffMs(), e);
                    reportedFailure = true;
                }
                pause(settings.backoffMs());
            }
        }
    }

    /**
     * Kafka's shouldFollowerThrottle: a partition is left out of the fetch while it is not in sync (behind the
     * leader's high watermark, or not answered yet), the topic's {@code follower.replication.throttled.replicas}
     * names this broker for it, and the bytes fetched for such partitions are above
     * {@code follower.replication.throttled.rate}.
     */
    private boolean throttled(FollowedPartition partition) {
        Long lag = lags.get(partition);
        boolean inSync = lag != null && lag == 0;
        return !inSync && quota.isThrottled(partition.log().topicPartition()) && quota.isQuotaExceeded();
    }

    /**
     * Takes out of {@code ready} the slowed partitions whose delay since their last answer has not run out yet;
     * returns when the first of them is due ({@link Long#MAX_VALUE} when none is held back).
     */
    private long holdBackSlowed(List<FollowedPartition> ready, long now) {
        if (slowedUntil.isEmpty()) {
            return Long.MAX_VALUE; // the usual case: nothing slowed, nothing to look up per partition
        }
        slowedUntil.keySet().removeIf(partition -> delays.delayMs(partition) == 0); // lifted: fetched at once
        long nextDue = Long.MAX_VALUE;
        for (var it = ready.iterator(); it.hasNext(); ) {
            Long due = slowedUntil.get(it.next().log().topicPartition());
            if (due != null && due > now) {
                it.remove();
                nextDue = Math.min(nextDue, due);
            }
        }
        return nextDue;
    }

    /** Starts the delay of each slowed partition just fetched: its next fetch waits that long from now. */
    private void markSlowedFetched(List<FollowedPartition> fetched) {
        if (!delays.any()) {
            return; // the usual case: no test slowed anything
        }
        long now = REAL_TIME.monotonicMs();
        for (FollowedPartition partition : fetched) {
            TopicPartition topicPartition = partition.log().topicPartition();
            long delayMs = delays.delayMs(topicPartition);
            if (delayMs > 0) {
                slowedUntil.put(topicPartition, now + delayMs);
            }
        }
    }

    /**
     * Cuts the log where it diverges from the leader's, as Kafka's follower does (KIP-101, KIP-279, and KIP-595's
     * truncation on fetch), from the leader's answer that our last fetched epoch ends at {@code leaderEnd} in its log
     * in epoch {@code leaderEpoch} (the greatest of its epochs not above ours). If we have that epoch too, our log
     * matches the leader's up to there: we cut at the lesser of that and the epoch's end in ours. If we do not (ours
     * never reached it), we cut at the end of our greatest epoch below it; the next fetch names that epoch and the
     * leader answers again if we still diverge. With no epoch to match (the leader has none, or we have none up to
     * its), the leader's end is the point, never past ours, as Kafka's getOffsetTruncationState: the leader answered
     * with an end below what we asked about, so what it has up to there is what we must have. An answer without an
     * end offset cuts nothing: Kafka's follower then truncates to its fetch offset, our log end.
     */
    static void truncateToDivergence(PartitionLog log, int leaderId, int leaderEpoch, long leaderEnd) {
        if (leaderEnd == LeaderEpochCache.UNDEFINED_OFFSET) {
            truncateTo(log, log.logEndOffset(), "no end offset from leader " + leaderId, leaderId);
            return;
        }
        LeaderEpochCache.EpochEnd ours = leaderEpoch == LeaderEpochCache.UNDEFINED_EPOCH
                ? null : log.endOffsetForEpoch(leaderEpoch);
        if (ours == null || ours.epoch() == LeaderEpochCache.UNDEFINED_EPOCH) {
            truncateTo(log, Math.min(leaderEnd, log.logEndOffset()), "leader " + leaderId + "'s end (no epoch of "
                    + "ours up to its " + leaderEpoch + ")", leaderId);
        } else if (ours.epoch() == leaderEpoch) {
            truncateTo(log, Math.min(leaderEnd, ours.endOffset()),
                    "the end of epoch " + leaderEpoch + " at leader " + leaderId, leaderId);
        } else {
            truncateTo(log, ours.endOffset(), "the end of epoch " + ours.epoch() + ", before epochs leader "
                    + leaderId + " never had", leaderId);
        }
    }

    /**
     * Cuts a log without leader epochs to its high watermark before its first fetch, the safe point then (Kafka's
     * follower does the same when it has no epoch to name), unless it was taken away meanwhile (it may be led here
     * now, or followed at another epoch).
     */
    private synchronized void truncateToHighWatermark(FollowedPartition partition) {
        if (toTruncate.remove(partition)) {
            truncateTo(partition.log(), partition.log().highWatermark(), "its high watermark (it has no epochs)",
                    leader.id());
        }
    }

    /**
     * Called whatever our log end, as Kafka's follower calls UnifiedLog.truncateTo: at or past the log end nothing
     * is cut, but an epoch this replica assigned at its log end when it led, with no record in it, still goes.
     */
    private static void truncateTo(PartitionLog log, long offset, String where, int leaderId) {
        if (log.logEndOffset() > offset) {
            LOG.info("Truncating {} from {} to {}, {}, before following leader {}", log.topicPartition(),
                    log.logEndOffset(), offset, where, leaderId);
        }
        log.truncateTo(offset);
    }

    /** Fetches {@code followed}, taken from {@code asOf}, the set of followed partitions when the fetch was built. */
    private void fetchOnce(List<FollowedPartition> followed, Set<FollowedPartition> asOf) throws IOException {
        FetchRequestView request = new FetchRequestView()
                .maxWaitMs(settings.waitMaxMs())
                .minBytes(settings.minBytes())
                .maxBytes(settings.responseMaxBytes());
        request.replicaState().replicaId(nodeId).replicaEpoch(brokerEpoch.getAsLong());
        session.build(request, followed, settings.maxBytes());
        Map<String, FollowedPartition> requested = new LinkedHashMap<>(); // an incremental answer may name any of them
        for (FollowedPartition partition : followed) {
            requested.put(partition.topicId() + "-" + partition.log().topicPartition().partition(), partition);
        }
        FetchResponseView response;
        try {
            response = new FetchResponseView(channel.send(ApiKey.FETCH, request.struct()));
        } catch (IOException e) {
            session.failed();
            throw e;
        }
        if (!running) {
            return; // closed while the fetch was parked: the partitions may be led or followed elsewhere now
        }
        Errors topLevel = Errors.forCode(response.errorCode());
        if (!session.answered(topLevel, response.sessionId())) {
            if (LeaderFetchSession.isSessionError(topLevel)) {
                LOG.debug("Leader {} answered {}: fetching in full", leader.id(), topLevel);
                return;
            }
            throw new IOException("leader " + leader.id() + " refused the fetch: " + topLevel);
        }
        try {
            takeAnswer(response, requested, asOf);
        } catch (IOException | RuntimeException e) {
            // The leader's session counts every partition of this answer as told; those not taken (a failed append,
            // cut or log start move, or an out-of-range reset) would not be named again until they change. A full
            // fetch next has them all told again (Kafka's fetcher gets there by dropping the failed partition from
            // its session and adding it back after a backoff).
            session.failed();
            throw e;
        }
    }

    /** Takes each partition's part of an answer the session accepted; out-of-range ones are settled after. */
    private void takeAnswer(FetchResponseView response, Map<String, FollowedPartition> requested,
                            Set<FollowedPartition> asOf) throws IOException {
        boolean anyRefused = false;
        List<FollowedPartition> outOfRange = new ArrayList<>();
        for (FetchableTopicResponse topic : response.responses()) {
            for (PartitionData partition : topic.partitions()) {
                FollowedPartition asked = requested.get(topic.topicId() + "-" + partition.partitionIndex());
                if (asked == null) {
                    continue;
                }
                switch (take(asked, partition, asOf)) {
                    case REFUSED -> anyRefused = true;
                    case OUT_OF_RANGE -> outOfRange.add(asked);
                    case FLUSH_DUE -> {
                        flush(asked.log());
                        onProgress.accept(asked.log().topicPartition());
                    }
                    case MOVED -> onProgress.accept(asked.log().topicPartition());
                    case TAKEN -> {
                    }
                }
            }
        }
        for (FollowedPartition partition : outOfRange) {
            if (!resetOutOfRange(partition)) {
                anyRefused = true;
            }
        }
        if (anyRefused) {
            pause(Math.min(settings.backoffMs(), settings.waitMaxMs()));
        }
    }

    /** What became of one partition's part of a fetch answer. */
    private enum Taken {
        /** Dropped, cut, or nothing appended and the high watermark where it was: done. */
        TAKEN,
        /** Appended, or the high watermark moved: consumers' fetches parked on this follower may be answered. */
        MOVED,
        /** Appended, and {@code flush.messages} asks for an fsync now, before consumers are answered. */
        FLUSH_DUE,
        /** The leader refused the partition: tried again shortly. */
        REFUSED,
        /** The leader found the fetch offset out of range: see {@link #resetOutOfRange}, outside the monitor. */
        OUT_OF_RANGE
    }

    /**
     * Takes one partition's part of a fetch answer, unless the partition is no longer followed as it was fetched (led
     * here now, followed at another epoch, or taken back to truncation): then the part is dropped. While
     * {@link #partitions} is still the set {@code asOf} the fetch was built from, nothing was taken away (each change
     * replaces the set, and a partition waiting for its truncation was left out of the fetch), so the look-ups run
     * only after a change. The fsync an append makes due is the caller's, after this returns: see {@link #flush}.
     */
    private synchronized Taken take(FollowedPartition followed, PartitionData partition,
                                    Set<FollowedPartition> asOf) {
        if (partitions != asOf && (!partitions.contains(followed) || toTruncate.contains(followed))) {
            LOG.debug("Dropping leader {}'s fetch answer for {}: no longer followed at epoch {}", leader.id(),
                    followed.log().topicPartition(), followed.leaderEpoch());
            return Taken.TAKEN;
        }
        PartitionLog log = followed.log();
        Errors error = Errors.forCode(partition.errorCode());
        if (error == Errors.OFFSET_OUT_OF_RANGE) {
            return Taken.OUT_OF_RANGE; // its offsets are -1, as Kafka's leader answers it: asked for them apart
        }
        if (error != Errors.NONE) {
            // Typically the leader has not taken the image that makes it leader yet: try again shortly.
            LOG.debug("Leader {} refused {}: {}", leader.id(), log.topicPartition(), error);
            return Taken.REFUSED;
        }
        FetchResponseView.EpochEndOffset diverging = partition.divergingEpoch();
        if (diverging.epoch() != LeaderEpochCache.UNDEFINED_EPOCH
                || diverging.endOffset() != LeaderEpochCache.UNDEFINED_OFFSET) {
            truncateToDivergence(log, leader.id(), diverging.epoch(), diverging.endOffset()); // no records come with it
            return Taken.TAKEN;
        }
        ByteBuf records = partition.records();
        boolean flushDue = false;
        boolean appended = records != null && records.isReadable();
        if (appended) {
            int bytes = records.readableBytes();
            flushDue = log.appendAsFollower(records).flushDue();
            metrics.replicatedIn(bytes); // once appended, as Kafka counts them: not a refused append's
            if (quota.isThrottled(log.topicPartition())) {
                quota.record(bytes); // in sync or not, as Kafka's ReplicaFetcherThread records them
            }
        }
        lags.put(followed, Math.max(0, partition.highWatermark() - log.logEndOffset()));
        long highWatermark = log.highWatermark();
        log.setReplicatedHighWatermark(partition.highWatermark());
        boolean moved = appended || log.highWatermark() != highWatermark;
        long leaderLogStart = partition.logStartOffset();
        if (leaderLogStart > log.logStartOffset()) {
            // The leader deleted records (DeleteRecords, retention): so does the follower, as in Kafka.
            log.deleteRecordsBefore(Math.min(leaderLogStart, log.logEndOffset()));
        }
        return flushDue ? Taken.FLUSH_DUE : moved ? Taken.MOVED : Taken.TAKEN;
    }

    /**
     * Settles a fetch offset (our log end) the leader found out of range, as Kafka's follower does
     * (fetchOffsetAndTruncate): asks the leader where its log ends (ListOffsets LATEST, for this replica's id its log
     * end, not its high watermark). Ours past it (a former leader's tail the new leader never had) is cut there.
     * Otherwise asks where its log starts (EARLIEST): ours ending before it (we were down while retention or
     * DeleteRecords moved it on) restarts empty there; else the leader's log grew to our end meanwhile and the fetch
     * goes on from it. Runs on this thread without the monitor: a leadership change does
     * not wait for the leader's answers. Our log end read here cannot move meanwhile, as only this thread appends to
     * a followed log, and {@link #reset} drops the change if the partition is no longer followed as fetched. False
     * when the leader cannot answer yet (tried again after a pause).
     */
    private boolean resetOutOfRange(FollowedPartition partition) throws IOException {
        PartitionLog log = partition.log();
        ListOffsetsPartitionResponse end = leaderOffset(partition, LATEST_TIMESTAMP);
        if (end == null) {
            return false;
        }
        if (end.offset() < log.logEndOffset()) {
            reset(partition, () -> truncateTo(log, end.offset(), "the leader's log end (ours was out of its range)",
                    leader.id()));
            return true;
        }
        ListOffsetsPartitionResponse start = leaderOffset(partition, EARLIEST_TIMESTAMP);
        if (start == null) {
            return false;
        }
        if (start.offset() > log.logEndOffset()) {
            reset(partition, () -> {
                LOG.info("{} ends at {}, before leader {}'s log start {}: restarting it there",
                        log.topicPartition(), log.logEndOffset(), leader.id(), start.offset());
                log.restartAt(start.offset());
            });
        }
        return true;
    }

    /**
     * The leader's answer to ListOffsets for one special timestamp of a followed partition, asked as this replica
     * at its leader epoch (an older one is FENCED_LEADER_EPOCH there); null when the leader refuses it.
     */
    private ListOffsetsPartitionResponse leaderOffset(FollowedPartition partition, long timestamp)
            throws IOException {
        PartitionLog log = partition.log();
        ListOffsetsRequestView request = new ListOffsetsRequestView().replicaId(nodeId);
        request.addTopic().name(log.topicPartition().topic()).addPartition()
                .partitionIndex(log.topicPartition().partition())
                .currentLeaderEpoch(partition.leaderEpoch())
                .timestamp(timestamp);
        ListOffsetsPartitionResponse answer = new ListOffsetsResponseView(
                channel.send(ApiKey.LIST_OFFSETS, request.struct())).topics().get(0).partitions().get(0);
        Errors error = Errors.forCode(answer.errorCode());
        if (error != Errors.NONE) {
            LOG.debug("Leader {} cannot tell where its log of {} {} yet: {}", leader.id(), log.topicPartition(),
                    timestamp == LATEST_TIMESTAMP ? "ends" : "starts", error);
            return null;
        }
        return answer;
    }

    /**
     * Makes a change an out-of-range answer called for, unless the partition is no longer followed as it was
     * fetched (taken away, followed at another epoch, or back to truncation): then nothing is changed.
     */
    private synchronized void reset(FollowedPartition partition, Runnable change) {
        if (!partitions.contains(partition) || toTruncate.contains(partition)) {
            LOG.debug("Dropping leader {}'s offsets for {}: no longer followed at epoch {}", leader.id(),
                    partition.log().topicPartition(), partition.leaderEpoch());
            return;
        }
        change.run();
    }

    /**
     * The fsync {@code flush.messages} asks for after an append, on this thread (it may wait on the disk) and outside
     * this object's monitor, so that a leadership change's {@link #unfollow} or {@link #setPartitions} does not wait
     * for the disk. It changes no record: if the partition was taken away meanwhile (led here now, or deleted), it
     * syncs what this fetcher appended before, as any flush of the log may run beside its appends. The next fetch,
     * which tells the leader how far we got, is sent only after it.
     */
    private void flush(PartitionLog log) {
        flushHolds.awaitRelease();
        log.flush();
    }

    /**
     * Waits up to {@code ms}, or until {@link #close()} or {@link #setPartitions}. Not by sleeping until
     * interrupted: an interrupt that lands while the thread is in a socket read stays pending, and the next write to
     * a segment's file channel would then close that channel for good (ClosedByInterruptException), breaking the log.
     */
    private void pause(long ms) {
        synchronized (wakeUp) {
            if (running) {
                try {
                    wakeUp.wait(ms);
                } catch (InterruptedException e) {
                    running = false; // only the JVM's own shutdown interrupts this thread
                }
            }
        }
    }

    @Override
    public void close() {
        stop();
        join();
    }

    /**
     * Stops this fetcher without waiting for its thread, which may be in a follower's fsync: once this returns it
     * neither cuts nor appends, and its thread ends after that fsync; {@link #join} waits for that end.
     */
    void stop() {
        synchronized (wakeUp) {
            running = false;
            wakeUp.notifyAll();
        }
        synchronized (this) { // waits for a cut or an append under way; none after this
            partitions = Set.of();
            toTruncate.clear();
        }
        // Not close(), which would wait for a fetch parked at the leader (up to replica.fetch.wait.max.ms) while the
        // image that stopped this fetcher waits to be applied.
        channel.abort();
    }

    /** Waits for the thread of a {@link #stop stopped} fetcher to end. */
    void join() {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the thread of a {@link #stop stopped} fetcher has ended. */
    boolean ended() {
        return !thread.isAlive();
    }
}
