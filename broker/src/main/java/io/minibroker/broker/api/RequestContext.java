package io.minibroker.broker.api;

import java.net.SocketAddress;

/** Where a request came from: the listener it arrived on (Metadata answers with that listener's addresses). */
public record RequestContext(String listenerName, SocketAddress clientAddress) {
}
