package io.minibroker.broker.share;

import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.time.Clock;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * One share group's delivery state of one topic partition (Kafka's SharePartition). Every offset from the share
 * partition start offset (SPSO) up to the end offset (one past the last offset ever acquired) has a state: acquired
 * by one member under a lock until a deadline, available for delivery again, acknowledged or archived. Records past
 * the end offset were never delivered. The start offset moves over acknowledged and archived records; the window
 * between the two is bounded by {@code share.partition.max.record.locks}, so a consumer that never acknowledges stops
 * the group receiving more than that.
 *
 * <p>Each acquisition adds one to an offset's delivery count; a record released or whose lock expires with its count
 * at {@code share.delivery.count.limit} is archived instead of made available, so a poison record is delivered at
 * most that many times. All methods are synchronized: fetches, acknowledgements and lock expiry come from event
 * loops and the purgatory's reaper.
 */
public final class SharePartition {

    // Kafka 4.3.1's SharePartition's refusals of an acknowledgement, with their messages.
    static final AcknowledgeResult NOTHING_IN_FLIGHT = new AcknowledgeResult(Errors.INVALID_RECORD_STATE,
            "Batch record not found. The request batch offsets are not found in the cache.");
    private static final AcknowledgeResult FIRST_OFFSET_PAST_ACQUIRED = new AcknowledgeResult(Errors.INVALID_REQUEST,
            "Batch record not found. The first offset in request is past acquired records.");
    private static final AcknowledgeResult LAST_OFFSET_PAST_ACQUIRED = new AcknowledgeResult(Errors.INVALID_REQUEST,
            "Batch record not found. The last offset in request is past acquired records.");
    private static final AcknowledgeResult NOT_ACQUIRED = new AcknowledgeResult(Errors.INVALID_RECORD_STATE,
            "The batch cannot be acknowledged. The batch is not in the acquired state.");
    private static final AcknowledgeResult NOT_THE_OWNER = new AcknowledgeResult(Errors.INVALID_RECORD_STATE,
            "Member is not the owner of batch record");

    private static final class InFlight {
        RecordState state;
        int deliveryCount;
        String owner;
        long lockDeadlineMs;

        InFlight(RecordState state, int deliveryCount) {
            this.state = state;
            this.deliveryCount = deliveryCount;
        }
    }

    private final SharePartitionKey key;
    private final Clock clock;
    /** Every offset in [startOffset, endOffset), in order. */
    private final TreeMap<Long, InFlight> inFlight = new TreeMap<>();
    private long startOffset;
    private long endOffset;
    private ShareGroupSettings settings;
    /**
     * No lock expires before this: every fetch and acknowledgement expires locks first, and until then that is a
     * clock read, not a walk of the window. It may be early (the record was acknowledged or renewed since); the
     * walk then finds the true next deadline.
     */
    private long nextLockDeadlineMs = Long.MAX_VALUE;
    /** The partition's leader epoch this node loaded the state under, which its writes of the state carry. */
    private int leaderEpoch = Persister.NO_LEADER_EPOCH;
    /** The state epoch of the state loaded, which its writes carry (fenced once the state is initialized again). */
    private int stateEpoch = Persister.NO_STATE_EPOCH;

    private SharePartition(SharePartitionKey key, Clock clock, ShareGroupSettings settings, long startOffset) {
        this.key = key;
        this.clock = clock;
        this.settings = settings;
        this.startOffset = startOffset;
        this.endOffset = startOffset;
    }

    /** A share partition with no state yet, starting at {@code startOffset} (from share.auto.offset.reset). */
    public static SharePartition startingAt(SharePartitionKey key, Clock clock, ShareGroupSettings settings,
                                            long startOffset) {
        return new SharePartition(key, clock, settings, startOffset);
    }

