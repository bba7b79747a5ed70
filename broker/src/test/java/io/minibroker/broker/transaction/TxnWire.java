package io.minibroker.broker.transaction;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.view.AddPartitionsToTxnRequestView;
import io.minibroker.protocol.message.view.AddPartitionsToTxnResponseView;
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
 * A one-connection raw client for the transaction tests: open a transaction on the coordinator and produce its
 * batches, write markers as a coordinator would, fetch and list offsets at either isolation level. Requests may be sent and their answers read
 * apart, so a test can park a fetch and complete it from another connection.
 */
final class TxnWire implements AutoCloseable {

    static final byte READ_UNCOMMITTED = 0;
    static final byte READ_COMMITTED = 1;
    private static final short PRODUCE_VERSION = 9;
    private static final short FETCH_VERSION = 12;
    private static final short LIST_OFFSETS_VERSION = 7;
    private static final short MARKERS_VERSION = 1;
    private static final short ADD_PARTITIONS_VERSION = 3;
    /** Longer than any test runs (within transaction.max.timeout.ms): the coordinator never aborts one on its own. */
    private static final int TRANSACTION_TIMEOUT_MS = 600_000;

    /**
     * A transactional producer as InitProducerId made it. Its produces name its transactional id, as Kafka requires of
     * transactional batches, so the broker verifies them with the coordinator.
     */
    record Producer(String transactionalId, long id, short epoch) {
    }

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

    /**
     * InitProducerId on this connection's node, which must be the transactional id's coordinator, as a client starts
     * ({@link TransactionalProducerInit}). Again for the same id, it bumps the epoch.
     */
    Producer initProducer(String transactionalId) {
        TransactionalProducerInit.Initialized initialized =
                TransactionalProducerInit.init(this::call, transactionalId, TRANSACTION_TIMEOUT_MS);
        return new Producer(transactionalId, initialized.producerId(), initialized.epoch());
    }

    /** AddPartitionsToTxn of partition 0 of {@code topic} on the coordinator: the producer's transaction has it. */
    void addPartition(Producer producer, String topic) throws IOException {
        AddPartitionsToTxnRequestView request = new AddPartitionsToTxnRequestView()
                .v3AndBelowTransactionalId(producer.transactionalId()).v3AndBelowProducerId(producer.id())
                .v3AndBelowProducerEpoch(producer.epoch());
        request.addV3AndBelowTopic().name(topic).partitions(List.of(0));
        short error = new AddPartitionsToTxnResponseView(
                call(ApiKey.ADD_PARTITIONS_TO_TXN, ADD_PARTITIONS_VERSION, request.struct()))
                .resultsByTopicV3AndBelow().get(0).resultsByPartition().get(0).partitionErrorCode();
        if (error != 0) {
            throw new AssertionError("AddPartitionsToTxn of " + topic + ": " + Errors.forCode(error));
        }
    }

    /** FindCoordinator for a transactional id: the coordinator's node id, or -1 while there is none yet. */
    int findTransactionCoordinator(String transactionalId) {
        return TransactionalProducerInit.findCoordinator(this::call, transactionalId);
    }

    /** {@link #initProducer} then {@link #addPartition}: a transaction open on the coordinator, to produce into. */
    Producer beginTransaction(String transactionalId, String topic) throws IOException {
        Producer producer = initProducer(transactionalId);
        addPartition(producer, topic);
        return producer;
    }

    /** Produces one transactional batch of the producer with acks=all; the partition's error and base offset. */
    ProduceResponseView.PartitionProduceResponse produce(String topic, Producer producer, int sequence,
                                                         String... values) throws IOException {
        return produce(topic, producer.transactionalId(), producer.id(), producer.epoch(), sequence, true, values);
    }

    /** Produces one plain batch, of no producer, with acks=all; the partition's error and base offset. */
    ProduceResponseView.PartitionProduceResponse producePlain(String topic, String... values) throws IOException {
        return produce(topic, null, -1, (short) -1, -1, false, values);
    }

    private ProduceResponseView.PartitionProduceResponse produce(String topic, String transactionalId, long producerId,
                                                                 short epoch, int sequence, boolean transactional,
                                                                 String... values) throws IOException {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0,
                System.currentTimeMillis()).producer(producerId, epoch, sequence).transactional(transactional);
        for (String value : values) {
            builder.append(System.currentTimeMillis(), null, value.getBytes(StandardCharsets.UTF_8), List.of());
        }
        ByteBuf batch = builder.build();
        try {
            ProduceRequestView produce = new ProduceRequestView().transactionalId(transactionalId).acks((short) -1)
                    .timeoutMs(10_000);
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
