package io.minibroker.broker.network;

import io.micrometer.core.instrument.Timer;
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
import io.minibroker.purgatory.time.ManualClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TotalTimeMs means what Kafka's means: from when the request is taken up to its answer written. A request read
 * behind an earlier one of its connection is taken up once that one is answered, as Kafka's muted channel reads it
 * only then, so the wait behind it is not in its time (it shows in {@code minibroker.network.requests.waiting}).
 */
class RequestTotalTimeTest {

    private static final short VERSION = 12;

    private final ManualClock clock = new ManualClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final CompletableFuture<Struct> parked = new CompletableFuture<>();

    private EmbeddedChannel connection() {
        AtomicInteger calls = new AtomicInteger();
        SupportedApis apis = new SupportedApis().add(ApiKey.METADATA, (context, request) ->
                calls.incrementAndGet() == 1 ? parked
                        : CompletableFuture.completedFuture(new MetadataResponseView().struct()));
        return new EmbeddedChannel(new RequestHandler(apis, "PLAINTEXT", new NetworkMetrics(registry, "PLAINTEXT",
                apis.entries().keySet(), BrokerClock.manual(clock)), null, null, null, null));
    }

    private static ByteBuf frame(int correlationId) {
        return MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.METADATA.id(), VERSION, correlationId, "test"),
                new MetadataRequestView().struct()).skipBytes(Frames.SIZE_PREFIX_BYTES);
    }

    @Test
    void aRequestQueuedBehindAnEarlierOneIsTimedFromWhenItIsTakenUp() {
        EmbeddedChannel channel = connection();
        channel.writeInbound(frame(1));
        channel.writeInbound(frame(2)); // read, and queued behind the parked request
        clock.advance(1000);
        parked.complete(new MetadataResponseView().struct());
        channel.runPendingTasks();

        Timer totalTime = registry.get("kafka.network.requestmetrics.totaltime").tag("request", "Metadata").timer();
        assertThat(totalTime.count()).isEqualTo(2);
        assertThat(totalTime.max(TimeUnit.MILLISECONDS)).isEqualTo(1000);
        assertThat(totalTime.totalTime(TimeUnit.MILLISECONDS)).as("the second one answered at once when taken up")
                .isEqualTo(1000);
        channel.finishAndReleaseAll();
    }
}
