package io.minibroker.protocol.schema;

import java.util.Arrays;

/**
 * A tagged field this broker's schema does not know. It is kept verbatim so that a decoded message
 * re-encodes to the bytes it came from.
 */
public record RawTaggedField(int tag, byte[] data) {
    @Override
    public boolean equals(Object o) {
        return o instanceof RawTaggedField && ((RawTaggedField) o).tag == tag && Arrays.equals(((RawTaggedField) o).data, data);
    }

    @Override
    public int hashCode() {
        return 31 * tag + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "RawTaggedField(" + tag + ", " + data.length + " bytes)";
    }
}
