package io.minibroker.broker.cluster;

import io.minibroker.protocol.message.ApiKey;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link NodeChannel#abort}: a request parked at a node that has not answered fails at once, not at the socket
 * timeout, and the channel stays closed; what a broker's metadata follower needs to stop without waiting.
 */
class NodeChannelAbortTest {

    /** Long enough that a send failing by timeout, not by the abort, is told apart. */
    private static final int SOCKET_TIMEOUT_MS = 600_000;

    @Test
    void abortFailsTheRequestUnderWayAndEveryLaterOne() throws Exception {
        try (SilentNode silent = new SilentNode()) {
            NodeChannel channel = new NodeChannel("localhost", silent.port(), "abort-test", SOCKET_TIMEOUT_MS);
            CompletableFuture<Void> send = CompletableFuture.runAsync(() -> {
                try {
                    channel.send(ApiKey.METADATA, ApiKey.METADATA.request().newMessage().set("Topics", null));
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            });
            silent.awaitRequest();

            channel.abort();

            assertThatThrownBy(send::join).hasCauseInstanceOf(IOException.class)
                    .satisfies(e -> assertThat(e.getCause()).isNotInstanceOf(SocketTimeoutException.class));
            silent.awaitConnectionClosed();
            assertThatThrownBy(() -> channel.send(ApiKey.METADATA,
                    ApiKey.METADATA.request().newMessage().set("Topics", null))).isInstanceOf(IOException.class);
        }
    }
}
