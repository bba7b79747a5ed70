package io.minibroker.protocol.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.protocol.message.ApiKey;
import io.netty.buffer.Unpooled;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;
import org.junit.jupiter.api.Test;

/**
 * Which fields {@link Struct#recordsPayloads} walks: every path to a records field, and nothing in a message
 * without one (a Metadata answer of 10,000 partitions was walked whole for every response).
 */
class RecordsWalkTest {

    @Test
    void everyMessageWithARecordsFieldIsWalkedAndNoOtherIs() {
        for (ApiKey api : ApiKey.values()) {
            for (MessageSchema message : new MessageSchema[] {api.request(), api.response()}) {
                assertThat(message.body().recordsWalk().length > 0).as(message.name())
                        .isEqualTo(holdsRecords(message.body()));
            }
        }
        assertThat(ApiKey.METADATA.response().body().recordsWalk()).isEmpty();
        assertThat(ApiKey.FETCH.response().body().recordsWalk()).isNotEmpty();
    }

    @Test
    void aPayloadAmongOtherFieldsIsFoundAndARecordsBufferIsNot() {
        Payload payload = new Payload();
        Struct response = ApiKey.SHARE_FETCH.response().newMessage();
        Struct topic = response.addElement("Responses");
        topic.addElement("Partitions").set("PartitionIndex", 0).set("Records", Unpooled.EMPTY_BUFFER);
        topic.addElement("Partitions").set("PartitionIndex", 1).set("Records", payload);

        assertThat(response.recordsPayloads()).containsExactly(payload);
        payload.release();
    }

    /** The test's own search: a records field anywhere below {@code schema}. */
    private static boolean holdsRecords(StructSchema schema) {
        for (Field field : schema.fields()) {
            FieldType type = field.type() instanceof ArrayType array ? array.elementType() : field.type();
            if (type == Primitive.RECORDS || type instanceof StructSchema nested && holdsRecords(nested)) {
                return true;
            }
        }
        return false;
    }

    private static final class Payload extends AbstractReferenceCounted implements RecordsPayload {
        @Override
        public int sizeInBytes() {
            return 0;
        }

        @Override
        protected void deallocate() {
        }

        @Override
        public ReferenceCounted touch(Object hint) {
            return this;
        }
    }
}
