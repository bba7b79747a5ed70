package io.minibroker.testkit.junit;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Topic names of one test: tests that share a broker (every test of a class, or of a run) cannot see each
 * other's topics when each names its topics through its own namespace. A parameter of this type gets the same
 * namespace in a test's {@code @BeforeEach} methods and in the test itself.
 */
public final class TopicNamespace {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    /** Kafka's limit is 249 characters; the owner's name is cut well before so that suffixes fit. */
    private static final int MAX_OWNER_LENGTH = 100;

    private final String prefix;

    TopicNamespace(String owner) {
        // Only letters, digits and '-': Kafka warns about topics whose names differ only in '.' versus '_'.
        String legal = owner.replaceAll("[^a-zA-Z0-9-]", "-");
        this.prefix = legal.substring(0, Math.min(legal.length(), MAX_OWNER_LENGTH)) + "-"
                + SEQUENCE.incrementAndGet() + "-";
    }

    /** The namespace's prefix, such as {@code roundTrip-7-}; every topic of the namespace starts with it. */
    public String prefix() {
        return prefix;
    }

    /** This namespace's topic of that name: {@code topic("orders")} is {@code roundTrip-7-orders}. */
    public String topic(String name) {
        return prefix + name;
    }
}
