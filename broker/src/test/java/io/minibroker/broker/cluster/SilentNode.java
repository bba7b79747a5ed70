package io.minibroker.broker.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;

/**
 * A node that takes one connection and never answers it: a request to it stays parked until the client gives up,
 * which is what tests of closing and aborting need to tell a close from a socket timeout.
 */
public final class SilentNode implements AutoCloseable {

    private final ServerSocket server;
    private final CountDownLatch requestArrived = new CountDownLatch(1);
    private final CompletableFuture<Void> connectionClosed;

    public SilentNode() throws IOException {
        server = new ServerSocket(0);
        connectionClosed = CompletableFuture.runAsync(() -> {
            try (Socket connection = server.accept(); InputStream in = connection.getInputStream()) {
                in.read(); // the request's first byte; never answered
                requestArrived.countDown();
                while (in.read() >= 0) {
                    // drain until the client closes its end
                }
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        });
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Waits until a request's first byte has arrived: the client is then waiting for the answer. */
    public void awaitRequest() throws InterruptedException {
        requestArrived.await();
    }

    /** Waits until the client has closed its end of the connection. */
    public void awaitConnectionClosed() {
        connectionClosed.join();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
