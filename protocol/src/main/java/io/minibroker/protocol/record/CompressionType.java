package io.minibroker.protocol.record;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;

/** The codec of a record batch, stored in the low three bits of its attributes. */
public enum CompressionType {
    NONE(0),
    GZIP(1),
    SNAPPY(2),
    LZ4(3),
    ZSTD(4);

    private final int id;

    CompressionType(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    public static CompressionType forId(int id) {
        switch (id) {
            case 0:
                return NONE;
            case 1:
                return GZIP;
            case 2:
                return SNAPPY;
            case 3:
                return LZ4;
            case 4:
                return ZSTD;
            default:
                throw new ProtocolException(Errors.UNSUPPORTED_COMPRESSION_TYPE, "unknown compression codec " + id);
        }
    }
}
