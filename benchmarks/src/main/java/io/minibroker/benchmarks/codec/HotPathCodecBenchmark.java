package io.minibroker.benchmarks.codec;

import io.minibroker.protocol.frame.OutboundFrame;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.message.view.ProduceRequestView;
import io.minibroker.protocol.message.view.ProduceResponseView;
import io.minibroker.protocol.schema.RecordsPayload;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The codec on the hot paths, as the broker drives it: a Produce and a Fetch request decoded and read through
 * their views (as ProduceHandler and FetchPlan read them), a Produce, Fetch and Metadata response built through
 * their views and encoded (the Fetch response's records as payloads left out of the buffer, as FetchReader sets
 * them). Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the heap allocated per operation, which is
 * what boxing of numeric fields shows up in. Output buffers come from a pooled allocator, so their bytes are not
 * counted. Only public protocol API is used, so the same source measures any commit (see benchmarks/README.md).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HotPathCodecBenchmark {

    private static final int PARTITIONS = 16;
    private static final int TOPICS = 4;
    private static final long OFFSET = 5_000_000_000L; // far outside any box cache
    private static final List<Integer> REPLICAS = List.of(1, 2, 3);
    private static final UUID TOPIC_ID = new UUID(0x1234_5678_9abcL, 0xfedc_ba98_7654L);

    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private final short produceVersion = ApiKey.PRODUCE.highestStableVersion();
    private final short fetchVersion = ApiKey.FETCH.highestStableVersion();
    private final short metadataVersion = ApiKey.METADATA.highestStableVersion();
    private ByteBuf produceRequest;
    private ByteBuf fetchRequest;
    private ByteBuf metadataRequest;
    private ByteBuf records;
    private final Payload[] payloads = new Payload[PARTITIONS];

    @Setup(Level.Trial)
    public void setUp() {
        records = Unpooled.wrappedBuffer(new byte[1024]);
        ProduceRequestView produce = new ProduceRequestView().acks((short) -1).timeoutMs(30_000);
        ProduceRequestView.TopicProduceData topic = produce.addTopicData().name("perf").topicId(TOPIC_ID);
        for (int p = 0; p < PARTITIONS; p++) {
            topic.addPartitionData().index(p).records(records);
        }
        produceRequest = frame(ApiKey.PRODUCE, produceVersion, produce.struct());

        FetchRequestView fetch = new FetchRequestView().replicaId(-1).maxWaitMs(500).minBytes(1)
                .maxBytes(52_428_800).sessionEpoch(-1);
        FetchRequestView.FetchTopic fetchTopic = fetch.addTopic().topic("perf").topicId(TOPIC_ID);
        for (int p = 0; p < PARTITIONS; p++) {
            fetchTopic.addPartition().partition(p).currentLeaderEpoch(7).fetchOffset(OFFSET + p)
                    .logStartOffset(-1L).partitionMaxBytes(1_048_576);
        }
        fetchRequest = frame(ApiKey.FETCH, fetchVersion, fetch.struct());

        MetadataRequestView metadata = new MetadataRequestView().allowAutoTopicCreation(false);
        for (int t = 0; t < TOPICS; t++) {
            metadata.addTopic().name("perf-" + t).topicId(TOPIC_ID);
        }
        metadataRequest = frame(ApiKey.METADATA, metadataVersion, metadata.struct());

        for (int p = 0; p < PARTITIONS; p++) {
            payloads[p] = new Payload();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        produceRequest.release();
        fetchRequest.release();
        metadataRequest.release();
    }

    /** A request frame body without its size prefix, as the frame decoder hands it on. */
    private static ByteBuf frame(ApiKey api, short version, Struct body) {
        byte[] whole = MessageCodec.encodeRequestToArray(new RequestHeader(api.id(), version, 1, "bench"), body);
        return Unpooled.wrappedBuffer(whole, 4, whole.length - 4);
    }

    @Benchmark
    public long produceRequestDecode() {
        Request request = MessageCodec.decodeRequest(produceRequest.duplicate());
        ProduceRequestView body = new ProduceRequestView(request.body());
        long sum = body.acks() + body.timeoutMs();
        for (ProduceRequestView.TopicProduceData topic : body.topicData()) {
            for (ProduceRequestView.PartitionProduceData partition : topic.partitionData()) {
                sum += partition.index() + partition.records().readableBytes();
            }
        }
        return sum;
    }

    @Benchmark
    public void produceResponseEncode(Blackhole bh) {
        ProduceResponseView response = new ProduceResponseView();
        ProduceResponseView.TopicProduceResponse topic = response.addResponse().name("perf").topicId(TOPIC_ID);
        for (int p = 0; p < PARTITIONS; p++) {
            topic.addPartitionResponse().index(p).errorCode((short) 0).baseOffset(OFFSET + p)
                    .logAppendTimeMs(-1L).logStartOffset(OFFSET);
        }
        encode(bh, ApiKey.PRODUCE, produceVersion, response.struct());
    }

    @Benchmark
    public long fetchRequestDecode() {
        Request request = MessageCodec.decodeRequest(fetchRequest.duplicate());
        FetchRequestView body = new FetchRequestView(request.body());
        long sum = body.replicaId() + body.maxWaitMs() + body.minBytes() + body.maxBytes() + body.sessionEpoch()
                + body.isolationLevel();
        for (FetchRequestView.FetchTopic topic : body.topics()) {
            for (FetchRequestView.FetchPartition partition : topic.partitions()) {
                sum += partition.partition() + partition.currentLeaderEpoch() + partition.fetchOffset()
                        + partition.logStartOffset() + partition.partitionMaxBytes();
            }
        }
        return sum;
    }

    @Benchmark
    public void fetchResponseEncode(Blackhole bh) {
        FetchResponseView response = new FetchResponseView().sessionId(0);
        FetchResponseView.FetchableTopicResponse topic = response.addResponse().topic("perf").topicId(TOPIC_ID);
        for (int p = 0; p < PARTITIONS; p++) {
            FetchResponseView.PartitionData partition = topic.addPartition().partitionIndex(p)
                    .records(Unpooled.EMPTY_BUFFER).highWatermark(OFFSET + p).lastStableOffset(OFFSET + p)
                    .logStartOffset(OFFSET).errorCode((short) 0);
            payloads[p].retain(); // the frame's release gives it back: reused by the next operation
            partition.struct().set(PartitionDataRecords.INDEX, payloads[p]);
        }
        encode(bh, ApiKey.FETCH, fetchVersion, response.struct());
    }

    @Benchmark
    public long metadataRequestDecode() {
        Request request = MessageCodec.decodeRequest(metadataRequest.duplicate());
        MetadataRequestView body = new MetadataRequestView(request.body());
        long sum = body.allowAutoTopicCreation() ? 1 : 0;
        for (MetadataRequestView.MetadataRequestTopic topic : body.topics()) {
            sum += topic.name().length();
        }
        return sum;
    }

    @Benchmark
    public void metadataResponseEncode(Blackhole bh) {
        MetadataResponseView response = new MetadataResponseView().clusterId("bench-cluster").controllerId(1);
        for (int b = 1; b <= 3; b++) {
            response.addBroker().nodeId(b).host("broker-" + b).port(9092);
        }
        for (int t = 0; t < TOPICS; t++) {
            MetadataResponseView.MetadataResponseTopic topic = response.addTopic().name("perf-" + t)
                    .topicId(TOPIC_ID).errorCode((short) 0);
            for (int p = 0; p < PARTITIONS; p++) {
                topic.addPartition().partitionIndex(p).leaderId(1 + p % 3).leaderEpoch(1_000 + p)
                        .replicaNodes(REPLICAS).isrNodes(REPLICAS).errorCode((short) 0);
            }
        }
        encode(bh, ApiKey.METADATA, metadataVersion, response.struct());
    }

    private void encode(Blackhole bh, ApiKey api, short version, Struct body) {
        OutboundFrame frame = MessageCodec.encodeResponse(alloc, api, version, 1, body);
        bh.consume(frame.sizeInBytes());
        frame.release();
    }

    /** Where a Fetch response partition's Records sit, as FetchReader resolves it. */
    private static final class PartitionDataRecords {
        static final int INDEX = ApiKey.FETCH.response().body().structOf("Responses").structOf("Partitions")
                .indexOf("Records");
    }

    /** Records the transport would send from a file; here only their size. */
    private static final class Payload extends AbstractReferenceCounted implements RecordsPayload {
        @Override
        public int sizeInBytes() {
            return 1024;
        }

        @Override
        protected void deallocate() {
            throw new IllegalStateException("the benchmark keeps one reference to every payload");
        }

        @Override
        public ReferenceCounted touch(Object hint) {
            return this;
        }
    }
}
