package io.minibroker.broker.network;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A handler that fails, with an exception or with an Error such as an AssertionError or a StackOverflowError,
 * closes its connection and gives the request's frame back: nothing is written, nothing leaks, nothing hangs.
 */
class RequestHandlerFailureTest {

    private static final short VERSION = 12;

    private static EmbeddedChannel channelServing(ApiHandler handler) {
        SupportedApis apis = new SupportedApis().add(ApiKey.METADATA, handler);
        return new EmbeddedChannel(new RequestHandler(apis, "PLAINTEXT",
                new NetworkMetrics(new SimpleMeterRegistry(), "PLAINTEXT", apis.entries().keySet(),
                        BrokerClock.system()), null, null, null, null));
    }

    private static ByteBuf metadataFrame() {
        ByteBuf request = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.METADATA.id(), VERSION, 7, "test"),
                ApiKey.METADATA.request().newMessage().set("Topics", null));
        return request.skipBytes(Frames.SIZE_PREFIX_BYTES);
    }

    private static void assertClosedWithNothingWritten(EmbeddedChannel channel, ByteBuf frame) {
        channel.runPendingTasks();
        assertThat(channel.isActive()).isFalse();
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(frame.refCnt()).as("the request frame is released").isZero();
    }

    @Test
    void anErrorThrownByAHandlerClosesTheConnectionAndReleasesTheFrame() {
        EmbeddedChannel channel = channelServing((context, request) -> {
            throw new AssertionError("a handler's bug");
        });
        ByteBuf frame = metadataFrame();
        channel.writeInbound(frame);
        assertClosedWithNothingWritten(channel, frame);
    }

    @Test
    void anExceptionThrownByAHandlerClosesTheConnectionAndReleasesTheFrame() {
        EmbeddedChannel channel = channelServing((context, request) -> {
            throw new IllegalStateException("a handler's bug");
        });
        ByteBuf frame = metadataFrame();
        channel.writeInbound(frame);
        assertClosedWithNothingWritten(channel, frame);
    }

    @Test
    void anAnswerFailedWithAnErrorClosesTheConnectionAndReleasesTheFrame() {
        EmbeddedChannel channel = channelServing((context, request) ->
                CompletableFuture.failedFuture(new StackOverflowError()));
        ByteBuf frame = metadataFrame();
        channel.writeInbound(frame);
        assertClosedWithNothingWritten(channel, frame);
    }
}
