package io.minibroker.broker.control;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.schema.ErrorCodes;
import io.minibroker.protocol.schema.Struct;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * A broker's own {@link RequestLog}: the requests it received while recording was on, the latest {@value #CAPACITY}
 * of them. Waiting is on this log's monitor, woken by each arrival and each answer, never by polling. In process, a
 * test may also query and await with any predicate over {@link LoggedRequest}.
 */
public final class RecordedRequests implements RequestLog {

    private final LongSupplier wallClockMs;
    private final ArrayDeque<LoggedRequest> requests = new ArrayDeque<>();
    private volatile boolean recording;
    /** Arrivals and answers logged so far: an await scans again only when it has moved. */
    private long changes;

    /** An await's timeout is the test's real time, even when the broker runs on a manual clock. */
    private static final BrokerClock REAL_TIME = BrokerClock.system();

    RecordedRequests(LongSupplier wallClockMs) {
        this.wallClockMs = wallClockMs;
    }

    @Override
    public void start() {
        recording = true;
    }

    @Override
    public void stop() {
        recording = false;
    }

    @Override
    public boolean recording() {
        return recording;
    }

    @Override
    public synchronized void clear() {
        requests.clear();
    }

    @Override
    public List<LoggedRequest> find(RequestMatch match) {
        return find(logged -> match.matches(logged.facts()));
    }

    public synchronized List<LoggedRequest> find(Predicate<LoggedRequest> which) {
        List<LoggedRequest> found = new ArrayList<>();
        for (LoggedRequest logged : requests) {
            if (which.test(logged)) {
                found.add(logged);
            }
        }
        return found;
    }

    @Override
    public Optional<LoggedRequest> await(RequestMatch match, Duration timeout) throws InterruptedException {
        return await(logged -> match.matches(logged.facts()), timeout);
    }

    @Override
    public Optional<LoggedRequest> awaitAnswer(RequestMatch match, Errors error, Duration timeout)
            throws InterruptedException {
        return await(logged -> match.matches(logged.facts()) && logged.errors().contains(error), timeout);
    }

    /**
     * Waits until a logged request satisfies {@code which}, at most {@code timeout} (real time: it waits on the
     * clients); empty if none did. Recording must be on for new requests to be seen. {@code which} runs on a copy
     * of the log, off its monitor: the event loops that log each arrival and answer never wait for a scan.
     */
    public Optional<LoggedRequest> await(Predicate<LoggedRequest> which, Duration timeout)
            throws InterruptedException {
        long deadline = REAL_TIME.monotonicNanos() + timeout.toNanos();
        long scanned = -1;
        while (true) {
            LoggedRequest[] snapshot;
            synchronized (this) {
                while (changes == scanned) {
                    long left = deadline - REAL_TIME.monotonicNanos();
                    if (left <= 0) {
                        return Optional.empty();
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
                scanned = changes;
                snapshot = requests.toArray(new LoggedRequest[0]);
            }
            for (LoggedRequest logged : snapshot) {
                if (which.test(logged)) {
                    return Optional.of(logged);
                }
            }
            if (REAL_TIME.monotonicNanos() >= deadline) {
                return Optional.empty();
            }
        }
    }

    /** A request arrived: logged if recording, else null. */
    LoggedRequest arrived(RequestFacts facts) {
        if (!recording) {
            return null;
        }
        LoggedRequest logged = new LoggedRequest(facts, wallClockMs.getAsLong());
        synchronized (this) {
            if (requests.size() == CAPACITY) {
                requests.removeFirst();
            }
            requests.addLast(logged);
            changes++;
            notifyAll();
        }
        return logged;
    }

    /** Its answer is written: its time and error codes ({@code body} null for a request never answered). */
    void answered(LoggedRequest logged, short version, Struct body) {
        List<Errors> errors = new ArrayList<>(1);
        if (body != null) {
            ErrorCodes.forEach(body, version, code -> {
                Errors error = Errors.forCode((short) code);
                if (error != Errors.NONE && !errors.contains(error)) {
                    errors.add(error);
                }
            });
        }
        synchronized (this) {
            logged.answer(wallClockMs.getAsLong(), List.copyOf(errors));
            changes++;
            notifyAll();
        }
    }
}
