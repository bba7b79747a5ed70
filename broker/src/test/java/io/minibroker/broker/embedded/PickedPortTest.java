package io.minibroker.broker.embedded;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.BindException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A start on a picked port whose port was taken before it bound it, made certain: the picker hands out a port this
 * test holds, as any socket of the machine could have taken it between the pick and the bind.
 */
class PickedPortTest {

    @Test
    void aPortTakenBeforeTheBindIsPickedAgain() throws Exception {
        List<Integer> tried = new ArrayList<>();
        try (ServerSocket taken = new ServerSocket(0)) {
            int bound = PickedPort.start(takenFirst(taken.getLocalPort()), port -> {
                tried.add(port);
                return bindAndRelease(port);
            });
            assertThat(tried).hasSize(2).first().isEqualTo(taken.getLocalPort());
            assertThat(bound).isEqualTo(tried.get(1)).isNotEqualTo(taken.getLocalPort());
        }
    }

    @Test
    void aStartRefusedAtEveryAttemptFailsWithTheLastRefusal() throws Exception {
        List<Integer> tried = new ArrayList<>();
        try (ServerSocket taken = new ServerSocket(0)) {
            assertThatThrownBy(() -> PickedPort.start(taken::getLocalPort, port -> {
                tried.add(port);
                return bindAndRelease(port);
            })).isInstanceOf(BindException.class);
        }
        assertThat(tried).hasSize(PickedPort.MAX_ATTEMPTS);
    }

    @Test
    void anotherFailureIsNotTriedAgain() {
        List<Integer> tried = new ArrayList<>();
        assertThatThrownBy(() -> PickedPort.start(port -> {
            tried.add(port);
            throw new IOException("no space left on device");
        })).isInstanceOf(IOException.class).isNotInstanceOf(BindException.class);
        assertThat(tried).hasSize(1);
    }

    /** {@code port} first, then free ones. */
    private static PickedPort.Picker takenFirst(int port) {
        boolean[] handedOut = {false};
        return () -> {
            if (handedOut[0]) {
                return PickedPort.free();
            }
            handedOut[0] = true;
            return port;
        };
    }

    /** What a listener's start does with the port: binds it (or throws BindException); here released at once. */
    private static int bindAndRelease(int port) throws IOException {
        try (ServerSocket listener = new ServerSocket(port)) {
            return listener.getLocalPort();
        }
    }
}
