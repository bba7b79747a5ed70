package io.minibroker.broker.network;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.log.LogConfig;
import io.minibroker.broker.log.LogReadResult;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.SegmentFileRegion;
import io.minibroker.broker.log.TestLogs;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A plaintext connection sends a fetch answer's small record sets copied into buffers, and larger ones as file
 * regions, the same bytes either way: the answer as the connection writes it with its copier, beside the same answer
 * written without one (every region sent from the file).
 */
class FileRegionCopierTest {

    private static final short VERSION = 12;
    /** 128 batches of about 1 KB in segments of 64 KB (61 batches each): reads of up to 64 KB from the first two. */
    private static final int VALUE_BYTES = 1_000;

    @TempDir
    Path logDir;
    private PartitionLog log;
    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        log = TestLogs.open(logDir, new TopicPartition("t", 0),
                LogConfig.defaults().withSegmentBytes(64 * 1024).withRetention(-1, 0), Clock.systemUTC(), 0, 0, true);
        for (int i = 0; i < 128; i++) {
            byte[] value = new byte[VALUE_BYTES];
            value[0] = (byte) i;
            ByteBuf batch = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, 1_000L)
                    .append(1_000L, null, value, List.of()).build();
            log.append(batch, 0);
            batch.release();
        }
    }

    @AfterEach
    void tearDown() throws IOException {
        channels.forEach(EmbeddedChannel::finishAndReleaseAll);
        log.close();
    }

    @Test
    void aSetAtTheLimitIsCopiedAndOneByteMoreIsSentFromTheFileWithTheSameBytesOnTheWire() throws IOException {
        int limit = FileRegionCopier.SMALL_REGION_BYTES;
        List<Object> atLimit = answer(FileRegionCopier.small(), read(0, limit));
        assertThat(atLimit).allMatch(ByteBuf.class::isInstance);
        assertThat(wire(atLimit)).isEqualTo(wire(answer(null, read(0, limit))));

        List<Object> above = answer(FileRegionCopier.small(), read(0, limit + 1));
        assertThat(above).hasSize(3);
        assertThat(above.get(1)).isInstanceOf(SegmentFileRegion.class);
        assertThat(wire(above)).isEqualTo(wire(answer(null, read(0, limit + 1))));
    }

    @Test
    void anAnswerOfSeveralSetsFromSeveralSegmentsCopiesTheSmallOnesInPlace() throws IOException {
        // A small set and a large one of the first segment, an empty partition, a small set of the second segment.
        assertThat(log.segmentCount()).isEqualTo(3);
        List<Object> copied = answer(FileRegionCopier.small(),
                read(0, 3_000), read(10, 40_000), LogReadResult.EMPTY, read(100, 2_500));
        // head, records | between | region | between (the empty partition's fields too), records | tail
        assertThat(copied).extracting(message -> message instanceof SegmentFileRegion ? "region" : "buffer")
                .containsExactly("buffer", "buffer", "buffer", "region", "buffer", "buffer", "buffer");
        assertThat(((ByteBuf) copied.get(1)).readableBytes()).isEqualTo(3_000);
        assertThat(((ByteBuf) copied.get(5)).readableBytes()).isEqualTo(2_500);
        assertThat(wire(copied)).isEqualTo(wire(answer(null,
                read(0, 3_000), read(10, 40_000), LogReadResult.EMPTY, read(100, 2_500))));
    }

    @Test
    void aTlsConnectionCopiesEverySetWithTheSameBytes() throws IOException {
        List<Object> copied = answer(FileRegionCopier.all(), read(0, 3_000), read(10, 40_000));
        assertThat(copied).allMatch(ByteBuf.class::isInstance);
        assertThat(wire(copied)).isEqualTo(wire(answer(null, read(0, 3_000), read(10, 40_000))));
    }

    @Test
    void aSetWhoseSegmentWasDeletedSinceTheReadIsCopiedWhole() throws IOException {
        byte[] expected = wire(answer(null, read(0, 3_000)));
        LogReadResult read = read(0, 3_000);
        assertThat(log.deleteOldSegments()).isPositive();
        try (Stream<Path> files = Files.list(log.dir())) {
            assertThat(files.map(Path::getFileName).map(Path::toString)).doesNotContain("00000000000000000000.log");
        }

        List<Object> copied = answer(FileRegionCopier.small(), read);
        assertThat(copied).allMatch(ByteBuf.class::isInstance);
        assertThat(wire(copied)).isEqualTo(expected);
    }

    @Test
    void aSetTruncatedUnderTheAnswerClosesTheConnectionWithNothingSentAsASendfileWould() throws IOException {
        // Two batches and part of a third of the active segment, which the truncation cuts after the first.
        long offset = log.logEndOffset() - 3;
        LogReadResult read = read(offset, 3_000);
        log.truncateTo(offset + 1);

        EmbeddedChannel channel = connection(FileRegionCopier.small(), read);
        assertThat(channel.isOpen()).isFalse();
        assertThat((Object) channel.readOutbound()).isNull();
    }

    @Test
    void aPlaintextConnectionsPipelineCopiesTheSmallSetsOnly() throws IOException {
        SupportedApis apis = new SupportedApis();
        ChannelSetup setup = new ChannelSetup(apis, "PLAINTEXT", 1 << 20, 60_000,
                new NetworkMetrics(new SimpleMeterRegistry(), "PLAINTEXT", List.of(), BrokerClock.system()), null,
                null, 10_000, new ConnectionLimits(new ConnectionQuotas(Integer.MAX_VALUE, l -> Integer.MAX_VALUE,
                        Integer.MAX_VALUE, Map.of(), Integer.MAX_VALUE, Integer.MAX_VALUE, () -> 0L, address -> 0),
                        new MemoryBudget(1 << 21), new MemoryBudget(1 << 21)), null, null);
        EmbeddedChannel channel = new EmbeddedChannel() {
            /** A TCP peer's address, as the connection quotas count connections by address. */
            @Override
            protected SocketAddress remoteAddress0() {
                return new InetSocketAddress(InetAddress.getLoopbackAddress(), 40_000);
            }
        };
        channels.add(channel);
        channel.pipeline().addLast("setup", setup); // runs its initChannel at once: the channel is registered

        channel.writeAndFlush(read(0, 3_000).toFileRegion());
        channel.writeAndFlush(read(10, 40_000).toFileRegion());
        List<Object> written = List.of(channel.readOutbound(), channel.readOutbound());
        assertThat(written.get(0)).isInstanceOf(ByteBuf.class);
        assertThat(written.get(1)).isInstanceOf(SegmentFileRegion.class);
        assertThat(wire(written)).isEqualTo(wire(List.of(read(0, 3_000).toFileRegion(),
                read(10, 40_000).toFileRegion())));
    }

    private LogReadResult read(long offset, int maxBytes) {
        return log.read(offset, maxBytes, true, Long.MAX_VALUE);
    }

    /** What a connection writes for a fetch answer holding the reads, one partition each, as the messages sent. */
    private List<Object> answer(ChannelHandler copier, LogReadResult... reads) {
        EmbeddedChannel channel = connection(copier, reads);
        List<Object> written = new ArrayList<>();
        for (Object message; (message = channel.readOutbound()) != null; ) {
            written.add(message);
        }
        return written;
    }

    /** A connection (with the copier in front of the request handler, if any) that has written the answer. */
    private EmbeddedChannel connection(ChannelHandler copier, LogReadResult... reads) {
        CompletableFuture<Struct> answer = new CompletableFuture<>();
        SupportedApis apis = new SupportedApis().add(ApiKey.FETCH, (context, request) -> answer);
        RequestHandler handler = new RequestHandler(apis, "PLAINTEXT", new NetworkMetrics(new SimpleMeterRegistry(),
                "PLAINTEXT", apis.entries().keySet(), BrokerClock.system()), null, null, null, null);
        EmbeddedChannel channel = copier == null ? new EmbeddedChannel(handler) : new EmbeddedChannel(copier, handler);
        channels.add(channel);
        ByteBuf request = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.FETCH.id(), VERSION, 42, "test"), ApiKey.FETCH.request().newMessage());
        channel.writeInbound(request.skipBytes(Frames.SIZE_PREFIX_BYTES));

        Struct body = ApiKey.FETCH.response().newMessage();
        Struct topic = body.addElement("Responses").set("Topic", "t");
        for (int partition = 0; partition < reads.length; partition++) {
            Struct answered = topic.addElement("Partitions").set("PartitionIndex", partition)
                    .set("HighWatermark", log.highWatermark());
            if (!reads[partition].isEmpty()) {
                answered.set("Records", reads[partition].toFileRegion());
            }
        }
        answer.complete(body);
        channel.runPendingTasks();
        return channel;
    }

    /** The bytes the messages put on the wire, in order; every message is released. */
    private static byte[] wire(List<Object> written) throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        WritableByteChannel target = Channels.newChannel(wire);
        for (Object message : written) {
            if (message instanceof SegmentFileRegion region) {
                while (region.transferred() < region.count()) {
                    region.transferTo(target, region.transferred());
                }
            } else {
                wire.writeBytes(ByteBufUtil.getBytes((ByteBuf) message));
            }
            assertThat(ReferenceCountUtil.release(message)).isTrue();
        }
        return wire.toByteArray();
    }
}
