package io.minibroker.broker.fetch.session;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.FetchRequestView;

import java.util.Map;
import java.util.function.Supplier;

/**
 * What a Fetch request is with respect to sessions, as Kafka's FetchManager sorts them: refused for its session, served
 * without one, a full fetch that may open one, or an incremental fetch of an open session.
 */
public sealed interface FetchContext {

    /** Fetch before v7, a fetch with epoch -1, or an incremental one that forgot its session's last partitions. */
    FetchContext SESSIONLESS = new Sessionless();

    /** Refused at the top level, without partitions: FETCH_SESSION_ID_NOT_FOUND, INVALID_FETCH_SESSION_EPOCH, ... */
    record SessionError(Errors error) implements FetchContext {
    }

    /** Answered in full with session id 0. */
    record Sessionless() implements FetchContext {
    }

    /**
     * Answered in full; once answered, a session of the request's partitions is opened if the cache takes it, each
     * cached as the request asked for it.
     */
    record Full(FetchManager manager, boolean privileged, boolean usesTopicIds, FetchRequestView request)
            implements FetchContext {

        /** The session opened for the answer, or null when the cache has no slot for it. */
        public FetchSession open(int size, Supplier<Map<SessionPartition, CachedPartition>> partitions) {
            return manager.open(privileged, size, usesTopicIds, partitions);
        }
    }

    /**
     * The session's partitions are read; the answer names only those that changed. {@code requestEpoch} is the
     * request's, by which the answer checks that no later request moved the session on meanwhile.
     */
    record Incremental(FetchSession session, int requestEpoch) implements FetchContext {
    }
}
