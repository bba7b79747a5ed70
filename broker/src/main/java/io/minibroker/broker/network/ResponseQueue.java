package io.minibroker.broker.network;

import io.minibroker.protocol.frame.OutboundFrame;
import io.netty.channel.Channel;
import io.netty.util.ReferenceCounted;

import java.util.ArrayDeque;

/**
 * Keeps one connection's responses in the order of their requests. Requests are handled as they arrive, and a
 * parked one (a long-poll fetch, an acks=all produce) may finish after later ones; its slot holds them back
 * until it is filled. A request that gets no response (acks=0) still takes a slot, filled with nothing.
 *
 * <p>Used only on the connection's event loop, so it needs no locking.
 */
final class ResponseQueue {

    private static final class Slot {
        OutboundFrame response;
        boolean done;
    }

    private final ArrayDeque<Slot> slots = new ArrayDeque<>();

    /** Reserves the place of a request that has just been read. */
    Object reserve() {
        Slot slot = new Slot();
        slots.addLast(slot);
        return slot;
    }

    /**
     * Fills a place (with null for no response) and writes every response that is now at the head, each as
     * its pieces one after the other: buffers, and the file regions of fetched records between them.
     */
    void complete(Object place, OutboundFrame response, Channel channel) {
        Slot slot = (Slot) place;
        slot.response = response;
        slot.done = true;
        boolean wrote = false;
        while (!slots.isEmpty() && slots.peekFirst().done) {
            OutboundFrame ready = slots.pollFirst().response;
            if (ready != null) {
                for (ReferenceCounted piece : ready.pieces()) {
                    channel.write(piece, channel.voidPromise());
                }
                wrote = true;
            }
        }
        if (wrote) {
            channel.flush();
        }
    }

    int inFlight() {
        return slots.size();
    }

    /** Releases responses that will never be written because the connection closed. */
    void discard() {
        for (Slot slot : slots) {
            if (slot.response != null) {
                slot.response.release();
            }
        }
        slots.clear();
    }
}
