package io.minibroker.benchmarks.ceiling;

import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.header.ResponseHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.FindCoordinatorRequestView;
import io.minibroker.protocol.message.view.FindCoordinatorResponseView;
import io.minibroker.protocol.message.view.InitProducerIdResponseView;
import io.minibroker.protocol.message.view.ListOffsetsRequestView;
import io.minibroker.protocol.message.view.ListOffsetsResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.message.view.OffsetCommitRequestView;
import io.minibroker.protocol.message.view.OffsetCommitResponseView;
import io.minibroker.protocol.message.view.ProduceRequestView;
import io.minibroker.protocol.message.view.ProduceResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The ceiling of broker-perf.sh: a broker that does next to nothing. It answers ApiVersions, Metadata (every topic
 * asked for exists with one partition led by itself), InitProducerId and Produce at once on its one event loop,
 * and keeps only each partition's most recent batches ({@link RecentBatches}), so that Fetch and ListOffsets can
 * serve a consumer at the log end (EndToEndLatency's; CreateTopics is accepted and forgotten, as every topic
 * exists). A fetch that finds nothing new is parked, as a broker parks it, until the next produce or its max wait:
 * answered at once, a consumer at the log end would send fetch after fetch, and that spinning client would take
 * the cores that the figures are about. A produce or end-to-end figure against it is what this machine and the
 * client allow at all. Any other request closes the connection (and is named on stderr); FindCoordinator names
 * the null broker itself and OffsetCommit is accepted and forgotten, for the consumer's close. Benchmark-only; not
 * a broker: no fetch sessions, no min bytes beyond one, no validation.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.minibroker.benchmarks.ceiling.NullBroker PORT}
 */
public final class NullBroker {
    private static final int NODE_ID = 0;
    private static final List<ApiKey> ANSWERED = List.of(ApiKey.API_VERSIONS, ApiKey.METADATA,
            ApiKey.INIT_PRODUCER_ID, ApiKey.PRODUCE, ApiKey.FETCH, ApiKey.LIST_OFFSETS, ApiKey.CREATE_TOPICS,
            ApiKey.FIND_COORDINATOR, ApiKey.OFFSET_COMMIT);
    /**
     * Bytes of batches kept per partition: seconds of the e2e-rate case's small batches, so that a consumer
     * that the scheduler holds back does not fall off the log start, and 64 of a producer's 16 KB batches.
     */
    private static final int KEPT_BYTES = 1 << 20;
    private static final short NONE = 0;
    private static final short OFFSET_OUT_OF_RANGE = 1;
    private static final long EARLIEST_TIMESTAMP = -2;
    private static final long EARLIEST_LOCAL_TIMESTAMP = -4;

    private final int port;
    /** Touched on the single event loop only. */
    private final Map<PartitionKey, RecentBatches> partitions = new HashMap<>();
    /** Fetches waiting for a produce, oldest first; touched on the single event loop only. */
    private final List<ParkedFetch> parked = new ArrayList<>();
    private long nextProducerId;

    /** A partition by its topic's id, which the null broker derives from the name ({@link #topicId}). */
    private record PartitionKey(UUID topicId, int partition) { }

    /** A fetch to answer later on its connection, and its max wait's timer once set. */
    private static final class ParkedFetch {
        final Answerer connection;
        final ChannelHandlerContext ctx;
        final short version;
        final int correlationId;
        final FetchRequestView request;
        ScheduledFuture<?> maxWait;

        ParkedFetch(Answerer connection, ChannelHandlerContext ctx, short version, int correlationId,
                    FetchRequestView request) {
            this.connection = connection;
            this.ctx = ctx;
            this.version = version;
            this.correlationId = correlationId;
            this.request = request;
        }
    }

    private NullBroker(int port) {
        this.port = port;
    }

    public static void main(String[] args) throws InterruptedException {
        new NullBroker(Integer.parseInt(args[0])).run();
    }

