package io.minibroker.benchmarks.scale;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Size-prefixed Kafka frames over a blocking socket, for the scale drivers of broker-perf.sh. The requests are
 * kafka-clients' own, so the same bytes go to minibroker and to Kafka.
 */
final class Wire {
    private static final String CLIENT_ID = "broker-perf-scale";

    private Wire() {
    }

    /** The request, framed: its size, its header and its body. */
    static ByteBuffer frame(AbstractRequest request, int correlationId) {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), CLIENT_ID, correlationId);
        ByteBuffer body = request.serializeWithHeader(header);
        ByteBuffer framed = ByteBuffer.allocate(4 + body.remaining());
        framed.putInt(body.remaining()).put(body).flip();
        return framed;
    }

    static void write(SocketChannel channel, ByteBuffer framed) throws IOException {
        while (framed.hasRemaining()) {
            channel.write(framed);
        }
    }

    /** One round trip: writes the request and reads and parses its answer. */
    static AbstractResponse roundTrip(SocketChannel channel, AbstractRequest request, int correlationId)
            throws IOException {
        write(channel, frame(request, correlationId));
        ByteBuffer answer = readFully(channel, readFully(channel, 4).getInt(0));
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), CLIENT_ID, correlationId);
        return AbstractResponse.parseResponse(answer, header);
    }

    static ByteBuffer readFully(SocketChannel channel, int bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(bytes);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new IOException("the broker closed connection after " + buffer.position() + " of " + bytes + " bytes");
            }
        }
        buffer.flip();
        return buffer;
    }
}
