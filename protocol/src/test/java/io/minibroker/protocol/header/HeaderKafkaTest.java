package io.minibroker.protocol.header;

import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.protocol.message.ApiKey;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.stream.Stream;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Request and response headers of every API and version, byte for byte against kafka-clients. */
class HeaderKafkaTest {
    @TestFactory
    Stream<DynamicTest> headerVersionsAndBytesMatchKafka() {
        return Stream.of(ApiKey.values()).map(api -> DynamicTest.dynamicTest(api.name(), () -> {
            ApiKeys kafka = ApiKeys.forId(api.id());
            for (short v = api.lowestVersion(); v <= api.highestVersion(); v++) {
                short requestHeaderVersion = RequestHeader.headerVersion(api, v);
                short responseHeaderVersion = ResponseHeader.headerVersion(api, v);
                assertThat(requestHeaderVersion).as("request header of v" + v).isEqualTo(kafka.requestHeaderVersion(v));
                assertThat(responseHeaderVersion).as("response header of v" + v).isEqualTo(kafka.responseHeaderVersion(v));

                RequestHeaderData kafkaRequest = new RequestHeaderData().setRequestApiKey(api.id()).setRequestApiVersion(v)
                        .setCorrelationId(v * 1000 + 7).setClientId(v % 2 == 0 ? "client-ü" : null);
                byte[] kafkaBytes = bytes(MessageUtil.toByteBufferAccessor(kafkaRequest, requestHeaderVersion).buffer());
                ByteBuf in = Unpooled.wrappedBuffer(kafkaBytes);
                RequestHeader ours = RequestHeader.read(in);
                assertThat(in.isReadable()).isFalse();
                assertThat(ours).isEqualTo(new RequestHeader(api.id(), v, v * 1000 + 7, kafkaRequest.clientId()));
                ByteBuf out = Unpooled.buffer();
                ours.write(out, requestHeaderVersion);
                assertThat(ByteBufUtil.getBytes(out)).isEqualTo(kafkaBytes);
                assertThat(ours.sizeOf(requestHeaderVersion)).isEqualTo(kafkaBytes.length);

                ByteBuf response = Unpooled.buffer();
                new ResponseHeader(-5).write(response, responseHeaderVersion);
                ResponseHeaderData parsed = new ResponseHeaderData(new ByteBufferAccessor(response.nioBuffer()), responseHeaderVersion);
                assertThat(parsed.correlationId()).isEqualTo(-5);
                assertThat(response.readableBytes()).isEqualTo(ResponseHeader.sizeOf(responseHeaderVersion));
            }
        }));
    }

    /** Kafka 4 no longer speaks header v0 (its spec starts at v1), so v0 is checked against its layout. */
    @Test
    void requestHeaderV0HasNoClientId() {
        ByteBuf out = Unpooled.buffer();
        RequestHeader header = new RequestHeader((short) 7, (short) 0, 9, null);
        header.write(out, (short) 0);
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo("0007" + "0000" + "00000009");
        assertThat(header.sizeOf((short) 0)).isEqualTo(8);
        assertThat(RequestHeader.read(out, (short) 0)).isEqualTo(header);
    }

    @Test
    void unknownTaggedFieldsInHeadersAreSkipped() {
        RequestHeaderData kafka = new RequestHeaderData().setRequestApiKey(ApiKey.METADATA.id()).setRequestApiVersion((short) 12)
                .setCorrelationId(1).setClientId("c");
        kafka.unknownTaggedFields().add(new RawTaggedField(7, new byte[] {1, 2, 3}));
        ResponseHeaderData response = new ResponseHeaderData().setCorrelationId(1);
        response.unknownTaggedFields().add(new RawTaggedField(100, new byte[40]));

        ByteBuf request = Unpooled.wrappedBuffer(bytes(MessageUtil.toByteBufferAccessor(kafka, (short) 2).buffer()));
        assertThat(RequestHeader.read(request).clientId()).isEqualTo("c");
        assertThat(request.isReadable()).isFalse();
        ByteBuf responseBytes = Unpooled.wrappedBuffer(bytes(MessageUtil.toByteBufferAccessor(response, (short) 1).buffer()));
        assertThat(ResponseHeader.read(responseBytes, (short) 1).correlationId()).isEqualTo(1);
        assertThat(responseBytes.isReadable()).isFalse();
    }

    @Test
    void workedExampleFromTheClassComment() {
        ByteBuf out = Unpooled.buffer();
        new RequestHeader(ApiKey.API_VERSIONS.id(), (short) 3, 7, "c").write(out, (short) 2);
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo("00120003000000070001" + "63" + "00");
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
