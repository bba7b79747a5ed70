package io.minibroker.broker.server;

import io.minibroker.broker.control.ConnectionControl;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The broker's accepted connections, and how they end when it stops: first no more requests are read
 * ({@link #stopReading}), then, once every parked request has been answered, each connection is closed after its
 * last response has reached the socket ({@link #flushAndClose}).
 *
 * <p>Its {@link #acceptor()} sits on each listening channel, so the per-connection pipeline (in {@code network/})
 * knows nothing of stopping: each accepted connection is recorded here and gets a gate in front of its pipeline.
 */
final class Connections implements ConnectionControl {

    private static final Logger LOG = LoggerFactory.getLogger(Connections.class);

    private final ChannelGroup open = new DefaultChannelGroup("connections", GlobalEventExecutor.INSTANCE);
    /** The connections of client listeners, which a test's controls close or refuse (a controller's are left be). */
    private final ChannelGroup clients = new DefaultChannelGroup("client-connections", GlobalEventExecutor.INSTANCE);
    private final EventLoopGroup eventLoops;
    private final ChannelHandler gate = new Gate();
    private volatile boolean reading = true;
    /** A test's refusal of new connections ({@link #refuseNew}). */
    private volatile boolean refusing;
    /** Told of each client connection's end, by its client's address (share sessions end with theirs). */
    private volatile Consumer<SocketAddress> clientClosed = address -> { };

    /** @param eventLoops the loops the connections run on */
    Connections(EventLoopGroup eventLoops) {
        this.eventLoops = eventLoops;
    }

    /**
     * The handler for a listening channel: records each connection it accepts and gates its reads.
     *
     * @param clientListener whether the listener serves clients (the controls' to close and refuse)
     */
    ChannelHandler acceptor(boolean clientListener) {
        return new Acceptor(clientListener);
    }

    /** Sets who is told, on the connection's event loop, when a client connection closes. */
    void onClientClosed(Consumer<SocketAddress> listener) {
        this.clientClosed = listener;
    }

    /**
     * Drops whatever the connections send from now on: a request read after this would meet purgatories and
     * executors already closing. Returns once no request read before can still be on its way to its handler.
     */
    void stopReading() {
        reading = false;
        // A read that passed the gate just before runs to its handler within one event-loop task; a task queued
        // behind it on every loop has run only once all such reads have.
        for (EventExecutor loop : eventLoops) {
            loop.submit(() -> { }).awaitUninterruptibly();
        }
    }

    /**
     * Closes every connection once what was written to it has reached the socket, waiting at most
     * {@code timeoutMs} in all; a connection still busy then (a client not reading) is closed anyway.
     */
    void flushAndClose(long timeoutMs) {
        List<Channel> channels = List.copyOf(open);
        CountDownLatch closed = new CountDownLatch(channels.size());
        for (Channel channel : channels) {
            // An empty write completes once everything written before it has been flushed; issued from this
            // thread it is queued on the connection's loop behind the responses just completed.
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            channel.closeFuture().addListener(done -> closed.countDown());
        }
        // One bound for all of them, in real time: it waits on the clients' pace, which no broker clock drives.
        boolean allClosed;
        try {
            allClosed = closed.await(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            allClosed = false;
        }
        if (!allClosed) {
            for (Channel channel : channels) {
                if (channel.isOpen()) {
                    LOG.warn("Closing connection from {} with responses still unsent after {} ms",
                            channel.remoteAddress(), timeoutMs);
                    channel.close().awaitUninterruptibly();
                }
            }
        }
    }

    @Override
    public void closeAll() {
        clients.close().awaitUninterruptibly();
    }

    @Override
    public void refuseNew(boolean refuse) {
        refusing = refuse;
    }

    @ChannelHandler.Sharable
    private final class Acceptor extends ChannelInboundHandlerAdapter {
        private final boolean clientListener;

        Acceptor(boolean clientListener) {
            this.clientListener = clientListener;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object accepted) {
            Channel connection = (Channel) accepted;
            if (clientListener && refusing) {
                connection.unsafe().closeForcibly(); // never registered: the client sees its connection reset
                return;
            }
            if (clientListener) {
                clients.add(connection);
                SocketAddress client = connection.remoteAddress();
                connection.closeFuture().addListener(closed -> clientClosed.accept(client));
            }
            open.add(connection);
            connection.pipeline().addFirst("stop-gate", gate);
            ctx.fireChannelRead(accepted);
        }
    }

    @ChannelHandler.Sharable
    private final class Gate extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object bytes) {
            if (reading) {
                ctx.fireChannelRead(bytes);
            } else {
                ReferenceCountUtil.release(bytes);
            }
        }
    }
}
