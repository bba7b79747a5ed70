package io.minibroker.broker.fetch;

/**
 * The MinBytes and MaxBytes a consumer's fetch is served with, as Kafka's KafkaApis bounds them for Fetch and
 * ShareFetch alike: MaxBytes no more than the broker allows ({@code fetch.max.bytes}, and the client's fetch quota
 * window), MinBytes no more than that MaxBytes, so that a fetch never waits for more than it could be answered with.
 */
public record FetchBytes(int minBytes, int maxBytes) {

    /** The request's bounds capped by {@code brokerMaxBytes}. */
    public static FetchBytes capped(int requestMinBytes, int requestMaxBytes, int brokerMaxBytes) {
        int maxBytes = Math.min(requestMaxBytes, brokerMaxBytes);
        return new FetchBytes(Math.min(requestMinBytes, maxBytes), maxBytes);
    }
}
