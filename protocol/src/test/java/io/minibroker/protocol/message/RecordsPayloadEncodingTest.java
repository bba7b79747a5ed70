package io.minibroker.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.frame.OutboundFrame;
import io.minibroker.protocol.schema.RecordsPayload;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.Test;

/**
 * Records payloads: a fetch response whose records are not in the heap is encoded as buffers around them,
 * with compact (v12+) and int32 (before) length prefixes, and the pieces joined are the bytes kafka-clients reads.
 */
class RecordsPayloadEncodingTest {
    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);
    private static final UUID TOPIC_ID = new UUID(7, 9);

    /** A payload over bytes in memory, standing in for the broker's file regions. */
    private static final class BytesPayload extends AbstractReferenceCounted implements RecordsPayload {
        final byte[] bytes;

        BytesPayload(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int sizeInBytes() {
            return bytes.length;
        }

        @Override
        protected void deallocate() {
        }

        @Override
        public ReferenceCounted touch(Object hint) {
            return this;
        }
    }

    private static byte[] batches(Compression compression, String... values) {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(values[i].getBytes());
        }
        ByteBuffer buffer = MemoryRecords.withRecords(compression, records).buffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** Two topics: data, no data, data; then a partition in error without records. */
    private static Struct response(short version, Object first, Object second) {
        Struct body = ApiKey.FETCH.response().newMessage();
        Struct topic = body.addElement("Responses");
        Struct other = body.addElement("Responses");
        if (version >= 13) {
            topic.set("TopicId", TOPIC_ID);
            other.set("TopicId", new UUID(1, 2));
        } else {
            topic.set("Topic", "a");
            other.set("Topic", "b");
        }
        topic.addElement("Partitions").set("PartitionIndex", 0).set("HighWatermark", 10L).set("Records", first);
        topic.addElement("Partitions").set("PartitionIndex", 1).set("HighWatermark", 0L)
                .set("Records", Unpooled.EMPTY_BUFFER);
        other.addElement("Partitions").set("PartitionIndex", 0).set("HighWatermark", 4L).set("Records", second);
        other.addElement("Partitions").set("PartitionIndex", 1).set("ErrorCode", (short) 3).set("HighWatermark", -1L);
        return body;
    }

    private static byte[] join(OutboundFrame frame) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ReferenceCounted piece : frame.pieces()) {
            out.writeBytes(piece instanceof ByteBuf ? ByteBufUtil.getBytes((ByteBuf) piece) : ((BytesPayload) piece).bytes);
        }
        return out.toByteArray();
    }

    @Test
    void payloadsGoBetweenTheEncodedBytesAndTheJoinedFrameIsTheHeapEncodingInEveryVersion() {
        byte[] plain = batches(Compression.NONE, "a", "bb", "ccc");
        byte[] gzipped = batches(Compression.gzip().build(), "x", "y");
        for (short v = ApiKey.FETCH.lowestVersion(); v <= ApiKey.FETCH.highestVersion(); v++) {
            BytesPayload first = new BytesPayload(plain);
            BytesPayload second = new BytesPayload(gzipped);
            OutboundFrame frame = MessageCodec.encodeResponse(ALLOC, ApiKey.FETCH, v, 5, response(v, first, second));
            List<ReferenceCounted> pieces = frame.pieces();
            assertThat(pieces).hasSize(5);
            assertThat(pieces.get(1)).isSameAs(first);
            assertThat(pieces.get(3)).isSameAs(second);
            assertThat(pieces.get(0)).isInstanceOf(ByteBuf.class);
            assertThat(pieces.get(2)).isInstanceOf(ByteBuf.class);
            assertThat(pieces.get(4)).isInstanceOf(ByteBuf.class);
            byte[] joined = join(frame);
            assertThat(joined).hasSize(frame.sizeInBytes());
            assertThat(ByteBuffer.wrap(joined).getInt()).isEqualTo(joined.length - Frames.SIZE_PREFIX_BYTES);

            OutboundFrame heap = MessageCodec.encodeResponse(ALLOC, ApiKey.FETCH, v, 5,
                    response(v, Unpooled.wrappedBuffer(plain), Unpooled.wrappedBuffer(gzipped)));
            assertThat(heap.pieces()).hasSize(1);
            assertThat(joined).as("v" + v).isEqualTo(join(heap));
            heap.release();

            FetchResponse parsed = (FetchResponse) AbstractResponse.parseResponse(
                    ByteBuffer.wrap(joined, Frames.SIZE_PREFIX_BYTES, joined.length - Frames.SIZE_PREFIX_BYTES),
                    new RequestHeader(ApiKeys.FETCH, v, "c", 5));
            List<FetchResponseData.FetchableTopicResponse> topics = parsed.data().responses();
            assertThat(recordBytes(topics.get(0).partitions().get(0))).isEqualTo(plain);
            assertThat(recordBytes(topics.get(0).partitions().get(1))).isEmpty();
            assertThat(recordBytes(topics.get(1).partitions().get(0))).isEqualTo(gzipped);
            assertThat(topics.get(1).partitions().get(1).errorCode()).isEqualTo((short) 3);

            frame.release();
            assertThat(first.refCnt()).isZero();
            assertThat(second.refCnt()).isZero();
        }
    }

    private static byte[] recordBytes(FetchResponseData.PartitionData partition) {
        ByteBuffer buffer = ((MemoryRecords) partition.records()).buffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    @Test
    void aResponseThatCannotBeEncodedReleasesItsPayloads() {
        BytesPayload payload = new BytesPayload(batches(Compression.NONE, "a"));
        Struct body = response((short) 12, payload, Unpooled.EMPTY_BUFFER);
        body.getStructs("Responses").get(0).set("Topic", null); // not nullable

        assertThatThrownBy(() -> MessageCodec.encodeResponse(ALLOC, ApiKey.FETCH, (short) 12, 5, body))
                .isInstanceOf(ProtocolException.class);
        assertThat(payload.refCnt()).isZero();
    }

    @Test
    void aPayloadHasNoPlaceInAMessageEncodedIntoOneBuffer() {
        BytesPayload payload = new BytesPayload(batches(Compression.NONE, "a"));
        Struct body = response((short) 4, payload, Unpooled.EMPTY_BUFFER);
        ByteBuf out = ALLOC.buffer();
        try {
            assertThatThrownBy(() -> ApiKey.FETCH.response().write(out, body, (short) 4))
                    .isInstanceOf(ProtocolException.class);
        } finally {
            out.release();
            payload.release();
        }
    }

    @Test
    void recordsPayloadsAreFoundWhereverTheStructHoldsThem() {
        BytesPayload first = new BytesPayload(new byte[3]);
        BytesPayload second = new BytesPayload(new byte[4]);
        assertThat(response((short) 12, first, second).recordsPayloads()).containsExactly(first, second);
        assertThat(response((short) 12, Unpooled.EMPTY_BUFFER, Unpooled.EMPTY_BUFFER).recordsPayloads()).isEmpty();
        new ArrayList<>(List.of(first, second)).forEach(ReferenceCounted::release);
    }
}
