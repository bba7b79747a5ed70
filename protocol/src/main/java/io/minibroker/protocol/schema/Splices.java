package io.minibroker.protocol.schema;

import io.minibroker.protocol.error.ProtocolException;
import java.util.ArrayList;
import java.util.List;

/**
 * The records payloads met while a message was encoded, in wire order, each with the position in the output
 * buffer right after its length prefix: where the encoded bytes are cut for the payload to go in between.
 */
public final class Splices {

    /** For an encoding into one buffer, which has no place for a payload. */
    static final Splices NONE = new Splices(false);

    private final boolean accepting;
    private final List<RecordsPayload> payloads = new ArrayList<>();
    private final List<Integer> positions = new ArrayList<>();

    private Splices(boolean accepting) {
        this.accepting = accepting;
    }

    /** An empty list that accepts payloads. */
    public Splices() {
        this(true);
    }

    void add(int position, RecordsPayload payload) {
        if (!accepting) {
            throw new ProtocolException("records payload of " + payload.sizeInBytes()
                    + " bytes in a message encoded into a single buffer");
        }
        payloads.add(payload);
        positions.add(position);
    }

    public int count() {
        return payloads.size();
    }

    public RecordsPayload payload(int index) {
        return payloads.get(index);
    }

    /** The bytes of all the payloads: what the frame carries beyond the encoded buffer. */
    public int payloadBytes() {
        int bytes = 0;
        for (RecordsPayload payload : payloads) {
            bytes += payload.sizeInBytes();
        }
        return bytes;
    }

    public int position(int index) {
        return positions.get(index);
    }
}
