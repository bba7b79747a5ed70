package io.minibroker.broker.cluster;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broker stops following the controller at once: closing the {@link MetadataFetcher} while its fetch is parked
 * (here at a controller that never answers, with a socket timeout of ten minutes) aborts that fetch instead of
 * waiting for it, and ends the follower thread.
 */
class MetadataFetcherCloseTest {

    private static final int SOCKET_TIMEOUT_MS = 600_000;

    @Test
    void closingAbortsTheParkedFetch() throws Exception {
        CountDownLatch fetchArrived = new CountDownLatch(1);
        try (ServerSocket controller = new ServerSocket(0)) {
            CompletableFuture<Void> connectionClosed = CompletableFuture.runAsync(() -> {
                try (Socket connection = controller.accept(); InputStream in = connection.getInputStream()) {
                    in.read(); // the Fetch's first byte; never answered, as a fetch parked at the controller
                    fetchArrived.countDown();
                    while (in.read() >= 0) {
                        // until the broker closes its end
                    }
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            });
            int port = controller.getLocalPort();
            MetadataFetcher fetcher = new MetadataFetcher(
                    new NodeChannel("localhost", port, "close-test-metadata", SOCKET_TIMEOUT_MS),
                    new NodeChannel("localhost", port, "close-test-changes", SOCKET_TIMEOUT_MS),
                    1, 0, "PLAINTEXT", image -> { }, security -> { });
            fetcher.startFollowing();
            fetchArrived.await();

            fetcher.close(); // joins the follower thread: it would wait out the socket timeout without the abort

            connectionClosed.join(); // the controller saw the parked fetch's connection closed
            assertThat(connectionClosed).isCompleted();
        }
    }
}
