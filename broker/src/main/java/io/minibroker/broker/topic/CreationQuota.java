package io.minibroker.broker.topic;

import java.util.function.IntPredicate;

/**
 * What the topics created on a client's account count against, its {@code controller_mutation_rate}: for one request,
 * a test of each topic's partitions, true if the topic may be created (the quota then counts them), false if the
 * quota refuses it (THROTTLING_QUOTA_EXCEEDED). The quota package implements it; this package only asks.
 */
@FunctionalInterface
public interface CreationQuota {

    /** The quota of one request's creations on {@code client}'s account. */
    IntPredicate forRequestOf(RequestingClient client);
}
