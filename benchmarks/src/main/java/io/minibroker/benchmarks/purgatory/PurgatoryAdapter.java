package io.minibroker.benchmarks.purgatory;

/**
 * The harness's only view of a purgatory, so that both implementations run through the same code path and differ
 * only behind this interface. Each implementation allocates its key objects once, at construction.
 */
public interface PurgatoryAdapter {

    /** The name printed in the result lines. */
    String impl();

    /**
     * Creates the operation for {@code request} with the seed benchmark's timeout and hands it to the purgatory's
     * tryCompleteElseWatch on the three keys with the given indices.
     */
    BenchOperation submit(int request, int key0, int key1, int key2);

    /** The purgatory's checkAndComplete on the key with that index; returns how many it completed. */
    int checkAndComplete(int key);

    /** Operations still in the timer. */
    long numDelayed();

    /** Watch entries still held across all keys, counting husks not yet purged. */
    long watched();

    /** Stops the purgatory's threads; what is still waiting expires. */
    void shutdown() throws Exception;

    /** Operations record their end in {@code outcomes}; their tryComplete succeeds once {@code conditions} hold. */
    static PurgatoryAdapter create(String impl, Outcomes outcomes, Conditions conditions) {
        return switch (impl) {
            case MinibrokerAdapter.IMPL -> new MinibrokerAdapter(outcomes, conditions);
            case KafkaAdapter.IMPL -> new KafkaAdapter(outcomes, conditions);
            case HarnessOnlyAdapter.IMPL -> new HarnessOnlyAdapter(outcomes);
            default -> throw new IllegalArgumentException("unknown impl: " + impl);
        };
    }
}
