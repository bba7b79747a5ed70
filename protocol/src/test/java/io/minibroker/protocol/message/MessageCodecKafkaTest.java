package io.minibroker.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.frame.OutboundFrame;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.junit.jupiter.api.Test;

/** Whole frames (size prefix, header, body) against kafka-clients, and the ApiVersions quirks. */
class MessageCodecKafkaTest {
    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);

    /**
     * Kafka's response classes normalise some fields after parsing (JoinGroup v7+ turns an empty protocol
     * name into null), so this uses APIs whose response classes keep the data as parsed.
     */
    @Test
    void responsesFramedByUsParseInKafkasResponseParser() {
        for (ApiKey api : new ApiKey[] {ApiKey.API_VERSIONS, ApiKey.METADATA, ApiKey.FETCH, ApiKey.PRODUCE, ApiKey.FIND_COORDINATOR}) {
            for (short v = api.lowestVersion(); v <= api.highestVersion(); v++) {
                Struct body = new RandomStructs(v).fill(api.response().body(), v, 0);
                ByteBuf frame = onlyBuffer(MessageCodec.encodeResponse(ALLOC, api, v, 77, body));
                try {
                    assertThat(frame.getInt(0)).isEqualTo(frame.readableBytes() - Frames.SIZE_PREFIX_BYTES);
                    ByteBuffer nio = frame.nioBuffer(Frames.SIZE_PREFIX_BYTES, frame.readableBytes() - Frames.SIZE_PREFIX_BYTES);
                    org.apache.kafka.common.requests.RequestHeader requestHeader =
                            new org.apache.kafka.common.requests.RequestHeader(ApiKeys.forId(api.id()), v, "c", 77);
                    AbstractResponse parsed = AbstractResponse.parseResponse(nio, requestHeader);
                    assertThat(ByteBufUtil.getBytes(Unpooled.wrappedBuffer(MessageUtil.toByteBufferAccessor(parsed.data(), v).buffer())))
                            .as(api + " v" + v)
                            .isEqualTo(ByteBufUtil.getBytes(frame, frame.readableBytes() - api.response().sizeOf(body, v), api.response().sizeOf(body, v)));

                    Response ours = MessageCodec.decodeResponse(frame.skipBytes(Frames.SIZE_PREFIX_BYTES), api, v);
                    assertThat(ours.correlationId()).isEqualTo(77);
                    assertThat(ours.body()).isEqualTo(body);
                } finally {
                    frame.release();
                }
            }
        }
    }

    @Test
    void requestsRoundTripThroughFrames() {
        for (ApiKey api : ApiKey.values()) {
            for (short v = api.lowestVersion(); v <= api.highestVersion(); v++) {
                Struct body = new RandomStructs(v * 31L).fill(api.request().body(), v, 0);
                RequestHeader header = new RequestHeader(api.id(), v, 1234, "broker-client");
                ByteBuf frame = MessageCodec.encodeRequest(ALLOC, header, body);
                ByteBuf stream = Unpooled.wrappedBuffer(frame, Unpooled.wrappedBuffer(new byte[] {0, 0}));
                ByteBuf body1 = Frames.readFrame(stream, 1 << 20);
                try {
                    Request decoded = MessageCodec.decodeRequest(body1);
                    assertThat(decoded.header()).isEqualTo(header);
                    assertThat(decoded.api()).isEqualTo(api);
                    assertThat(decoded.body()).isEqualTo(body);
                    assertThat(Frames.readFrame(stream, 1 << 20)).as("incomplete second frame").isNull();
                } finally {
                    body1.release();
                    stream.release();
                }
            }
        }
    }

    @Test
    void tooNewApiVersionsRequestGetsV0ResponseWithSupportedRanges() {
        ByteBuf request = Unpooled.buffer();
        new RequestHeader(ApiKey.API_VERSIONS.id(), (short) 99, 5, "future-client").write(request, (short) 2);
        // A future version's body is unknown to us; the header alone must be enough to answer.
        request.writeBytes(new byte[] {9, 9, 9});
        RequestHeader header = RequestHeader.read(request);
        assertThat(ApiVersionsFallback.applies(header.apiKey(), header.apiVersion())).isTrue();
        assertThat(ApiVersionsFallback.applies(ApiKey.API_VERSIONS.id(), (short) 3)).isFalse();

        ByteBuf frame = onlyBuffer(ApiVersionsFallback.encode(ALLOC, header.correlationId()));
        try {
            ByteBuffer nio = frame.nioBuffer(Frames.SIZE_PREFIX_BYTES, frame.readableBytes() - Frames.SIZE_PREFIX_BYTES);
            assertThat(nio.getInt()).as("response header v0: just the correlation id").isEqualTo(5);
            ApiVersionsResponseData kafka = new ApiVersionsResponseData(new ByteBufferAccessor(nio), (short) 0);
            assertThat(nio.hasRemaining()).isFalse();
            assertThat(kafka.errorCode()).isEqualTo((short) 35).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            Map<Short, String> ranges = new TreeMap<>();
            kafka.apiKeys().forEach(k -> ranges.put(k.apiKey(), k.minVersion() + "-" + k.maxVersion()));
            for (ApiKey api : ApiKey.values()) {
                ApiKeys theirs = ApiKeys.forId(api.id());
                assertThat(ranges.get(api.id())).isEqualTo(theirs.oldestVersion() + "-" + theirs.latestVersion(false));
            }
        } finally {
            frame.release();
        }
    }

    @Test
    void apiVersionsResponsesAlwaysUseHeaderV0EvenWhenFlexible() {
        short v = 4;
        assertThat(ApiKey.API_VERSIONS.response().isFlexible(v)).isTrue();
        Struct body = ApiKey.API_VERSIONS.response().newMessage();
        ByteBuf frame = onlyBuffer(MessageCodec.encodeResponse(ALLOC, ApiKey.API_VERSIONS, v, 8, body));
        try {
            ByteBuffer nio = frame.nioBuffer(Frames.SIZE_PREFIX_BYTES, frame.readableBytes() - Frames.SIZE_PREFIX_BYTES);
            org.apache.kafka.common.requests.RequestHeader requestHeader =
                    new org.apache.kafka.common.requests.RequestHeader(ApiKeys.API_VERSIONS, v, "c", 8);
            assertThat(AbstractResponse.parseResponse(nio, requestHeader)).isInstanceOf(ApiVersionsResponse.class);
            assertThat(frame.readableBytes()).isEqualTo(Frames.SIZE_PREFIX_BYTES + 4 + ApiKey.API_VERSIONS.response().sizeOf(body, v));
        } finally {
            frame.release();
        }
    }

    @Test
    void unknownTaggedFieldsFromKafkaArePreservedAndReencodedIdentically() {
        MetadataRequestData kafka = new MetadataRequestData().setTopics(new java.util.ArrayList<>());
        kafka.topics().add(new MetadataRequestData.MetadataRequestTopic().setName("t"));
        kafka.topics().get(0).unknownTaggedFields().add(new RawTaggedField(3, new byte[] {1, 2}));
        kafka.unknownTaggedFields().add(new RawTaggedField(0, new byte[] {7}));
        kafka.unknownTaggedFields().add(new RawTaggedField(9, new byte[0]));
        assertReencodesIdentically(ApiKey.METADATA.request(), kafka, (short) 12);

        FetchResponseData fetch = new FetchResponseData();
        FetchResponseData.PartitionData partition = new FetchResponseData.PartitionData().setPartitionIndex(1)
                .setCurrentLeader(new FetchResponseData.LeaderIdAndEpoch().setLeaderId(3).setLeaderEpoch(7));
        partition.unknownTaggedFields().add(new RawTaggedField(0x7fff, new byte[] {4}));
        fetch.responses().add(new FetchResponseData.FetchableTopicResponse().setTopicId(org.apache.kafka.common.Uuid.randomUuid()));
        fetch.responses().get(0).partitions().add(partition);
        assertReencodesIdentically(ApiKey.FETCH.response(), fetch, (short) 17);
    }

    private static void assertReencodesIdentically(io.minibroker.protocol.schema.MessageSchema schema,
                                                   org.apache.kafka.common.protocol.Message kafka, short version) {
        byte[] kafkaBytes = KafkaMirror.serialize(kafka, version);
        Struct ours = schema.read(Unpooled.wrappedBuffer(kafkaBytes), version);
        ByteBuf out = Unpooled.buffer();
        schema.write(out, ours, version);
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo(ByteBufUtil.hexDump(kafkaBytes));
        assertThat(schema.sizeOf(ours, version)).isEqualTo(kafkaBytes.length);
    }

    @Test
    void workedTaggedExampleFromStructSchemaComment() {
        FetchResponseData.PartitionData partition = new FetchResponseData.PartitionData()
                .setCurrentLeader(new FetchResponseData.LeaderIdAndEpoch().setLeaderId(3).setLeaderEpoch(7));
        byte[] bytes = KafkaMirror.serialize(partition, (short) 17);
        assertThat(ByteBufUtil.hexDump(bytes)).endsWith("0101" + "09" + "00000003" + "00000007" + "00");
    }

    /** A response without records payloads is encoded as a single buffer. */
    private static ByteBuf onlyBuffer(OutboundFrame frame) {
        assertThat(frame.pieces()).hasSize(1);
        ByteBuf buffer = (ByteBuf) frame.pieces().get(0);
        assertThat(buffer.readableBytes()).isEqualTo(frame.sizeInBytes());
        return buffer;
    }
}
