package io.minibroker.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.schema.MessageSchema;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.MetadataRequest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Shapes Kafka's readers take although no Kafka client writes them: bytes after a body, unknown tagged fields in
 * headers and bodies, a known tagged field whose declared size is off, nullable fields and client ids of a negative
 * length other than -1; and the shapes they still refuse. Each case is read by ours and by kafka-clients' parsers.
 */
class LenientShapesKafkaTest {
    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);
    private static final HexFormat HEX = HexFormat.of();

    /**
     * librdkafka 2.16.0 (confluent-kafka for Python 2.16.1) asking for all topics: header v2 (Metadata 13,
     * correlation id 3, client "rdkafka", no tags), then {@code 00 00 00 00 01 00 00}. It reserves four bytes for
     * the topic count and, for all topics, leaves them as they are instead of shrinking them to the one-byte null
     * it means; Kafka reads a null topic array, allowAutoTopicCreation and includeTopicAuthorizedOperations false,
     * no tagged fields, and ignores the three bytes left.
     */
    private static final String LIBRDKAFKA_ALL_TOPICS = "0003000d00000003000772646b61666b6100" + "00000000010000";

    /** The same client asking for brokers only: a one-byte empty topic array, nothing after the body. */
    private static final String LIBRDKAFKA_BROKERS_ONLY = "0003000d00000002000772646b61666b6100" + "01000000";

    @Test
    void librdkafkasAllTopicsMetadataRequestReadsAsKafkaReadsIt() {
        Request ours = MessageCodec.decodeRequest(Unpooled.wrappedBuffer(HEX.parseHex(LIBRDKAFKA_ALL_TOPICS)));
        MetadataRequestData kafka = ((MetadataRequest) kafkaParse(HEX.parseHex(LIBRDKAFKA_ALL_TOPICS))).data();

        assertThat(ours.header()).isEqualTo(new RequestHeader(ApiKey.METADATA.id(), (short) 13, 3, "rdkafka"));
        assertThat(kafka.topics()).isNull();
        assertThat(ours.body().get("Topics")).isNull();
        assertThat(kafka.allowAutoTopicCreation()).isFalse();
        assertThat(ours.body().getBool("AllowAutoTopicCreation")).isFalse();
        assertThat(kafka.includeTopicAuthorizedOperations()).isFalse();
        assertThat(ours.body().getBool("IncludeTopicAuthorizedOperations")).isFalse();

        Request brokersOnly = MessageCodec.decodeRequest(Unpooled.wrappedBuffer(HEX.parseHex(LIBRDKAFKA_BROKERS_ONLY)));
        assertThat(brokersOnly.body().getStructs("Topics")).isEmpty();
        assertThat(((MetadataRequest) kafkaParse(HEX.parseHex(LIBRDKAFKA_BROKERS_ONLY))).data().topics()).isEmpty();
    }

    /** Whatever follows a body is left unread, in requests and responses of every API and version, as by Kafka. */
    @TestFactory
    Stream<DynamicTest> bytesAfterAnyBodyAreLeftUnread() {
        byte[] trailing = {(byte) 0xff, 0x00, 0x7f};
        return Stream.of(ApiKey.values()).flatMap(api -> Stream.of(api.request(), api.response()))
                .map(schema -> DynamicTest.dynamicTest(schema.name(), () -> {
                    for (short v = schema.lowestVersion(); v <= schema.highestVersion(); v++) {
                        Struct body = new RandomStructs(v).fill(schema.body(), v, 0);
                        byte[] bytes = concat(encode(schema, body, v), trailing);

                        ByteBuf in = Unpooled.wrappedBuffer(bytes);
                        assertThat(schema.read(in, v)).as(schema + " v" + v).isEqualTo(body);
                        assertThat(in.readableBytes()).as(schema + " v" + v).isEqualTo(trailing.length);
                        KafkaMirror.parse(schema, bytes, v);
                    }
                }));
    }

    /** A body cut short still fails, but a cut that leaves a whole shorter body reads as that body in both. */
    @Test
    void aBodyCutShortFailsUnlessWhatIsLeftIsAWholeBody() {
        byte[] frame = HEX.parseHex(LIBRDKAFKA_ALL_TOPICS);
        int bodyStart = frame.length - 7;
        for (int length = bodyStart; length < frame.length; length++) {
            byte[] cut = Arrays.copyOf(frame, length);
            // The four zero bytes alone are a whole body: null topics, false, false, no tagged fields.
            if (length >= bodyStart + 4) {
                assertThat(MessageCodec.decodeRequest(Unpooled.wrappedBuffer(cut)).body().get("Topics")).isNull();
                assertThat(((MetadataRequest) kafkaParse(cut)).data().topics()).isNull();
            } else {
                assertRefusedByBoth(cut);
            }
        }
    }

    /** Unknown tags in the header, the body and a nested struct are accepted; the body's are kept and written back. */
    @Test
    void unknownTaggedFieldsInHeaderAndBodyAreAcceptedAtEveryLevel() {
        RequestHeaderData header = new RequestHeaderData().setRequestApiKey(ApiKeys.METADATA.id).setRequestApiVersion((short) 12)
                .setCorrelationId(5).setClientId("c");
        header.unknownTaggedFields().add(new RawTaggedField(3, new byte[] {9, 9}));
        MetadataRequestData body = new MetadataRequestData().setAllowAutoTopicCreation(true);
        body.topics().add(new MetadataRequestData.MetadataRequestTopic().setName("orders"));
        body.topics().get(0).unknownTaggedFields().add(new RawTaggedField(0, new byte[] {1}));
        body.unknownTaggedFields().add(new RawTaggedField(5, new byte[0]));
        body.unknownTaggedFields().add(new RawTaggedField(200, new byte[] {1, 2, 3}));
        byte[] bodyBytes = KafkaMirror.serialize(body, (short) 12);
        byte[] frame = concat(KafkaMirror.serialize(header, (short) 2), bodyBytes);

        Request ours = MessageCodec.decodeRequest(Unpooled.wrappedBuffer(frame));

        assertThat(ours.header()).isEqualTo(new RequestHeader(ApiKey.METADATA.id(), (short) 12, 5, "c"));
        assertThat(ours.body().getStructs("Topics").get(0).getString("Name")).isEqualTo("orders");
        assertThat(ours.body().getBool("AllowAutoTopicCreation")).isTrue();
        assertThat(ours.body().unknownTags()).hasSize(2);
        assertThat(encode(ApiKey.METADATA.request(), ours.body(), (short) 12)).isEqualTo(bodyBytes);
        assertThat(((MetadataRequest) kafkaParse(frame)).data()).isEqualTo(body);
    }

    @Test
    void anUnknownTagLongerThanWhatIsLeftIsRefused() {
        // Metadata v12, no topics, then one tagged field: tag 9 announcing 5 bytes of which 2 follow.
        byte[] frame = concat(header(ApiKey.METADATA, 12), HEX.parseHex("0100000109050102"));
        assertRefusedByBoth(frame);
    }

    /**
     * Kafka's reader goes by a known tagged field's value, not by the size in front of it: a size that is too
     * large or too small does not matter while the value itself is whole, and what the size would have covered
     * past the value is read as what follows it.
     */
    @Test
    void aKnownTaggedFieldIsReadByItsValueNotItsDeclaredSize() {
        // Fetch v12 ends with its tagged section; ClusterId (tag 0) "c" is the compact string 02 63.
        byte[] untagged = fetchV12WithoutTags();
        for (String size : new String[] {"02", "00", "05"}) {
            byte[] frame = concat(Arrays.copyOf(untagged, untagged.length - 1), HEX.parseHex("0100" + size + "0263"));

            assertThat(MessageCodec.decodeRequest(Unpooled.wrappedBuffer(frame)).body().getString("ClusterId"))
                    .as("declared size " + size).isEqualTo("c");
            assertThat(((FetchRequest) kafkaParse(frame)).data().clusterId()).as("declared size " + size).isEqualTo("c");
        }
    }

    /** Fetch's ReplicaState travels as tag 1 from v15: in v12 Kafka refuses that tag rather than keep it unknown. */
    @Test
    void aTagThatAFieldCarriesOnlyInOtherVersionsIsRefused() {
        byte[] untagged = fetchV12WithoutTags();
        byte[] laterTag = concat(Arrays.copyOf(untagged, untagged.length - 1), HEX.parseHex("01010100"));
        assertRefusedByBoth(laterTag);

        byte[] unknownTag = concat(Arrays.copyOf(untagged, untagged.length - 1), HEX.parseHex("01070100"));
        assertThat(MessageCodec.decodeRequest(Unpooled.wrappedBuffer(unknownTag)).body().unknownTags()).hasSize(1);
        assertThat(((FetchRequest) kafkaParse(unknownTag)).data().unknownTaggedFields()).hasSize(1);
    }

    /** A tagged-field count of 2^31 or more reads as a negative int, which Kafka refuses in a header and a body. */
    @Test
    void aTaggedFieldCountThatReadsNegativeIsRefused() {
        String negativeCount = "8080808008";
        assertRefusedByBoth(concat(header(ApiKey.METADATA, 12), HEX.parseHex("010000" + negativeCount)));
        assertRefusedByBoth(HEX.parseHex("0003000c00000001000163" + negativeCount + "01000000"));
    }

    /** The header's client id: any negative length is a null id to Kafka (which then calls it ""), not only -1. */
    @Test
    void aClientIdOfAnyNegativeLengthIsNull() {
        byte[] frame = concat(HEX.parseHex("0003000c00000001" + "fffe" + "00"), HEX.parseHex("01000000"));
        assertThat(MessageCodec.decodeRequest(Unpooled.wrappedBuffer(frame)).header().clientId()).isNull();
        assertThat(org.apache.kafka.common.requests.RequestHeader.parse(ByteBuffer.wrap(frame)).clientId()).isEmpty();
    }

    /**
     * A nullable string or array of any negative length is null to Kafka, not only of length -1: an int32 or int16
     * below -1, or a compact length whose varint reads as 0xffffffff or more. In a field that is not nullable it is
     * refused.
     */
    @Test
    void aNullableFieldOfAnyNegativeLengthIsNull() {
        // Metadata v1, Topics (nullable from v1) of count -2.
        byte[] wideArray = concat(header(ApiKey.METADATA, 1), HEX.parseHex("fffffffe"));
        assertThat(MessageCodec.decodeRequest(Unpooled.wrappedBuffer(wideArray)).body().get("Topics")).isNull();
        assertThat(((MetadataRequest) kafkaParse(wideArray)).data().topics()).isNull();

        // Metadata v12: a compact Topics count whose varint ffffffff0f reads as -1, so a length of -2.
        byte[] compactArray = concat(header(ApiKey.METADATA, 12), HEX.parseHex("ffffffff0f" + "000000"));
        assertThat(MessageCodec.decodeRequest(Unpooled.wrappedBuffer(compactArray)).body().get("Topics")).isNull();
        assertThat(((MetadataRequest) kafkaParse(compactArray)).data().topics()).isNull();

        // Metadata v12: one topic, its id, its Name (nullable from v10) of compact length -2, its tag count.
        byte[] compactString = concat(header(ApiKey.METADATA, 12),
                HEX.parseHex("02" + "00".repeat(16) + "ffffffff0f" + "00" + "000000"));
        assertThat(MessageCodec.decodeRequest(Unpooled.wrappedBuffer(compactString)).body().getStructs("Topics").get(0)
                .getString("Name")).isNull();
        assertThat(((MetadataRequest) kafkaParse(compactString)).data().topics().get(0).name()).isNull();

        // Metadata v1: one topic whose Name, never nullable there, has length -2.
        assertRefusedByBoth(concat(header(ApiKey.METADATA, 1), HEX.parseHex("00000001fffe")));
    }

    /** A Fetch v12 request frame (no size prefix) with no tagged fields: its last byte is the body's tag count 0. */
    private static byte[] fetchV12WithoutTags() {
        Struct body = ApiKey.FETCH.request().newMessage();
        byte[] frame = concat(header(ApiKey.FETCH, 12), encode(ApiKey.FETCH.request(), body, (short) 12));
        assertThat(frame[frame.length - 1]).isZero();
        return frame;
    }

    private static byte[] header(ApiKey api, int version) {
        ByteBuf buf = Unpooled.buffer();
        new RequestHeader(api.id(), (short) version, 1, "c").write(buf, RequestHeader.headerVersion(api, (short) version));
        return ByteBufUtil.getBytes(buf);
    }

    private static byte[] encode(MessageSchema schema, Struct body, short version) {
        ByteBuf out = ALLOC.buffer();
        try {
            schema.write(out, body, version);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    /** A request frame (without its size prefix) as Kafka's broker parses it: header, then body. */
    private static AbstractRequest kafkaParse(byte[] frame) {
        ByteBuffer buffer = ByteBuffer.wrap(frame);
        org.apache.kafka.common.requests.RequestHeader header = org.apache.kafka.common.requests.RequestHeader.parse(buffer);
        return AbstractRequest.parseRequest(header.apiKey(), header.apiVersion(), new ByteBufferAccessor(buffer)).request;
    }

    private static void assertRefusedByBoth(byte[] frame) {
        assertThatThrownBy(() -> MessageCodec.decodeRequest(Unpooled.wrappedBuffer(frame)))
                .isInstanceOf(ProtocolException.class)
                .satisfies(e -> assertThat(((ProtocolException) e).error()).isEqualTo(Errors.INVALID_REQUEST));
        assertThatThrownBy(() -> kafkaParse(frame)).as("Kafka's parser").isNotNull();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
