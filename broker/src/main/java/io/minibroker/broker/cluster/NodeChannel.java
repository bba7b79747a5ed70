package io.minibroker.broker.cluster;

import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Response;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.ThreadLocalRandom;
import javax.net.ssl.SSLSocket;

/**
 * A broker's connection to another node (the controller, or a partition's leader): one request at a time over a
 * blocking socket, so it is used only from threads of the broker's own that may wait (never an event loop).
 * Connects on first use and again after a failure, with TLS when the node's listener is SSL or SASL_SSL (its
 * certificate checked against this broker's trust store and, by default, its host name) and signing in first when
 * it is SASL_PLAINTEXT or SASL_SSL; a request that fails throws, and the caller retries on its own schedule.
 */
public final class NodeChannel implements AutoCloseable {

    private final String host;
    private final int port;
    private final String clientId;
    private final int timeoutMs;
    /** TLS and SASL sign-in to the node's listener, each if it asks for them. */
    private final ClientSecurity security;
    /** Volatile for {@link #abort}, which closes it without waiting for the request under way. */
    private volatile Socket socket;
    private volatile boolean aborted;
    private int correlationId;
    /** When to sign in again on the open connection, on the broker's clock; Long.MAX_VALUE: never. */
    private long reauthenticateAtMs = Long.MAX_VALUE;

    /** A connection to a PLAINTEXT listener. */
    public NodeChannel(String host, int port, String clientId, int timeoutMs) {
        this(host, port, clientId, timeoutMs, ClientSecurity.NONE);
    }

    public NodeChannel(String host, int port, String clientId, int timeoutMs, ClientSecurity security) {
        this.host = host;
        this.port = port;
        this.clientId = clientId;
        this.timeoutMs = timeoutMs;
        this.security = security;
    }

    /** Sends a request in the API's highest stable version and answers the response body. */
    public synchronized Struct send(ApiKey api, Struct body) throws IOException {
        return send(api, api.highestStableVersion(), body);
    }

    /** Sends a request in this version and answers the response body, in the same version. */
    public synchronized Struct send(ApiKey api, short version, Struct body) throws IOException {
        try {
            return exchange(reauthenticated(connected()), api, version, body);
        } catch (IOException | RuntimeException e) {
            close(); // the stream may be mid-frame: never reuse it
            throw e instanceof IOException io ? io : new IOException("bad response from " + host + ":" + port, e);
        }
    }

    private Struct exchange(Socket connection, ApiKey api, short version, Struct body) throws IOException {
        int id = ++correlationId;
        ByteBuf frame = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(api.id(), version, id, clientId), body);
        try {
            OutputStream out = connection.getOutputStream();
            frame.readBytes(out, frame.readableBytes());
            out.flush();
        } finally {
            frame.release();
        }
        DataInputStream in = new DataInputStream(connection.getInputStream());
        byte[] response = new byte[in.readInt()];
        in.readFully(response);
        Response decoded = MessageCodec.decodeResponse(Unpooled.wrappedBuffer(response), api, version);
        if (decoded.correlationId() != id) {
            throw new IOException(host + ":" + port + " answered request " + decoded.correlationId()
                    + " when " + id + " was outstanding");
        }
        return decoded.body();
    }

    private Socket connected() throws IOException {
        if (aborted) {
            throw new IOException("the connection to " + host + ":" + port + " was aborted");
        }
        if (socket == null) {
            Socket tcp = new Socket();
            Socket fresh = tcp;
            try {
                tcp.connect(new InetSocketAddress(host, port), timeoutMs);
                tcp.setSoTimeout(timeoutMs);
                tcp.setTcpNoDelay(true);
                if (security.tls() != null) {
                    SSLSocket tls = security.tls().clientSocket(tcp, host, port);
                    fresh = tls;
                    tls.startHandshake(); // bounded by the read timeout; fails if the certificate does not check out
                }
                if (security.login() != null) {
                    signIn(fresh);
                }
            } catch (IOException e) {
                fresh.close();
                tcp.close();
                throw e;
            }
            socket = fresh;
            if (aborted) { // abort() ran meanwhile and may have missed the new socket: it writes the flag first
                close();
                throw new IOException("the connection to " + host + ":" + port + " was aborted");
            }
        }
        return socket;
    }

    /**
     * Signs in on the connection, and sets when to again: as kafka-clients' SaslClientAuthenticator, at 85% to 95%
     * (jitter, so that many connections do not all at once) of the session's lifetime, when the node gave one.
     */
    private void signIn(Socket connection) throws IOException {
        long lifetimeMs = security.login().authenticate((api, version, body) -> exchange(connection, api, version,
                body));
        reauthenticateAtMs = lifetimeMs <= 0 ? Long.MAX_VALUE : security.monotonicMs().getAsLong()
                + (long) (lifetimeMs * (0.85 + 0.10 * ThreadLocalRandom.current().nextDouble()));
    }

    /** The open connection, signed in again first if its session is near its end (KIP-368). */
    private Socket reauthenticated(Socket connection) throws IOException {
        if (security.login() != null && security.monotonicMs().getAsLong() >= reauthenticateAtMs) {
            signIn(connection);
        }
        return connection;
    }

    /**
     * Closes the connection now, from any thread, without waiting for the request under way, which fails (its
     * sender gets an IOException), and for good: later requests fail at once. For a request parked at the other
     * end, which {@link #close} would wait for.
     */
    public void abort() {
        aborted = true;
        Socket open = socket;
        if (open != null) {
            try {
                open.close();
            } catch (IOException ignored) {
                // closing a broken socket: nothing to do
            }
        }
    }

    @Override
    public synchronized void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a broken socket: nothing to do
            }
            socket = null;
        }
    }
}
