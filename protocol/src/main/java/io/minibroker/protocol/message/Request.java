package io.minibroker.protocol.message;

import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.schema.Struct;

/** A decoded request: its header, the API it belongs to, and its body. */
public record Request(RequestHeader header, ApiKey api, Struct body) {
    public short version() {
        return header.apiVersion();
    }
}
