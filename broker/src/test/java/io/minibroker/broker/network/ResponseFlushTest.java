package io.minibroker.broker.network;

import io.minibroker.broker.feature.FinalizedFeatures;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.ApiVersionsHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connection's pipeline ({@link ChannelSetup}) sends the responses to the requests of one read with one flush,
 * at the end of the read, and a response finished outside a read at once. Driven on an {@link EmbeddedChannel},
 * so what Netty reads together is the test's choice, not the scheduler's.
 */
class ResponseFlushTest {

    private static final short API_VERSIONS_V3 = 3;

    private final SupportedApis apis = new SupportedApis();
    private final ApiVersionsHandler versions = new ApiVersionsHandler(apis, "cluster", 1, FinalizedFeatures.mirror((short) 2));
    /** Answers that the test finishes itself, later, as a parked request's would be. */
    private final List<Runnable> parked = new ArrayList<>();
    private boolean park;
    private int flushes;
    private EmbeddedChannel channel;

    private EmbeddedChannel connection() {
        apis.add(ApiKey.API_VERSIONS, (context, request) -> {
            if (!park) {
                return versions.handle(context, request);
            }
            CompletableFuture<Struct> answer = new CompletableFuture<>();
            parked.add(() -> versions.handle(context, request).thenAccept(answer::complete));
            return answer;
        });
        ChannelSetup setup = new ChannelSetup(apis, "PLAINTEXT", 1 << 20, 60_000,
                new NetworkMetrics(new SimpleMeterRegistry(), "PLAINTEXT", List.of(ApiKey.API_VERSIONS),
                        BrokerClock.system()), null, null, 10_000,
                new ConnectionLimits(new ConnectionQuotas(Integer.MAX_VALUE, l -> Integer.MAX_VALUE,
                        Integer.MAX_VALUE, Map.of(), Integer.MAX_VALUE, Integer.MAX_VALUE, () -> 0L, address -> 0),
                        new MemoryBudget(1 << 21), new MemoryBudget(1 << 21)), null, null);
        channel = new EmbeddedChannel() {
            /** Without the tasks EmbeddedChannel runs on each flush: a flush only scheduled stays undone. */
            @Override
            public Channel flush() {
                pipeline().flush();
                return this;
            }

            /** A TCP peer's address, as the connection quotas count connections by address. */
            @Override
            protected SocketAddress remoteAddress0() {
                return new InetSocketAddress(InetAddress.getLoopbackAddress(), 40_000);
            }
        };
        channel.pipeline().addLast("count-flushes", new ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                flushes++;
                ctx.flush();
            }
        });
        channel.pipeline().addLast("setup", setup); // runs its initChannel at once: the channel is registered
        return channel;
    }

    @AfterEach
    void close() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    private static ByteBuf apiVersions(int firstCorrelationId, int count) {
        ByteArrayOutputStream requests = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            requests.writeBytes(RawClient.apiVersions(API_VERSIONS_V3, firstCorrelationId + i));
        }
        return Unpooled.wrappedBuffer(requests.toByteArray());
    }

    /** One socket read that brought {@code requests}: Netty's channelRead, then channelReadComplete. */
    private void read(ByteBuf requests) {
        channel.pipeline().fireChannelRead(requests);
        channel.pipeline().fireChannelReadComplete();
        channel.runPendingTasks();
    }

    /** The correlation ids of the response frames written so far, in order. */
    private List<Integer> responsesWritten() {
        ByteBuf written = Unpooled.buffer();
        for (Object piece = channel.readOutbound(); piece != null; piece = channel.readOutbound()) {
            ByteBuf bytes = (ByteBuf) piece;
            written.writeBytes(bytes);
            bytes.release();
        }
        List<Integer> correlationIds = new ArrayList<>();
        while (written.isReadable()) {
            int size = written.readInt();
            correlationIds.add(written.getInt(written.readerIndex()));
            written.skipBytes(size);
        }
        written.release();
        return correlationIds;
    }

    @Test
    void responsesToTenRequestsReadTogetherLeaveWithOneFlush() {
        connection();

        read(apiVersions(0, 10));

        assertThat(responsesWritten()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(flushes).as("flushes for the ten responses of one read").isOne();
    }

    @Test
    void aResponseFinishedOutsideAReadIsFlushedAtOnce() {
        connection();
        park = true;
        read(apiVersions(20, 1));
        assertThat(responsesWritten()).isEmpty();
        int flushesBefore = flushes;

        parked.forEach(Runnable::run); // on the event loop (the test's thread here), between reads

        assertThat(flushes).as("flushed then, not in a task for later").isEqualTo(flushesBefore + 1);
        assertThat(responsesWritten()).containsExactly(20);
    }
}
