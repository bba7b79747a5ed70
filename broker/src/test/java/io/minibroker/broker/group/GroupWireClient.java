package io.minibroker.broker.group;

import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.util.List;
import java.util.Map;

/**
 * A blocking one-request-at-a-time Kafka connection for group tests that play a member by hand: one that
 * sends exactly the requests a test wants, and stops heartbeating when the test says so.
 */
final class GroupWireClient implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private int correlationId;

    GroupWireClient(int port) throws IOException {
        socket = new Socket("localhost", port);
        socket.setSoTimeout(30_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Sends the request and waits for its response body. */
    synchronized Struct call(ApiKey api, int version, Struct body) throws IOException {
        ByteBuf request = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(api.id(), (short) version, ++correlationId, "wire-client"), body);
        try {
            byte[] bytes = new byte[request.readableBytes()];
            request.readBytes(bytes);
            out.write(bytes);
            out.flush();
        } finally {
            request.release();
        }
        byte[] response = new byte[in.readInt()];
        in.readFully(response);
        return MessageCodec.decodeResponse(Unpooled.wrappedBuffer(response), api, (short) version).body();
    }

    /** The group's state as DescribeGroups names it ("Stable", "PreparingRebalance", ...). */
    String describedState(String groupId) throws IOException {
        return describe(groupId).getString("GroupState");
    }

    /** How many members DescribeGroups lists for the group, those whose join is parked included. */
    int describedMemberCount(String groupId) {
        try {
            return describe(groupId).getStructs("Members").size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Struct describe(String groupId) throws IOException {
        Struct request = ApiKey.DESCRIBE_GROUPS.request().newMessage().set("Groups", List.of(groupId));
        return call(ApiKey.DESCRIBE_GROUPS, 5, request).getStructs("Groups").get(0);
    }

    /** Replaces the offsets topic's config overrides (AlterConfigs); answers the error code. */
    short alterOffsetsTopic(Map<String, String> overrides) throws IOException {
        Struct request = ApiKey.ALTER_CONFIGS.request().newMessage().set("ValidateOnly", false);
        Struct resource = request.addElement("Resources").set("ResourceType", (byte) 2)
                .set("ResourceName", "__consumer_offsets");
        overrides.forEach((name, value) -> resource.addElement("Configs").set("Name", name).set("Value", value));
        return call(ApiKey.ALTER_CONFIGS, 2, request).getStructs("Responses").get(0).getInt16("ErrorCode");
    }

    /** Every group batch is larger than this: {@code __consumer_offsets} refuses each at its append. */
    void refuseOffsetsTopicWrites() throws IOException {
        expectNone(alterOffsetsTopic(Map.of("max.message.bytes", "32")));
    }

    /** The offsets topic's overrides gone: writes are taken again. */
    void acceptOffsetsTopicWrites() throws IOException {
        expectNone(alterOffsetsTopic(Map.of()));
    }

    private static void expectNone(short error) {
        if (error != 0) {
            throw new IllegalStateException("AlterConfigs of __consumer_offsets answered error " + error);
        }
    }

    /** {@link #describedState} as a condition to wait on. */
    boolean stateIs(String groupId, String state) {
        try {
            return describedState(groupId).equals(state);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
