package io.minibroker.broker.network;

import org.junit.jupiter.api.Test;

import java.net.BindException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the tests that need nobody at a port rely on: refused connections, and no listener able to take the port. */
class RefusingPortTest {

    @Test
    void aConnectionIsRefused() throws Exception {
        try (RefusingPort nobody = new RefusingPort(); Socket client = new Socket()) {
            assertThatThrownBy(() -> client.connect(new InetSocketAddress("localhost", nobody.port())))
                    .isInstanceOf(ConnectException.class);
        }
    }

    /** Bound as the broker's listeners bind (SO_REUSEADDR, as Netty's ServerBootstrap is given), on any address. */
    @Test
    void noListenerCanTakeThePortWhileItIsHeld() throws Exception {
        try (RefusingPort nobody = new RefusingPort()) {
            for (InetSocketAddress address : new InetSocketAddress[]{new InetSocketAddress("localhost", nobody.port()),
                    new InetSocketAddress(nobody.port())}) {
                try (ServerSocketChannel listener = ServerSocketChannel.open()) {
                    listener.socket().setReuseAddress(true);
                    assertThatThrownBy(() -> listener.bind(address)).as(address.toString())
                            .isInstanceOf(BindException.class);
                }
            }
        }
    }
}
