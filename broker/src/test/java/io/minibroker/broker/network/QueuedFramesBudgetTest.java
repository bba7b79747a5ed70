package io.minibroker.broker.network;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Frames read behind a request being served (requests are served one at a time per connection) count in the shared
 * request budget until they are dispatched: once they fill it, the connection's next partial frame waits for room
 * and its reading pauses, and serving them gives the bytes back. Without that, a client pipelining large requests
 * behind a parked one held them all, uncounted.
 */
class QueuedFramesBudgetTest {

    private static final short VERSION = 12;
    private static final int TOPICS = 10;

    private final MemoryBudget budget = new MemoryBudget(2000);
    /** The first request's answer, held back: the request stays parked until it is completed. */
    private final CompletableFuture<Struct> parked = new CompletableFuture<>();
    private final List<Integer> served = new ArrayList<>();

    private EmbeddedChannel connection() {
        SupportedApis apis = new SupportedApis().add(ApiKey.METADATA, (context, request) -> {
            served.add(request.header().correlationId());
            return served.size() == 1 ? parked
                    : CompletableFuture.completedFuture(new MetadataResponseView().struct());
        });
        ReadGate gate = new ReadGate();
        return new EmbeddedChannel(gate, new FrameDecoder(() -> 100_000, () -> true, budget, budget, gate, () -> { }),
                new RequestHandler(apis, "PLAINTEXT", new NetworkMetrics(new SimpleMeterRegistry(), "PLAINTEXT",
                        apis.entries().keySet(), BrokerClock.system()), null, null, null, budget));
    }

    /** A Metadata request naming {@value #TOPICS} long topic names, with its size prefix. */
    private static ByteBuf request(int correlationId) {
        MetadataRequestView body = new MetadataRequestView();
        for (int i = 0; i < TOPICS; i++) {
            body.addTopic().name("topic-with-a-long-name-to-make-the-frame-large-" + i);
        }
        return MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.METADATA.id(), VERSION, correlationId, "test"), body.struct());
    }

    @Test
    void framesQueuedBehindAParkedRequestHoldTheBudgetUntilServed() {
        EmbeddedChannel channel = connection();
        channel.writeInbound(request(1));
        assertThat(served).containsExactly(1);
        int frameBytes = request(2).readableBytes(); // size prefix included, as the budget counts it
        for (int id = 2; id <= 4; id++) {
            channel.writeInbound(request(id));
        }
        assertThat(served).as("queued behind the parked request").containsExactly(1);
        assertThat(budget.reserved()).isEqualTo(3L * frameBytes);

        ByteBuf next = request(5);
        channel.writeInbound(next.readRetainedSlice(Frames.SIZE_PREFIX_BYTES + 10)); // a partial frame: no room
        assertThat(budget.reserved()).isEqualTo(3L * frameBytes);
        assertThat(channel.config().isAutoRead()).as("reading paused").isFalse();

        parked.complete(new MetadataResponseView().struct());
        channel.runPendingTasks();
        assertThat(served).containsExactly(1, 2, 3, 4);
        assertThat(channel.config().isAutoRead()).as("reading resumed").isTrue();
        channel.writeInbound(next);
        assertThat(served).containsExactly(1, 2, 3, 4, 5);
        assertThat(budget.reserved()).isZero();
        channel.finishAndReleaseAll();
    }

    @Test
    void aClosedConnectionGivesItsQueuedFramesBytesBack() {
        EmbeddedChannel channel = connection();
        channel.writeInbound(request(1));
        channel.writeInbound(request(2));
        assertThat(budget.reserved()).isPositive();
        channel.close();
        assertThat(budget.reserved()).isZero();
    }
}