    private void run() throws InterruptedException {
        NioEventLoopGroup group = new NioEventLoopGroup(1);
        try {
            new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline().addLast(new Answerer());
                        }
                    })
                    .bind("localhost", port).sync().channel().closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** One connection's requests, answered in order, as a client expects. */
    private final class Answerer extends ByteToMessageDecoder {
        /** While this connection's fetch is parked, its later requests wait in the decoder's buffer. */
        private boolean waiting;

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            ByteBuf frame;
            while (!waiting && (frame = Frames.readFrame(in, Integer.MAX_VALUE)) != null) {
                try {
                    answer(ctx, frame);
                } finally {
                    frame.release();
                }
            }
        }

        private void answer(ChannelHandlerContext ctx, ByteBuf frame) {
            RequestHeader header = RequestHeader.read(frame);
            ApiKey api = ApiKey.forId(header.apiKey());
            short version = header.apiVersion();
            if (!ANSWERED.contains(api) || !api.supports(version)) {
                System.err.println("closing the connection on " + api + " v" + version);
                ctx.close();
                return;
            }
            Struct request = api.request().read(frame, version);
            if (api == ApiKey.FETCH && parkIfNothingNew(this, ctx, version, header.correlationId(),
                    new FetchRequestView(request))) {
                waiting = true;
                return;
            }
            Struct response = switch (api) {
                case API_VERSIONS -> apiVersions();
                case METADATA -> metadata(new MetadataRequestView(request));
                case INIT_PRODUCER_ID -> new InitProducerIdResponseView()
                        .producerId(nextProducerId++).producerEpoch((short) 0).struct();
                case FETCH -> fetch(new FetchRequestView(request));
                case LIST_OFFSETS -> listOffsets(new ListOffsetsRequestView(request));
                case CREATE_TOPICS -> createTopics(new CreateTopicsRequestView(request));
                case FIND_COORDINATOR -> findCoordinator(new FindCoordinatorRequestView(request), version);
                case OFFSET_COMMIT -> offsetCommit(new OffsetCommitRequestView(request));
                default -> {
                    ProduceRequestView produce = new ProduceRequestView(request);
                    yield produce.acks() == 0 ? null : produce(produce);
                }
            };
            if (api == ApiKey.PRODUCE) {
                answerParked(); // before the produce's answer, as a broker wakes its parked fetches at the append
            }
            if (response != null) {
                send(ctx, api, version, header.correlationId(), response);
            }
        }

        /** Once the parked fetch is answered: the requests that came after it. */
        private void resume(ChannelHandlerContext ctx) {
            waiting = false;
            decode(ctx, internalBuffer(), List.of());
        }
    }

    private static void send(ChannelHandlerContext ctx, ApiKey api, short version, int correlationId, Struct body) {
        // ApiVersions responses always use header v0, whatever the request's version.
        short headerVersion = ResponseHeader.headerVersion(api, version);
        int size = ResponseHeader.sizeOf(headerVersion) + api.response().sizeOf(body, version);
        ByteBuf out = ctx.alloc().buffer(Frames.SIZE_PREFIX_BYTES + size);
        out.writeInt(size);
        new ResponseHeader(correlationId).write(out, headerVersion);
        api.response().write(out, body, version);
        ctx.writeAndFlush(out);
    }

    /**
     * Parks a fetch (allowed to wait, minimum one byte) that would find nothing past any of its offsets, until a
     * produce brings something ({@link #answerParked}) or its max wait ends; returns whether it was parked.
     */
    private boolean parkIfNothingNew(Answerer connection, ChannelHandlerContext ctx, short version, int correlationId,
                                     FetchRequestView request) {
        if (request.maxWaitMs() <= 0 || request.minBytes() <= 0 || hasNews(request)) {
            return false;
        }
        ParkedFetch fetch = new ParkedFetch(connection, ctx, version, correlationId, request);
        parked.add(fetch);
        fetch.maxWait = ctx.executor().schedule(() -> {
            if (parked.remove(fetch)) {
                answer(fetch);
            }
        }, request.maxWaitMs(), TimeUnit.MILLISECONDS);
        return true;
    }

    /** After a produce: answers every parked fetch that now finds something. */
    private void answerParked() {
        // Taken out of the list first: answering one resumes its connection, whose queued requests may park again.
        List<ParkedFetch> woken = new ArrayList<>();
        for (Iterator<ParkedFetch> it = parked.iterator(); it.hasNext(); ) {
            ParkedFetch fetch = it.next();
            if (hasNews(fetch.request)) {
                it.remove();
                woken.add(fetch);
            }
        }
        for (ParkedFetch fetch : woken) {
            fetch.maxWait.cancel(false); // else each woken fetch leaves a timer in the loop's queue till it ends
            answer(fetch);
        }
    }

    private void answer(ParkedFetch fetch) {
        send(fetch.ctx, ApiKey.FETCH, fetch.version, fetch.correlationId, fetch(fetch.request));
        fetch.connection.resume(fetch.ctx);
    }

    /**
     * Whether a fetch would get records or an error for any of its partitions; a fetch of no partition has nothing
     * to wait for either (Kafka answers it at once).
     */
    private boolean hasNews(FetchRequestView request) {
        if (request.topics().stream().allMatch(topic -> topic.partitions().isEmpty())) {
            return true;
        }
        for (FetchRequestView.FetchTopic topic : request.topics()) {
            UUID id = topicId(topic.topic(), topic.topicId());
            for (FetchRequestView.FetchPartition asked : topic.partitions()) {
                RecentBatches log = partition(id, asked.partition());
                if (asked.fetchOffset() != log.logEnd()) { // records, or an offset out of range
                    return true;
                }
            }
        }
        return false;
    }

    private static Struct apiVersions() {
        ApiVersionsResponseView view = new ApiVersionsResponseView();
        for (ApiKey api : ANSWERED) {
            view.addApiKey().apiKey(api.id()).minVersion(api.lowestVersion()).maxVersion(api.highestStableVersion());
        }
        return view.struct();
    }

    private Struct metadata(MetadataRequestView request) {
        MetadataResponseView view = new MetadataResponseView().clusterId("null-broker").controllerId(NODE_ID);
        view.addBroker().nodeId(NODE_ID).host("localhost").port(port);
        if (request.topics() != null) {
            for (MetadataRequestView.MetadataRequestTopic asked : request.topics()) {
                String name = asked.name();
                view.addTopic().name(name).topicId(topicId(name)).addPartition().partitionIndex(0)
                        .leaderId(NODE_ID).leaderEpoch(0).replicaNodes(List.of(NODE_ID)).isrNodes(List.of(NODE_ID));
            }
        }
        return view.struct();
    }

    private Struct produce(ProduceRequestView request) {
        ProduceResponseView view = new ProduceResponseView();
        for (ProduceRequestView.TopicProduceData topic : request.topicData()) {
            ProduceResponseView.TopicProduceResponse answer =
                    view.addResponse().name(topic.name()).topicId(topic.topicId());
            UUID id = topicId(topic.name(), topic.topicId());
            for (ProduceRequestView.PartitionProduceData partition : topic.partitionData()) {
                RecentBatches log = partition(id, partition.index());
                answer.addPartitionResponse().index(partition.index())
                        .baseOffset(log.append(partition.records())).logAppendTimeMs(-1)
                        .logStartOffset(log.logStart());
            }
        }
        return view.struct();
    }

    /** Answers whatever is kept past each fetch offset (an offset below the log start is out of range). */
    private Struct fetch(FetchRequestView request) {
        FetchResponseView view = new FetchResponseView().sessionId(0);
        for (FetchRequestView.FetchTopic topic : request.topics()) {
            FetchResponseView.FetchableTopicResponse answer =
                    view.addResponse().topic(topic.topic()).topicId(topic.topicId());
            UUID id = topicId(topic.topic(), topic.topicId());
            for (FetchRequestView.FetchPartition asked : topic.partitions()) {
                RecentBatches log = partition(id, asked.partition());
                FetchResponseView.PartitionData data = answer.addPartition().partitionIndex(asked.partition())
                        .highWatermark(log.logEnd()).lastStableOffset(log.logEnd()).logStartOffset(log.logStart());
                long offset = asked.fetchOffset();
                if (offset < log.logStart() || offset > log.logEnd()) {
                    data.errorCode(OFFSET_OUT_OF_RANGE);
                } else {
                    data.errorCode(NONE).records(log.read(offset, asked.partitionMaxBytes()));
                }
            }
        }
        return view.struct();
    }

    private Struct listOffsets(ListOffsetsRequestView request) {
        ListOffsetsResponseView view = new ListOffsetsResponseView();
        for (ListOffsetsRequestView.ListOffsetsTopic topic : request.topics()) {
            ListOffsetsResponseView.ListOffsetsTopicResponse answer = view.addTopic().name(topic.name());
            UUID id = topicId(topic.name());
            for (ListOffsetsRequestView.ListOffsetsPartition asked : topic.partitions()) {
                RecentBatches log = partition(id, asked.partitionIndex());
                boolean earliest = asked.timestamp() == EARLIEST_TIMESTAMP
                        || asked.timestamp() == EARLIEST_LOCAL_TIMESTAMP;
                // Any other timestamp (latest, max, a time) is answered with the log end: no index is kept.
                answer.addPartition().partitionIndex(asked.partitionIndex()).errorCode(NONE).timestamp(-1)
                        .offset(earliest ? log.logStart() : log.logEnd()).leaderEpoch(0);
            }
        }
        return view.struct();
    }

    /** Every topic exists already (Metadata says so); creating one only has to succeed. */
    private static Struct createTopics(CreateTopicsRequestView request) {
        CreateTopicsResponseView view = new CreateTopicsResponseView();
        for (CreateTopicsRequestView.CreatableTopic topic : request.topics()) {
            view.addTopic().name(topic.name()).topicId(topicId(topic.name())).errorCode(NONE)
                    .numPartitions(1).replicationFactor((short) 1);
        }
        return view.struct();
    }

    /**
     * The null broker is every group's coordinator (a consumer with a group id asks when it closes); versions
     * before 4 ask for one key and are answered at the top level, later ones in a list.
     */
    private Struct findCoordinator(FindCoordinatorRequestView request, short version) {
        FindCoordinatorResponseView view = new FindCoordinatorResponseView();
        if (version < 4) {
            return view.errorCode(NONE).nodeId(NODE_ID).host("localhost").port(port).struct();
        }
        for (String key : request.coordinatorKeys()) {
            view.addCoordinator().key(key).errorCode(NONE).nodeId(NODE_ID).host("localhost").port(port);
        }
        return view.struct();
    }

    /** A consumer with a group id commits as it closes; the commit is accepted and forgotten. */
    private static Struct offsetCommit(OffsetCommitRequestView request) {
        OffsetCommitResponseView view = new OffsetCommitResponseView();
        for (OffsetCommitRequestView.OffsetCommitRequestTopic topic : request.topics()) {
            OffsetCommitResponseView.OffsetCommitResponseTopic answer =
                    view.addTopic().name(topic.name()).topicId(topic.topicId());
            for (OffsetCommitRequestView.OffsetCommitRequestPartition partition : topic.partitions()) {
                answer.addPartition().partitionIndex(partition.partitionIndex()).errorCode(NONE);
            }
        }
        return view.struct();
    }

    private RecentBatches partition(UUID topicId, int partition) {
        return partitions.computeIfAbsent(new PartitionKey(topicId, partition), key -> new RecentBatches(KEPT_BYTES));
    }

    /** Requests name a topic by id from version 13 of Produce and Fetch on, by name before. */
    private static UUID topicId(String name, UUID id) {
        return id != null && (id.getMostSignificantBits() != 0 || id.getLeastSignificantBits() != 0)
                ? id : topicId(name);
    }

    /** A topic's id is derived from its name, so Metadata and Produce agree without any state. */
    private static UUID topicId(String name) {
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
    }
}
