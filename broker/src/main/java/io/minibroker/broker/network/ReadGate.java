package io.minibroker.broker.network;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;

/**
 * Pauses a connection's reading while the {@link MemoryBudget} has no room for the frame it is reading, as Kafka's
 * selector mutes such a channel. Sits first in the pipeline so that it sees every read request: turning
 * {@code autoRead} off stops the socket's reading, and the reads other handlers still ask for meanwhile (a decoder
 * wanting the rest of its frame, a request handler that sets {@code autoRead} back on when its responses went out)
 * are held until the budget wakes the connection.
 */
final class ReadGate extends ChannelDuplexHandler {

    private ChannelHandlerContext ctx;
    private boolean paused;
    /** A read asked for while paused and held back: the socket has no read interest until one is issued again. */
    private boolean readHeld;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** On the connection's event loop. */
    void pause() {
        paused = true;
        ctx.channel().config().setAutoRead(false);
    }

    /**
     * On the connection's event loop. Turns reading back on; the request handler turns it off again at its next
     * event if it has as many requests in flight as it takes.
     */
    void resume() {
        if (paused) {
            paused = false;
            ctx.channel().config().setAutoRead(true);
            // The request handler may have turned reading on while paused (an earlier request answered): Netty then
            // asked for a read, held here, and turning autoRead on again asks for none, so the held one is issued
            // (a second read while one is pending changes nothing).
            if (readHeld) {
                ctx.read();
            }
            readHeld = false;
        }
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (paused) {
            readHeld = true;
        } else {
            ctx.read();
        }
    }
}