    /** A share partition restored from its persisted state. */
    public static SharePartition restored(SharePartitionKey key, Clock clock, ShareGroupSettings settings,
                                          ShareStateSnapshot snapshot) {
        SharePartition partition = new SharePartition(key, clock, settings, snapshot.startOffset());
        for (ShareStateSnapshot.StateBatch batch : snapshot.batches()) {
            for (long offset = Math.max(batch.firstOffset(), snapshot.startOffset()); offset <= batch.lastOffset();
                 offset++) {
                RecordState state = batch.state() == RecordState.ACQUIRED ? RecordState.AVAILABLE : batch.state();
                partition.inFlight.put(offset, new InFlight(state, batch.deliveryCount()));
                partition.endOffset = offset + 1;
            }
        }
        // Gaps between persisted batches were never delivered: keep the window contiguous.
        for (long offset = partition.startOffset; offset < partition.endOffset; offset++) {
            partition.inFlight.putIfAbsent(offset, new InFlight(RecordState.AVAILABLE, 0));
        }
        partition.advanceStart();
        return partition;
    }

    public SharePartitionKey key() {
        return key;
    }

    synchronized void ledUnder(int epoch, int loadedStateEpoch) {
        this.leaderEpoch = epoch;
        this.stateEpoch = loadedStateEpoch;
    }

    public synchronized int leaderEpoch() {
        return leaderEpoch;
    }

    public synchronized int stateEpoch() {
        return stateEpoch;
    }

    /** The group's settings may change (IncrementalAlterConfigs of the group); new acquisitions use the latest. */
    public synchronized void updateSettings(ShareGroupSettings latest) {
        this.settings = latest;
    }

    public synchronized ShareGroupSettings settings() {
        return settings;
    }

    public synchronized long startOffset() {
        return startOffset;
    }

    public synchronized long endOffset() {
        return endOffset;
    }

    /** Where the next fetch should read the log from: the first available record, else the end offset. */
    public synchronized long nextFetchOffset() {
        expireLocks();
        for (Map.Entry<Long, InFlight> entry : inFlight.entrySet()) {
            if (entry.getValue().state == RecordState.AVAILABLE) {
                return entry.getKey();
            }
        }
        return endOffset;
    }

    /**
     * Whether a fetch could acquire something now, with the log readable below {@code readableEnd}: a record
     * available for redelivery, or records past the end offset and room in the window for them.
     */
    public synchronized boolean canAcquire(long readableEnd) {
        expireLocks();
        if (inFlight.values().stream().anyMatch(r -> r.state == RecordState.AVAILABLE)) {
            return true;
        }
        return endOffset < readableEnd && endOffset - startOffset < settings.partitionMaxRecordLocks();
    }

    /**
     * The log's start moved past records of the window (retention, DeleteRecords): they can never be delivered, so
     * the share partition starts at the log start, as Kafka's SharePartition does on OFFSET_OUT_OF_RANGE.
     */
    public synchronized boolean moveStartTo(long logStartOffset) {
        if (logStartOffset <= startOffset) {
            return false;
        }
        inFlight.headMap(logStartOffset).clear();
        startOffset = logStartOffset;
        endOffset = Math.max(endOffset, logStartOffset);
        return true;
    }

