package io.minibroker.broker.network;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A port where every connection is refused for as long as this is open: a socket bound there, on every address, that
 * never listens (without SO_REUSEADDR, so that no listener of the machine can bind the port beside it). A port merely
 * freed (bound at 0 and closed) can be taken meanwhile by any listener of the machine, another test's broker among
 * them, which would then answer in place of nobody.
 */
public final class RefusingPort implements AutoCloseable {

    private final Socket held = new Socket();

    public RefusingPort() throws IOException {
        held.setReuseAddress(false);
        held.bind(new InetSocketAddress(0));
    }

    public int port() {
        return held.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        held.close();
    }
}
