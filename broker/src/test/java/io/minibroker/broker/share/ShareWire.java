package io.minibroker.broker.share;

import io.minibroker.broker.network.RawClient;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ShareAcknowledgeRequestView;
import io.minibroker.protocol.message.view.ShareAcknowledgeResponseView;
import io.minibroker.protocol.message.view.ShareFetchRequestView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** One share-group member speaking ShareFetch and ShareAcknowledge v2 by hand over one connection. */
final class ShareWire implements AutoCloseable {

    static final short VERSION = 2;

    private final RawClient client;
    private final String groupId;
    private final String memberId;
    private final UUID topicId;
    private int correlationId;
    int epoch;
    /** The MaxBytes of the member's fetches; a share consumer sends its fetch.max.bytes (50 MiB by default). */
    int maxBytes = 1 << 20;
    /** The ShareAcquireMode of the member's fetches (batch_optimized, a share consumer's default). */
    ShareAcquireMode acquireMode = ShareAcquireMode.BATCH_OPTIMIZED;
    /** The IsRenewAck flag of the member's requests. */
    boolean renewAck;

    ShareWire(int port, String groupId, String memberId, UUID topicId) throws IOException {
        this.client = new RawClient(port);
        this.groupId = groupId;
        this.memberId = memberId;
        this.topicId = topicId;
    }

    /** A ShareFetch of partition 0 at the member's current epoch, carrying {@code acks}; sent, not awaited. */
    void sendFetch(int maxWaitMs, int maxRecords, Acknowledgement... acks) throws IOException {
        sendFetch(maxWaitMs, 1, maxRecords, acks);
    }

    /** As above, waiting for {@code minBytes} of records when parked. */
    void sendFetch(int maxWaitMs, int minBytes, int maxRecords, Acknowledgement... acks) throws IOException {
        ShareFetchRequestView request = new ShareFetchRequestView().groupId(groupId).memberId(memberId)
                .shareSessionEpoch(epoch).maxWaitMs(maxWaitMs).minBytes(minBytes).maxBytes(maxBytes)
                .maxRecords(maxRecords).batchSize(maxRecords).shareAcquireMode(acquireMode.id()).isRenewAck(renewAck);
        ShareFetchRequestView.FetchPartition partition = request.addTopic().topicId(topicId).addPartition()
                .partitionIndex(0);
        for (Acknowledgement ack : acks) {
            partition.addAcknowledgementBatche().firstOffset(ack.firstOffset()).lastOffset(ack.lastOffset())
                    .acknowledgeTypes(ack.types());
        }
        client.send(RawClient.request(ApiKey.SHARE_FETCH, VERSION, ++correlationId, request.struct()));
    }

    ShareFetchResponseView receiveFetch() throws IOException {
        ShareFetchResponseView response = new ShareFetchResponseView(client.receive(ApiKey.SHARE_FETCH, VERSION).body());
        nextEpoch();
        return response;
    }

    /**
     * A ShareFetch naming partition 0 of each of {@code topicIds} (none: the session's partitions only), waiting up
     * to {@code maxWaitMs} for records.
     */
    ShareFetchResponseView fetchOf(int maxWaitMs, List<UUID> topicIds) throws IOException {
        return fetchOf(maxWaitMs, 100, topicIds);
    }

    /** As above, acquiring up to {@code maxRecords} records. */
    ShareFetchResponseView fetchOf(int maxWaitMs, int maxRecords, List<UUID> topicIds) throws IOException {
        ShareFetchRequestView request = new ShareFetchRequestView().groupId(groupId).memberId(memberId)
                .shareSessionEpoch(epoch).maxWaitMs(maxWaitMs).minBytes(1).maxBytes(maxBytes).maxRecords(maxRecords)
                .batchSize(maxRecords).shareAcquireMode(acquireMode.id());
        topicIds.forEach(id -> request.addTopic().topicId(id).addPartition().partitionIndex(0));
        client.send(RawClient.request(ApiKey.SHARE_FETCH, VERSION, ++correlationId, request.struct()));
        return receiveFetch();
    }

    ShareFetchResponseView fetch(int maxRecords, Acknowledgement... acks) throws IOException {
        sendFetch(0, maxRecords, acks);
        return receiveFetch();
    }

    ShareAcknowledgeResponseView acknowledge(Acknowledgement... acks) throws IOException {
        ShareAcknowledgeRequestView request = new ShareAcknowledgeRequestView().groupId(groupId).memberId(memberId)
                .shareSessionEpoch(epoch).isRenewAck(renewAck);
        ShareAcknowledgeRequestView.AcknowledgePartition partition = request.addTopic().topicId(topicId)
                .addPartition().partitionIndex(0);
        for (Acknowledgement ack : acks) {
            partition.addAcknowledgementBatche().firstOffset(ack.firstOffset()).lastOffset(ack.lastOffset())
                    .acknowledgeTypes(ack.types());
        }
        client.send(RawClient.request(ApiKey.SHARE_ACKNOWLEDGE, VERSION, ++correlationId, request.struct()));
        ShareAcknowledgeResponseView response = new ShareAcknowledgeResponseView(
                client.receive(ApiKey.SHARE_ACKNOWLEDGE, VERSION).body());
        nextEpoch();
        return response;
    }

    private void nextEpoch() {
        if (epoch >= 0) {
            epoch++;
        }
    }

    /** The acquired runs of the only partition of a response, as {first, last, deliveryCount}. */
    static List<List<Long>> acquired(ShareFetchResponseView response) {
        List<List<Long>> runs = new ArrayList<>();
        for (ShareFetchResponseView.ShareFetchableTopicResponse topic : response.responses()) {
            for (ShareFetchResponseView.PartitionData partition : topic.partitions()) {
                for (ShareFetchResponseView.AcquiredRecords run : partition.acquiredRecords()) {
                    runs.add(List.of(run.firstOffset(), run.lastOffset(), (long) run.deliveryCount()));
                }
            }
        }
        return runs;
    }

    static Acknowledgement ack(long first, long last, AcknowledgeType type) {
        return new Acknowledgement(first, last, List.of(type.id()));
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
