package io.minibroker.broker.transaction;

import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.ListOffsetsRequestView;
import io.minibroker.protocol.message.view.ListOffsetsResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.ProduceRequestView;
import io.minibroker.protocol.message.view.ProduceResponseView;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A one-connection raw client for the transaction tests: produce transactional batches, write markers as a
 * coordinator would, fetch and list offsets at either isolation level. Requests may be sent and their answers read
 * apart, so a test can park a fetch and complete it from another connection.
 */
final class TxnWire implements AutoCloseable {

    static final byte READ_UNCOMMITTED = 0;
    static final byte READ_COMMITTED = 1;
    private static final short PRODUCE_VERSION = 9;
    private static final short FETCH_VERSION = 12;
    private static final short LIST_OFFSETS_VERSION = 7;
    private static final short MARKERS_VERSION = 1;

    private final Socket socket;
    private final DataInputStream in;
    private int correlationId;

    TxnWire(int port) throws IOException {
        socket = new Socket("localhost", port);
        in = new DataInputStream(socket.getInputStream());
    }

    void send(ApiKey api, short version, Struct body) throws IOException {
        ByteBuf request = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(api.id(), version, ++correlationId, "txn-wire"), body);
        byte[] bytes = new byte[request.readableBytes()];
        request.readBytes(bytes);
        request.release();
        socket.getOutputStream().write(bytes);
    }

    Struct receive(ApiKey api, short version) throws IOException {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return MessageCodec.decodeResponse(Unpooled.wrappedBuffer(frame), api, version).body();
    }

    Struct call(ApiKey api, short version, Struct body) throws IOException {
        send(api, version, body);
        return receive(api, version);
    }

    /** A Metadata request that has the topic auto-created, as a client's first one does. */
    void createTopic(String topic) throws IOException {
        MetadataRequestView metadata = new MetadataRequestView().allowAutoTopicCreation(true);
        metadata.addTopic().name(topic);
        call(ApiKey.METADATA, (short) 12, metadata.struct());
    }

    /** Produces one batch (transactional when asked) with acks=all; the partition's error and base offset. */
    ProduceResponseView.PartitionProduceResponse produce(String topic, long producerId, short epoch, int sequence,
                                                         boolean transactional, String... values) throws IOException {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0,
                System.currentTimeMillis()).producer(producerId, epoch, sequence).transactional(transactional);
        for (String value : values) {
            builder.append(System.currentTimeMillis(), null, value.getBytes(StandardCharsets.UTF_8), List.of());
        }
        ByteBuf batch = builder.build();
        try {
            ProduceRequestView produce = new ProduceRequestView().acks((short) -1).timeoutMs(10_000);
            produce.addTopicData().name(topic).addPartitionData().index(0).records(batch);
            return new ProduceResponseView(call(ApiKey.PRODUCE, PRODUCE_VERSION, produce.struct()))
                    .responses().get(0).partitionResponses().get(0);
        } finally {
            batch.release();
        }
    }

    /** One marker for partition 0 of {@code topics}; the answer. */
    WriteTxnMarkersResponseView writeMarker(long producerId, short epoch, int coordinatorEpoch, boolean commit,
                                            String... topics) throws IOException {
        WriteTxnMarkersRequestView request = new WriteTxnMarkersRequestView();
        addMarker(request, producerId, epoch, coordinatorEpoch, commit, topics);
        return new WriteTxnMarkersResponseView(call(ApiKey.WRITE_TXN_MARKERS, MARKERS_VERSION, request.struct()));
    }

    static void addMarker(WriteTxnMarkersRequestView request, long producerId, short epoch, int coordinatorEpoch,
                          boolean commit, String... topics) {
        WriteTxnMarkersRequestView.WritableTxnMarker marker = request.addMarker().producerId(producerId)
                .producerEpoch(epoch).coordinatorEpoch(coordinatorEpoch).transactionResult(commit);
        for (String topic : topics) {
            marker.addTopic().name(topic).partitionIndexes(List.of(0));
        }
    }

    /** One WriteTxnMarkers v2 marker for partition 0 of {@code topics}, coordinator epoch 0; the answer. */
    WriteTxnMarkersResponseView writeMarkerV2(long producerId, short epoch, boolean commit, byte transactionVersion,
                                              String... topics) throws IOException {
        WriteTxnMarkersRequestView request = new WriteTxnMarkersRequestView();
        addMarker(request, producerId, epoch, 0, commit, topics);
        request.markers().get(0).transactionVersion(transactionVersion);
        return new WriteTxnMarkersResponseView(call(ApiKey.WRITE_TXN_MARKERS, (short) 2, request.struct()));
    }

    WriteTxnMarkersResponseView writeMarkers(WriteTxnMarkersRequestView request) throws IOException {
        return new WriteTxnMarkersResponseView(call(ApiKey.WRITE_TXN_MARKERS, MARKERS_VERSION, request.struct()));
    }

    static Struct fetchRequest(String topic, long offset, byte isolation, int maxWaitMs) {
        FetchRequestView fetch = new FetchRequestView().replicaId(-1).maxWaitMs(maxWaitMs).minBytes(1)
                .maxBytes(1 << 20).isolationLevel(isolation).sessionId(0).sessionEpoch(-1);
        fetch.addTopic().topic(topic).addPartition().partition(0).fetchOffset(offset).partitionMaxBytes(1 << 20)
                .currentLeaderEpoch(-1).logStartOffset(-1);
        return fetch.struct();
    }

    void sendFetch(String topic, long offset, byte isolation, int maxWaitMs) throws IOException {
        send(ApiKey.FETCH, FETCH_VERSION, fetchRequest(topic, offset, isolation, maxWaitMs));
    }

    FetchResponseView.PartitionData receiveFetch() throws IOException {
        return new FetchResponseView(receive(ApiKey.FETCH, FETCH_VERSION)).responses().get(0).partitions().get(0);
    }

    FetchResponseView.PartitionData fetch(String topic, long offset, byte isolation) throws IOException {
        sendFetch(topic, offset, isolation, 0);
        return receiveFetch();
    }

    /** ListOffsets LATEST of partition 0 at the isolation level; its offset (or -1 with an error). */
    ListOffsetsResponseView.ListOffsetsPartitionResponse latest(String topic, byte isolation) throws IOException {
        ListOffsetsRequestView request = new ListOffsetsRequestView().replicaId(-1).isolationLevel(isolation);
        request.addTopic().name(topic).addPartition().partitionIndex(0).timestamp(-1L).currentLeaderEpoch(-1);
        return new ListOffsetsResponseView(call(ApiKey.LIST_OFFSETS, LIST_OFFSETS_VERSION, request.struct()))
                .topics().get(0).partitions().get(0);
    }

    /** The batches of a fetched partition: (base offset, control?) pairs. */
    record FetchedBatch(long baseOffset, long lastOffset, long producerId, boolean control) {
    }

    static List<FetchedBatch> batches(FetchResponseView.PartitionData partition) {
        List<FetchedBatch> found = new ArrayList<>();
        ByteBuf records = partition.records();
        if (records == null) {
            return found;
        }
        for (RecordBatches batches = RecordBatches.of(records); batches.hasNext(); ) {
            RecordBatch batch = batches.next();
            found.add(new FetchedBatch(batch.baseOffset(), batch.lastOffset(), batch.producerId(), batch.isControl()));
        }
        return found;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
