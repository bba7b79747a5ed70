package io.minibroker.broker.produce;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Response;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Idempotent produce at the wire: retries, gaps and fenced epochs, as Kafka answers them. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdempotentProduceTest {

    private static final short PRODUCE_VERSION = 9;

    @TempDir
    Path logDir;

    /** A one-connection client: send a produce, read its partition's answer. */
    private static final class Wire implements AutoCloseable {
        private final Socket socket;
        private final DataInputStream in;
        private int correlationId;

        Wire(Broker broker) throws IOException {
            socket = new Socket("localhost", broker.boundPort("PLAINTEXT"));
            in = new DataInputStream(socket.getInputStream());
            Struct metadata = ApiKey.METADATA.request().newMessage().set("AllowAutoTopicCreation", true);
            metadata.addElement("Topics").set("Name", "dedup"); // creates it, as a client's first metadata does
            call(ApiKey.METADATA, (short) 12, metadata);
        }

        Struct call(ApiKey api, short version, Struct body) throws IOException {
            ByteBuf request = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                    new RequestHeader(api.id(), version, ++correlationId, "wire"), body);
            byte[] bytes = new byte[request.readableBytes()];
            request.readBytes(bytes);
            request.release();
            socket.getOutputStream().write(bytes);
            byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            Response response = MessageCodec.decodeResponse(Unpooled.wrappedBuffer(frame), api, version);
            return response.body();
        }

        /** Produces one batch of {@code records} records and returns the partition's response. */
        Struct produce(long producerId, short epoch, int baseSequence, int records) throws IOException {
            return produce(producerId, epoch, baseSequence, records, System.currentTimeMillis());
        }

        /** {@link #produce(long, short, int, int)} with every record stamped {@code timestamp}. */
        Struct produce(long producerId, short epoch, int baseSequence, int records, long timestamp) throws IOException {
            return produce(producerId, epoch, baseSequence, records, timestamp, false);
        }

        /** {@link #produce(long, short, int, int, long)}, the batch marked transactional or not. */
        Struct produce(long producerId, short epoch, int baseSequence, int records, long timestamp,
                       boolean transactional) throws IOException {
            RecordBatchBuilder builder = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0,
                    timestamp).producer(producerId, epoch, baseSequence).transactional(transactional);
            for (int i = 0; i < records; i++) {
                builder.append(timestamp, null, ("r" + (baseSequence + i)).getBytes(StandardCharsets.UTF_8), List.of());
            }
            ByteBuf batch = builder.build();
            try {
                Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", (short) -1).set("TimeoutMs", 5000);
                body.addElement("TopicData").set("Name", "dedup")
                        .addElement("PartitionData").set("Index", 0).set("Records", batch);
                return call(ApiKey.PRODUCE, PRODUCE_VERSION, body)
                        .getStructs("Responses").get(0).getStructs("PartitionResponses").get(0);
            } finally {
                batch.release();
            }
        }

        long initProducerId() throws IOException {
            Struct body = ApiKey.INIT_PRODUCER_ID.request().newMessage().set("TransactionalId", null)
                    .set("TransactionTimeoutMs", 60_000);
            Struct response = call(ApiKey.INIT_PRODUCER_ID, (short) 4, body);
            assertThat(response.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(response.getInt16("ProducerEpoch")).isZero();
            return response.getInt64("ProducerId");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private Broker start() throws Exception {
        return TestBrokers.start(logDir, Map.of());
    }

    @Test
    void aRetryIsAnsweredWithTheOffsetsOfTheRecompressedCopyTheLogHolds() throws Exception {
        // With compression.type=gzip the log stores a copy of each batch, not the producer's bytes with offsets
        // rewritten in place: the offsets remembered for retries must be the copy's.
        try (Broker broker = TestBrokers.start(logDir, Map.of("compression.type", "gzip")); Wire wire = new Wire(broker)) {
            long producerId = wire.initProducerId();
            assertThat(wire.produce(producerId, (short) 0, 0, 3).getInt64("BaseOffset")).isZero();
            assertThat(wire.produce(producerId, (short) 0, 3, 2).getInt64("BaseOffset")).isEqualTo(3);

            Struct retry = wire.produce(producerId, (short) 0, 3, 2);

            assertThat(retry.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(retry.getInt64("BaseOffset")).isEqualTo(3);
        }
    }

    @Test
    void aRetriedBatchIsAnsweredWithItsOriginalOffsetAndWrittenOnce() throws Exception {
        try (Broker broker = start(); Wire wire = new Wire(broker)) {
            long producerId = wire.initProducerId();
            long stamped = 1_700_000_000_000L;
            assertThat(wire.produce(producerId, (short) 0, 0, 3, stamped).getInt64("BaseOffset")).isZero();
            assertThat(wire.produce(producerId, (short) 0, 3, 2).getInt64("BaseOffset")).isEqualTo(3);

            Struct retry = wire.produce(producerId, (short) 0, 0, 3, stamped);

            assertThat(retry.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(retry.getInt64("BaseOffset")).isZero();
            assertThat(retry.getInt64("LogAppendTimeMs")).as("Kafka's: the stored batch's timestamp")
                    .isEqualTo(stamped);
            assertThat(wire.produce(producerId, (short) 0, 5, 1).getInt64("BaseOffset"))
                    .as("nothing was written twice").isEqualTo(5);
        }
    }

    @Test
    void aGapInSequenceIsOutOfOrderAndAnOldEpochIsFenced() throws Exception {
        try (Broker broker = start(); Wire wire = new Wire(broker)) {
            long producerId = wire.initProducerId();
            wire.produce(producerId, (short) 1, 0, 2);

            Struct gap = wire.produce(producerId, (short) 1, 5, 1);
            assertThat(gap.getInt16("ErrorCode")).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code());
            // Kafka's processFailedRecord: the log start offset, and no message but a record validation's
            assertThat(gap.getInt64("LogStartOffset")).isZero();
            assertThat(gap.getString("ErrorMessage")).isNull();
            Struct fenced = wire.produce(producerId, (short) 0, 2, 1);
            assertThat(fenced.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_PRODUCER_EPOCH.code());
            assertThat(fenced.getInt64("LogStartOffset")).isZero();
            assertThat(fenced.getString("ErrorMessage")).isNull();
            assertThat(wire.produce(producerId, (short) 2, 7, 1).getInt16("ErrorCode"))
                    .as("a new epoch starts at sequence 0").isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code());
            assertThat(wire.produce(producerId, (short) 2, 0, 1).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        }
    }

    @Test
    void transactionalBatchesWithoutATransactionalIdAreRefusedAndNotWritten() throws Exception {
        try (Broker broker = start(); Wire wire = new Wire(broker)) {
            long producerId = wire.initProducerId();

            Struct refused = wire.produce(producerId, (short) 0, 0, 2, System.currentTimeMillis(), true);

            assertThat(refused.getInt16("ErrorCode")).isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());
            assertThat(wire.produce(producerId, (short) 0, 0, 1).getInt64("BaseOffset"))
                    .as("nothing was written").isZero();
        }
    }

    @Test
    void anIdempotentInitProducerIdNamingOnlyAProducerIdOrOnlyAnEpochIsInvalid() throws Exception {
        try (Broker broker = start(); Wire wire = new Wire(broker)) {
            for (long[] pair : new long[][] {{5, -1}, {-1, 3}}) {
                Struct body = ApiKey.INIT_PRODUCER_ID.request().newMessage().set("TransactionalId", null)
                        .set("TransactionTimeoutMs", 60_000).set("ProducerId", pair[0])
                        .set("ProducerEpoch", (short) pair[1]);
                assertThat(wire.call(ApiKey.INIT_PRODUCER_ID, (short) 4, body).getInt16("ErrorCode"))
                        .isEqualTo(Errors.INVALID_REQUEST.code());
            }
        }
    }

    @Test
    void recordsAreValidatedBeforeTheProducersStateAsKafkaDoes() throws Exception {
        try (Broker broker = start(); Wire wire = new Wire(broker)) {
            long producerId = wire.initProducerId();
            wire.produce(producerId, (short) 0, 0, 2);
            long twoHoursAhead = System.currentTimeMillis() + 7_200_000;

            Struct gapWithBadRecords = wire.produce(producerId, (short) 0, 5, 2, twoHoursAhead);
            Struct duplicateWithBadRecords = wire.produce(producerId, (short) 0, 0, 2, twoHoursAhead);

            for (Struct refused : List.of(gapWithBadRecords, duplicateWithBadRecords)) {
                assertThat(refused.getInt16("ErrorCode")).as("not OUT_OF_ORDER_SEQUENCE_NUMBER nor a duplicate's answer")
                        .isEqualTo(Errors.INVALID_TIMESTAMP.code());
                assertThat(refused.getString("ErrorMessage"))
                        .isEqualTo("One or more records have been rejected due to invalid timestamp");
                assertThat(refused.getStructs("RecordErrors")).extracting(error -> error.getInt32("BatchIndex"))
                        .containsExactly(0, 1);
                assertThat(refused.getStructs("RecordErrors").get(0).getString("BatchIndexErrorMessage"))
                        .startsWith("Timestamp " + twoHoursAhead + " of message with offset 0 is out of range.");
                assertThat(refused.getInt64("LogStartOffset")).as("reported, as Kafka reports it").isZero();
            }
            assertThat(wire.produce(producerId, (short) 0, 2, 1).getInt64("BaseOffset"))
                    .as("the refused batches left the producer's sequence alone").isEqualTo(2);
        }
    }

    @Test
    void producerStateAndIdsSurviveARestart() throws Exception {
        long producerId;
        try (Broker broker = start(); Wire wire = new Wire(broker)) {
            producerId = wire.initProducerId();
            wire.produce(producerId, (short) 0, 0, 4);
        }
        try (Broker broker = start(); Wire wire = new Wire(broker)) {
            Struct retry = wire.produce(producerId, (short) 0, 0, 4);

            assertThat(retry.getInt64("BaseOffset")).as("the retry is still recognised").isZero();
            assertThat(wire.produce(producerId, (short) 0, 4, 1).getInt64("BaseOffset")).isEqualTo(4);
            assertThat(wire.initProducerId()).as("ids are never handed out twice").isNotEqualTo(producerId);
        }
    }
}
