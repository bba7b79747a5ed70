package io.minibroker.protocol.message;

import io.minibroker.protocol.schema.Struct;

/** A decoded response as the broker's client side sees it: the correlation id it answers, and its body. */
public record Response(int correlationId, Struct body) {
}
