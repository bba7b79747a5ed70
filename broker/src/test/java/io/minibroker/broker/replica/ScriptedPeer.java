package io.minibroker.broker.replica;

import io.minibroker.protocol.frame.OutboundFrame;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Optional;

/**
 * A node on a local port that a broker's channel talks to (a leader, a controller), answering each request with
 * what the test's handler gives; no answer closes the connection. One connection at a time, on a thread of its own.
 */
public final class ScriptedPeer implements AutoCloseable {

    /** The answer to one request, empty to close the connection without one; may wait for the test to give it. */
    public interface Handler {
        Optional<Struct> answer(Request request) throws InterruptedException;
    }

    private final ServerSocket server;
    private final Handler handler;
    private final Thread thread;

    public ScriptedPeer(String name, Handler handler) {
        try {
            server = new ServerSocket(0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        this.handler = handler;
        thread = new Thread(this::serve, name);
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket connection = server.accept()) {
                DataInputStream in = new DataInputStream(connection.getInputStream());
                OutputStream out = connection.getOutputStream();
                while (true) {
                    byte[] frame = new byte[in.readInt()];
                    in.readFully(frame);
                    Request request = MessageCodec.decodeRequest(Unpooled.wrappedBuffer(frame));
                    Optional<Struct> body = handler.answer(request);
                    if (body.isEmpty()) {
                        break;
                    }
                    OutboundFrame answer = MessageCodec.encodeResponse(ByteBufAllocator.DEFAULT, request.api(),
                            request.header().apiVersion(), request.header().correlationId(), body.get());
                    for (Object piece : answer.pieces()) {
                        ByteBuf bytes = (ByteBuf) piece;
                        bytes.readBytes(out, bytes.readableBytes());
                    }
                    answer.release();
                    out.flush();
                }
            } catch (IOException e) {
                // the broker closed, or the test ended: take the next connection, if any
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        thread.interrupt();
    }
}
