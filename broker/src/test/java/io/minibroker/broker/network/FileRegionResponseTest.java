package io.minibroker.broker.network;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.log.LogConfig;
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
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;


/**
 * The connection writes a fetch answer's records as the file region the handler read, between the encoded
 * buffers, never copied into them; and an answer the connection can no longer write gives its region back.
 */
class FileRegionResponseTest {

    private static final short VERSION = 12;

    @TempDir
    Path logDir;
    private PartitionLog log;
    private final CompletableFuture<Struct> answer = new CompletableFuture<>();
    private EmbeddedChannel channel;

    @BeforeEach
    void setUp() throws IOException {
        log = TestLogs.open(logDir, new TopicPartition("t", 0), LogConfig.defaults(), Clock.systemUTC(), 0, 0, true);
        for (int i = 0; i < 3; i++) {
            ByteBuf batch = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, 1_000L)
                    .append(1_000L, null, ("v" + i).getBytes(), List.of()).build();
            log.append(batch, 0);
            batch.release();
        }
        SupportedApis apis = new SupportedApis().add(ApiKey.FETCH, (context, request) -> answer);
        channel = new EmbeddedChannel(new RequestHandler(apis, "PLAINTEXT",
                new NetworkMetrics(new SimpleMeterRegistry(), "PLAINTEXT", apis.entries().keySet(),
                        BrokerClock.system()), null, null, null, null));
        ByteBuf request = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.FETCH.id(), VERSION, 42, "test"), ApiKey.FETCH.request().newMessage());
        channel.writeInbound(request.skipBytes(Frames.SIZE_PREFIX_BYTES));
    }

    @AfterEach
    void tearDown() throws IOException {
        channel.finishAndReleaseAll();
        log.close();
    }

    private Struct responseWith(SegmentFileRegion region) {
        Struct body = ApiKey.FETCH.response().newMessage();
        body.addElement("Responses").set("Topic", "t").addElement("Partitions")
                .set("HighWatermark", log.highWatermark()).set("Records", region);
        return body;
    }

    @Test
    void theRecordsAreWrittenAsTheFileRegionBetweenTheEncodedBuffers() throws IOException {
        ByteBuf copy = log.read(0, 1 << 20, true, Long.MAX_VALUE).readInto(ByteBufAllocator.DEFAULT);
        byte[] logBytes = ByteBufUtil.getBytes(copy);
        copy.release();
        SegmentFileRegion region = log.read(0, 1 << 20, true, Long.MAX_VALUE).toFileRegion();
        answer.complete(responseWith(region));
        channel.runPendingTasks();

        List<Object> written = new ArrayList<>();
        for (Object message; (message = channel.readOutbound()) != null; ) {
            written.add(message);
        }
        assertThat(written).hasSize(3);
        assertThat(written.get(0)).isInstanceOf(ByteBuf.class);
        assertThat(written.get(1)).isSameAs(region);
        assertThat(written.get(2)).isInstanceOf(ByteBuf.class);
        int encodedBytes = ((ByteBuf) written.get(0)).readableBytes() + ((ByteBuf) written.get(2)).readableBytes();
        assertThat(encodedBytes).as("no record bytes in the buffers").isLessThan(logBytes.length);

        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.writeBytes(ByteBufUtil.getBytes((ByteBuf) written.get(0)));
        WritableByteChannel target = Channels.newChannel(wire);
        while (region.transferred() < region.count()) {
            region.transferTo(target, region.transferred());
        }
        wire.writeBytes(ByteBufUtil.getBytes((ByteBuf) written.get(2)));
        written.forEach(ReferenceCountUtil::release);
        assertThat(region.refCnt()).isZero();

        ByteBuf frame = Unpooled.wrappedBuffer(wire.toByteArray());
        assertThat(frame.readInt()).isEqualTo(frame.readableBytes());
        Struct decoded = MessageCodec.decodeResponse(frame, ApiKey.FETCH, VERSION).body();
        ByteBuf records = decoded.getStructs("Responses").get(0).getStructs("Partitions").get(0).getRecords("Records");
        assertThat(ByteBufUtil.getBytes(records)).isEqualTo(logBytes);
    }

    @Test
    void anAnswerForAClosedConnectionReleasesItsRegion() {
        SegmentFileRegion region = log.read(0, 1 << 20, true, Long.MAX_VALUE).toFileRegion();
        channel.close();
        answer.complete(responseWith(region));
        channel.runPendingTasks();

        assertThat(region.refCnt()).isZero();
        assertThat((Object) channel.readOutbound()).isNull();
    }
}