    /**
     * Acquires for {@code memberId} records of the given log batches (each the inclusive offsets of one batch, in
     * order, as read from the log at {@link #nextFetchOffset()}): records available again inside the window, then
     * records never delivered. Returns the acquired runs.
     *
     * <p>As Kafka's SharePartition, {@code maxRecords} is first cut to the room left in the window
     * ({@code share.partition.max.record.locks} less the records in flight); with none left only records already in
     * the window can be acquired again. In {@link ShareAcquireMode#BATCH_OPTIMIZED} mode the limit is checked between
     * log batches only, so the last batch is acquired whole (the window may then hold more than its limit, as
     * Kafka's does) and a run of records never delivered is split at a batch boundary once it holds
     * {@code batchSize} records (0: never, a v0 request sends none); in {@link ShareAcquireMode#RECORD_LIMIT} mode
     * acquisition stops at exactly the limit. Offsets {@code inTransition} (released by the acknowledgements of the
     * same ShareFetch) are not acquired, as Kafka's SharePartition does not acquire a record whose state change is
     * still being written.
     */
    public synchronized List<AcquiredRecords> acquire(String memberId, ShareAcquireMode mode, int batchSize,
                                                      int maxRecords, List<long[]> batches, LongPredicate inTransition) {
        expireLocks();
        List<AcquiredRecords> acquired = new ArrayList<>();
        if (batches.isEmpty()) {
            return acquired;
        }
        long limit = Math.min(maxRecords, settings.partitionMaxRecordLocks() - (endOffset - startOffset));
        long lastOffset = Long.MAX_VALUE;
        if (limit <= 0) { // the window is full: only records it already holds, available again, are acquired
            limit = maxRecords;
            lastOffset = endOffset - 1;
        }
        boolean wholeBatches = mode == ShareAcquireMode.BATCH_OPTIMIZED;
        int maxDeliveries = settings.deliveryCountLimit();
        int throttleFrom = throttleFrom(maxDeliveries);
        long deadline = clock.nowMs() + settings.recordLockDurationMs();
        long count = 0;
        batches:
        for (long[] batch : batches) {
            if (count >= limit) {
                break;
            }
            long first = Math.max(batch[0], startOffset);
            long last = Math.min(batch[1], lastOffset);
            // Records delivered often go in a fetch of their own: a batch holding one is not begun once records are
            // acquired. The first batch needs no walk of its own for it: the walk that acquires finds them.
            boolean throttled = count > 0 && isThrottled(first, last, throttleFrom, inTransition);
            if (throttled) {
                break;
            }
            long fromBatch = 0;
            long throttledCap = -1;
            for (long offset = first; offset <= last; offset++) {
                if (!wholeBatches && count >= limit) {
                    break;
                }
                InFlight record;
                boolean fresh = offset >= endOffset;
                if (!fresh) {
                    record = inFlight.get(offset);
                    if (record.state != RecordState.AVAILABLE || inTransition.test(offset)) {
                        continue;
                    }
                    if (maxDeliveries > 2 && record.deliveryCount == maxDeliveries - 1 && fromBatch > 0) {
                        break batches; // a record's last delivery goes alone
                    }
                    if (record.deliveryCount >= throttleFrom && throttledCap < 0) {
                        // Kafka halves the records taken from the batch with each further delivery
                        throttled = true;
                        long batchRecords = batch[1] - batch[0] + 1;
                        throttledCap = Math.max(1, batchRecords >> (record.deliveryCount - throttleFrom + 1));
                    }
                } else {
                    for (long gap = endOffset; gap < offset; gap++) { // offsets no batch holds (compacted away)
                        inFlight.put(gap, new InFlight(RecordState.ARCHIVED, 0));
                    }
                    record = new InFlight(RecordState.AVAILABLE, 0);
                    inFlight.put(offset, record);
                    endOffset = offset + 1;
                }
                record.state = RecordState.ACQUIRED;
                record.deliveryCount++;
                record.owner = memberId;
                record.lockDeadlineMs = deadline;
                nextLockDeadlineMs = Math.min(nextLockDeadlineMs, deadline);
                count++;
                fromBatch++;
                // Kafka splits what it acquires from the log into in-flight batches of about BatchSize records.
                boolean startsRun = wholeBatches && fresh && offset == batch[0] && batchSize > 0
                        && !acquired.isEmpty() && offset - acquired.get(acquired.size() - 1).firstOffset() >= batchSize;
                add(acquired, offset, record.deliveryCount, startsRun);
                if ((maxDeliveries > 2 && record.deliveryCount == maxDeliveries) || fromBatch == throttledCap) {
                    break;
                }
            }
            if (throttled && fromBatch > 0) {
                // A batch holding a record delivered often ends the fetch too; the walk above found any such record,
                // as it leaves a batch early only at one, or where the fetch ends anyway.
                break;
            }
        }
        advanceStart();
        return acquired;
    }

