package io.minibroker.broker.cluster;

import org.junit.jupiter.api.Test;

import java.util.UUID;

/**
 * A broker stops following the controller at once: closing the {@link MetadataFetcher} while its fetch is parked
 * (here at a controller that never answers, with a socket timeout of ten minutes) aborts that fetch instead of
 * waiting for it, and ends the follower thread.
 */
class MetadataFetcherCloseTest {

    private static final int SOCKET_TIMEOUT_MS = 600_000;

    @Test
    void closingAbortsTheParkedFetch() throws Exception {
        try (SilentNode controller = new SilentNode()) {
            int port = controller.port();
            MetadataFetcher fetcher = new MetadataFetcher(
                    new NodeChannel("localhost", port, "close-test-metadata", SOCKET_TIMEOUT_MS),
                    new NodeChannel("localhost", port, "close-test-changes", SOCKET_TIMEOUT_MS),
                    1, UUID.randomUUID(), "PLAINTEXT", image -> { }, security -> { });
            fetcher.startFollowing();
            controller.awaitRequest(); // the Fetch, parked at the controller

            fetcher.close(); // joins the follower thread: it would wait out the socket timeout without the abort

            controller.awaitConnectionClosed(); // the controller saw the parked fetch's connection closed
        }
    }
}
