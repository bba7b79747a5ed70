package io.minibroker.broker.embedded;

import java.io.IOException;
import java.net.BindException;
import java.net.ServerSocket;

/**
 * Starts something on a port that must be named before anything binds it: a cluster's controller listener, which
 * every node's {@code controller.quorum.voters} names before the controller is up. The port is picked free (bound at
 * 0 and closed), so any socket of the machine (another test's broker or client, another JVM) can take it before the
 * start binds it. The start then fails with a {@link BindException}, having released what it took; nothing has
 * learned the port yet, so a start on another one is the same start. Bounded: a start refused
 * {@value #MAX_ATTEMPTS} times in a row is failed with the last refusal.
 */
public final class PickedPort {

    /** How many picked ports a start is tried on before the last one's BindException is thrown. */
    public static final int MAX_ATTEMPTS = 5;

    /** What runs on the port picked, throwing {@link BindException} (and leaving nothing running) when it is taken. */
    @FunctionalInterface
    public interface Start<T> {
        T on(int port) throws IOException, InterruptedException;
    }

    /** Where the ports come from: {@link #free} but in a test that hands out a port it has taken. */
    @FunctionalInterface
    public interface Picker {
        int pick() throws IOException;
    }

    private PickedPort() {
    }

    /** Runs {@code start} on a free port, on another one each time the port is taken before the start binds it. */
    public static <T> T start(Start<T> start) throws IOException, InterruptedException {
        return start(PickedPort::free, start);
    }

    /** {@link #start(Start)} with the ports {@code picker} hands out. */
    public static <T> T start(Picker picker, Start<T> start) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return start.on(picker.pick());
            } catch (BindException e) {
                if (attempt == MAX_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** A port no socket of this machine holds now; it may be taken again the moment this returns. */
    public static int free() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