    /**
     * From this delivery count on, records are delivered in smaller fetches (Kafka 4.3.1's throttling of records
     * delivered often: half the count limit, at least 2), so that a poison record among them is found with fewer
     * good ones redelivered alongside it.
     */
    private static int throttleFrom(int maxDeliveries) {
        return Math.max(2, (maxDeliveries + 1) / 2);
    }

    /** Whether a record in [first, last] is available again with a count at which deliveries are throttled. */
    private boolean isThrottled(long first, long last, int throttleFrom, LongPredicate inTransition) {
        for (long offset = first; offset <= last && offset < endOffset; offset++) {
            InFlight record = inFlight.get(offset);
            if (record.state == RecordState.AVAILABLE && record.deliveryCount >= throttleFrom
                    && !inTransition.test(offset)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Archives the records of {@code acquired}, just acquired, that lie in {@code abortedBatches} (the inclusive
     * offsets of data batches of aborted transactions, in order) and returns the runs left: a read_committed group
     * never delivers an aborted transaction's records, as Kafka's SharePartition archives them right after acquiring
     * them (their delivery counted). Called under the partition's lock together with {@link #acquire}.
     */
    public synchronized List<AcquiredRecords> archiveAborted(List<AcquiredRecords> acquired,
                                                             List<long[]> abortedBatches) {
        if (abortedBatches.isEmpty()) {
            return acquired;
        }
        List<AcquiredRecords> left = new ArrayList<>();
        int next = 0; // both lists are in offset order: one pass over each
        for (AcquiredRecords run : acquired) {
            boolean startsRun = true; // the runs acquired keep their bounds
            for (long offset = run.firstOffset(); offset <= run.lastOffset(); offset++) {
                while (next < abortedBatches.size() && abortedBatches.get(next)[1] < offset) {
                    next++;
                }
                if (next < abortedBatches.size() && abortedBatches.get(next)[0] <= offset) {
                    finish(inFlight.get(offset), RecordState.ARCHIVED);
                } else {
                    add(left, offset, run.deliveryCount(), startsRun);
                    startsRun = false;
                }
            }
        }
        advanceStart();
        return left;
    }

    /** Adds {@code offset} to the last run when it follows it with the same count, unless it {@code startsRun}. */
    private static void add(List<AcquiredRecords> runs, long offset, int deliveryCount, boolean startsRun) {
        AcquiredRecords last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
        if (!startsRun && last != null && last.lastOffset() == offset - 1 && last.deliveryCount() == deliveryCount) {
            runs.set(runs.size() - 1, new AcquiredRecords(last.firstOffset(), offset, deliveryCount));
        } else {
            runs.add(new AcquiredRecords(offset, offset, deliveryCount));
        }
    }

    /**
     * Applies one partition's acknowledgements from {@code memberId}, all or none, as Kafka 4.3.1 checks them: every
     * batch well formed and after the one before it (touching at one offset is allowed), else INVALID_REQUEST with no
     * message, as its KafkaApis.validateAcknowledgementBatches; then batch by batch, as its SharePartition, with its
     * messages: offsets below the start offset are skipped (done with already: the log start moved past them, or
     * they were archived), a batch reaching past the end offset is INVALID_REQUEST ("past acquired records"), one
     * sent when nothing is in flight, or naming an offset not acquired by that member, INVALID_RECORD_STATE. Kafka
     * words the last apart for the batches it tracks whole and those it tracks per offset; the messages here are its
     * whole batch's, as a consumer acknowledges what it was given, whole batches, unless it acknowledges per record.
     * The start offset stays where it was until {@link #moveStartOffset}.
     */
    public synchronized AcknowledgeResult acknowledge(String memberId, List<Acknowledgement> acknowledgements) {
        expireLocks();
        long previousLast = -1;
        for (Acknowledgement ack : acknowledgements) {
            if (!ack.isValid() || ack.firstOffset() < previousLast) {
                return AcknowledgeResult.unexplained(Errors.INVALID_REQUEST);
            }
            previousLast = ack.lastOffset();
        }
        // A batch may start at the offset the one before it ended at, which that one acknowledged: then no longer
        // acquired, as Kafka's SharePartition finds it, unless it only renewed the lock.
        long acknowledgedAlready = -1;
        for (Acknowledgement ack : acknowledgements) {
            if (ack.lastOffset() < startOffset) {
                continue;
            }
            if (inFlight.isEmpty()) {
                return NOTHING_IN_FLIGHT;
            }
            if (ack.lastOffset() >= endOffset) {
                return ack.firstOffset() >= endOffset ? FIRST_OFFSET_PAST_ACQUIRED : LAST_OFFSET_PAST_ACQUIRED;
            }
            for (long offset = Math.max(ack.firstOffset(), startOffset); offset <= ack.lastOffset(); offset++) {
                InFlight record = inFlight.get(offset);
                if (record.state != RecordState.ACQUIRED || offset == acknowledgedAlready) {
                    return NOT_ACQUIRED;
                }
                if (!memberId.equals(record.owner)) {
                    return NOT_THE_OWNER;
                }
            }
            acknowledgedAlready = ack.typeOf(ack.lastOffset()) == AcknowledgeType.RENEW ? -1 : ack.lastOffset();
        }
        long renewedDeadline = clock.nowMs() + settings.recordLockDurationMs();
        for (Acknowledgement ack : acknowledgements) {
            for (long offset = Math.max(ack.firstOffset(), startOffset); offset <= ack.lastOffset(); offset++) {
                InFlight record = inFlight.get(offset);
                switch (ack.typeOf(offset)) {
                    case ACCEPT -> finish(record, RecordState.ACKNOWLEDGED);
                    case GAP, REJECT -> finish(record, RecordState.ARCHIVED);
                    case RELEASE -> release(record);
                    case RENEW -> record.lockDeadlineMs = renewedDeadline;
                }
            }
        }
        // Renewed under a shorter lock duration, a deadline can come before every earlier one.
        nextLockDeadlineMs = Math.min(nextLockDeadlineMs, renewedDeadline);
        return AcknowledgeResult.NONE;
    }

    /**
     * Releases every record {@code memberId} holds (its share session ended). Returns whether any was. As after
     * {@link #acknowledge}, the caller writes the state, then calls {@link #moveStartOffset}.
     */
    public synchronized boolean releaseAll(String memberId) {
        boolean released = false;
        for (InFlight record : inFlight.values()) {
            if (record.state == RecordState.ACQUIRED && memberId.equals(record.owner)) {
                release(record);
                released = true;
            }
        }
        return released;
    }

    /**
     * Moves the start offset past the records finished with at the head of the window (Kafka's
     * maybeUpdateCachedStateAndOffsets). {@link #acknowledge} and {@link #releaseAll} leave that to their caller,
     * which takes the {@link #snapshot()} to write first: Kafka's SharePartition writes a change with the start
     * offset it had before it, and moves the start offset once the write is done. So the share coordinator keeps
     * the records just finished with, above the old start offset, until the next write (after every record is
     * acknowledged, {@code kafka-share-groups.sh --describe --offsets} shows the old start offset on both).
     */
    public synchronized void moveStartOffset() {
        advanceStart();
    }

    /**
     * Releases the records whose lock has passed its deadline and moves the start offset past those finished with:
     * the expiry a fetch or an acknowledgement makes first, as if the lock's timer had fired and its write completed
     * (an acknowledgement's write then carries the moved start offset, as Kafka's next write would). Returns whether
     * any was released.
     */
    public synchronized boolean expireLocks() {
        boolean expired = releaseExpiredLocks();
        if (expired) {
            advanceStart();
        }
        return expired;
    }

    /**
     * Releases the records whose lock has passed its deadline, leaving the start offset where it was until
     * {@link #moveStartOffset}: the caller writes the state first, as Kafka 4.3.1's lock timeout
     * (releaseAcquisitionLockOnTimeout) writes the released records with the start offset as it is and moves it
     * (maybeUpdateCachedStateAndOffsets) once the write completes. Returns whether any was released.
     */
    public synchronized boolean releaseExpiredLocks() {
        long now = clock.nowMs();
        if (now < nextLockDeadlineMs) {
            return false;
        }
        boolean expired = false;
        long next = Long.MAX_VALUE;
        for (InFlight record : inFlight.values()) {
            if (record.state != RecordState.ACQUIRED) {
                continue;
            }
            if (record.lockDeadlineMs <= now) {
                release(record);
                expired = true;
            } else {
                next = Math.min(next, record.lockDeadlineMs);
            }
        }
        nextLockDeadlineMs = next;
        return expired;
    }

    /** How many records members hold now. */
    public synchronized int acquiredCount() {
        return (int) inFlight.values().stream().filter(r -> r.state == RecordState.ACQUIRED).count();
    }

    /** The state of {@code offset}: below the start offset it is done with, past the end never delivered. */
    public synchronized RecordState stateOf(long offset) {
        if (offset < startOffset) {
            return RecordState.ARCHIVED;
        }
        InFlight record = inFlight.get(offset);
        return record == null ? RecordState.AVAILABLE : record.state;
    }

    /** The durable state now: the window as runs of equal state and count, acquired records as available. */
    public synchronized ShareStateSnapshot snapshot() {
        List<ShareStateSnapshot.StateBatch> batches = new ArrayList<>();
        long first = -1;
        RecordState runState = null;
        int runCount = 0;
        long previous = -1;
        for (Map.Entry<Long, InFlight> entry : inFlight.entrySet()) {
            InFlight record = entry.getValue();
            RecordState state = record.state == RecordState.ACQUIRED ? RecordState.AVAILABLE : record.state;
            if (runState != state || runCount != record.deliveryCount) {
                if (runState != null) {
                    batches.add(new ShareStateSnapshot.StateBatch(first, previous, runState, runCount));
                }
                first = entry.getKey();
                runState = state;
                runCount = record.deliveryCount;
            }
            previous = entry.getKey();
        }
        if (runState != null) {
            batches.add(new ShareStateSnapshot.StateBatch(first, previous, runState, runCount));
        }
        return new ShareStateSnapshot(startOffset, batches);
    }

    /**
     * Resets the start offset (AlterShareGroupOffsets, only while no member holds records): the window is
     * forgotten and delivery starts at {@code offset}, under the state epoch the share coordinator initialized.
     */
    public synchronized void resetTo(long offset, int initializedStateEpoch) {
        inFlight.clear();
        startOffset = offset;
        endOffset = offset;
        stateEpoch = initializedStateEpoch;
    }

    private void release(InFlight record) {
        if (record.deliveryCount >= settings.deliveryCountLimit()) {
            finish(record, RecordState.ARCHIVED); // delivered as often as the group allows
        } else {
            record.state = RecordState.AVAILABLE;
            record.owner = null;
        }
    }

    private static void finish(InFlight record, RecordState state) {
        record.state = state;
        record.owner = null;
    }

    private void advanceStart() {
        Iterator<Map.Entry<Long, InFlight>> it = inFlight.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, InFlight> entry = it.next();
            if (!entry.getValue().state.isTerminal()) {
                break;
            }
            it.remove();
            startOffset = entry.getKey() + 1;
        }
        if (inFlight.isEmpty()) {
            startOffset = Math.max(startOffset, endOffset);
        }
    }

    @Override
    public String toString() {
        return "SharePartition(" + Objects.toString(key) + ", start " + startOffset + ", end " + endOffset + ")";
    }
}
