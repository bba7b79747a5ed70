package io.minibroker.benchmarks.ceiling;

import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.header.ResponseHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.minibroker.protocol.message.view.InitProducerIdResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
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
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ceiling of broker-perf.sh: a broker that does nothing. It answers ApiVersions, Metadata (every topic
 * asked for exists with one partition led by itself), InitProducerId and Produce at once on the event loop and
 * stores nothing, so a produce figure against it is what this machine and the client allow at all. Any other
 * request closes the connection. Benchmark-only; not a broker.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.minibroker.benchmarks.ceiling.NullBroker PORT}
 */
public final class NullBroker {
    private static final int NODE_ID = 0;
    private static final List<ApiKey> ANSWERED =
            List.of(ApiKey.API_VERSIONS, ApiKey.METADATA, ApiKey.INIT_PRODUCER_ID, ApiKey.PRODUCE);

    private final int port;
    /** Offsets only make the answers plausible; one counter for every partition is enough. */
    private final AtomicLong nextOffset = new AtomicLong();
    private final AtomicLong nextProducerId = new AtomicLong();

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

    private final class Answerer extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            ByteBuf frame;
            while ((frame = Frames.readFrame(in, Integer.MAX_VALUE)) != null) {
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
                ctx.close();
                return;
            }
            Struct request = api.request().read(frame, version);
            Struct response = switch (api) {
                case API_VERSIONS -> apiVersions();
                case METADATA -> metadata(new MetadataRequestView(request));
                case INIT_PRODUCER_ID -> new InitProducerIdResponseView()
                        .producerId(nextProducerId.getAndIncrement()).producerEpoch((short) 0).struct();
                default -> {
                    ProduceRequestView produce = new ProduceRequestView(request);
                    yield produce.acks() == 0 ? null : produce(produce);
                }
            };
            if (response != null) {
                send(ctx, api, version, header.correlationId(), response);
            }
        }

        private void send(ChannelHandlerContext ctx, ApiKey api, short version, int correlationId, Struct body) {
            // ApiVersions responses always use header v0, whatever the request's version.
            short headerVersion = ResponseHeader.headerVersion(api, version);
            int size = ResponseHeader.sizeOf(headerVersion) + api.response().sizeOf(body, version);
            ByteBuf out = ctx.alloc().buffer(Frames.SIZE_PREFIX_BYTES + size);
            out.writeInt(size);
            new ResponseHeader(correlationId).write(out, headerVersion);
            api.response().write(out, body, version);
            ctx.writeAndFlush(out);
        }
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
            for (ProduceRequestView.PartitionProduceData partition : topic.partitionData()) {
                answer.addPartitionResponse().index(partition.index())
                        .baseOffset(nextOffset.getAndIncrement()).logAppendTimeMs(-1);
            }
        }
        return view.struct();
    }

    /** A topic's id is derived from its name, so Metadata and Produce agree without any state. */
    private static UUID topicId(String name) {
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
    }
}
