package io.minibroker.broker.network;

import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Response;
import io.minibroker.protocol.message.view.ApiVersionsRequestView;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.AbstractResponse;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/** A blocking socket that speaks raw Kafka frames, for tests that need bytes a real client would never send. */
public final class RawClient implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    public RawClient(int port) throws IOException {
        socket = new Socket("localhost", port);
        socket.setSoTimeout(10_000);
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        out = socket.getOutputStream();
    }

    /** Encodes a request with our codec (size prefix included). */
    public static byte[] request(ApiKey api, short version, int correlationId, Struct body) {
        return MessageCodec.encodeRequestToArray(new RequestHeader(api.id(), version, correlationId, "raw-client"),
                body);
    }

    /**
     * The ApiVersions body this client sends: it names itself, as clients do from v3 on (a version before leaves the
     * names out). Tests add the fields of later versions to it.
     */
    public static ApiVersionsRequestView apiVersionsBody() {
        return new ApiVersionsRequestView().clientSoftwareName("raw").clientSoftwareVersion("1");
    }

    /** An ApiVersions request with {@link #apiVersionsBody()}, encoded as {@link #request} does. */
    public static byte[] apiVersions(short version, int correlationId) {
        return request(ApiKey.API_VERSIONS, version, correlationId, apiVersionsBody().struct());
    }

    /** Sends an ApiVersions request at {@code version} and reads its answer, at that version too. */
    public ApiVersionsResponseView askApiVersions(short version, int correlationId) throws IOException {
        send(apiVersions(version, correlationId));
        return new ApiVersionsResponseView(receive(ApiKey.API_VERSIONS, version).body());
    }

    /** Rewrites the API version of an encoded request, to send one our codec would not encode. */
    public static byte[] withVersion(byte[] request, short version) {
        ByteBuffer.wrap(request).putShort(6, version); // size(4) apiKey(2) apiVersion(2)
        return request;
    }

    public void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    public Response receive(ApiKey api, short version) throws IOException {
        return MessageCodec.decodeResponse(Unpooled.wrappedBuffer(receiveFrame()), api, version);
    }

    /**
     * Sends one request (correlation id 1) and reads its answer's body; an I/O failure is unchecked, for a test
     * that asks from a condition it waits on.
     */
    public Struct exchange(ApiKey api, short version, Struct body) {
        try {
            send(request(api, version, 1, body));
            return receive(api, version).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sends {@code request} encoded by kafka-clients' own generated classes, as a Kafka client would put it on the
     * wire, and reads the answer with them too: for tests that compare answers field by field with what a Kafka node
     * gave for the same request.
     */
    public ApiMessage exchange(ApiKeys api, short version, ApiMessage request) throws IOException {
        org.apache.kafka.common.requests.RequestHeader header =
                new org.apache.kafka.common.requests.RequestHeader(api, version, "raw-client", 1);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        short headerVersion = header.headerVersion();
        int size = header.data().size(cache, headerVersion) + request.size(cache, version);
        ByteBuffer frame = ByteBuffer.allocate(Integer.BYTES + size).putInt(size);
        ByteBufferAccessor writer = new ByteBufferAccessor(frame);
        header.data().write(writer, cache, headerVersion);
        request.write(writer, cache, version);
        send(frame.array());
        return AbstractResponse.parseResponse(ByteBuffer.wrap(receiveFrame()), header).data();
    }

    /** The next response frame's bytes after its size prefix, for a parser of another's making. */
    public byte[] receiveFrame() throws IOException {
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        return body;
    }

    /** Whether a response starts arriving within {@code ms}; nothing of it is consumed. */
    public boolean answersWithin(int ms) throws IOException {
        socket.setSoTimeout(ms);
        in.mark(1);
        try {
            return in.read() != -1;
        } catch (SocketTimeoutException e) {
            return false;
        } finally {
            in.reset();
            socket.setSoTimeout(10_000);
        }
    }

    /** True if the broker closed the connection (end of stream or reset) within the socket timeout. */
    public boolean closedByBroker() throws IOException {
        try {
            return in.read() == -1;
        } catch (EOFException | SocketException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
