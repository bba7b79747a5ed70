package io.minibroker.broker.server;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The name Kafka advertises for a listener with no host: the local host's canonical name. */
final class LocalHost {

    private LocalHost() {
    }

    static String canonicalName() {
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
