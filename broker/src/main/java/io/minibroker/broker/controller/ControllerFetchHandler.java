package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.cluster.MetadataFetcher;
import io.minibroker.broker.cluster.SecurityRecords;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Fetch, on the controller's listener: how a broker follows the controller's image, as Kafka's brokers follow the
 * metadata log with a Fetch of {@code __cluster_metadata}. The fetch offset is the image version the broker has
 * applied, which the controller notes ({@link ImageVersion#appliedBy}) for the CreateTopics waiting on it; the
 * request parks ({@link ImageVersion#awaitChange}) until the version moves on or MaxWaitMs runs out, and the
 * answer's high watermark is the version then. A broker that sees a version other than its own fetches the whole
 * image on its other connection: the topics with Metadata and DescribeConfigs, and the ACLs, SCRAM credentials and
 * group configs with a Fetch that asks for records (a partition max bytes above 0), answered at once with them as
 * metadata records ({@link SecurityRecords}).
 *
 * <p>Most image changes (a topic, an ISR, a broker's fencing) leave the ACLs and credentials as they were, so the
 * fetch that asks for them counts them by a digest of their records instead of by image version: its fetch offset
 * is the digest of what the broker holds, the answer's high watermark the digest of what the controller holds, and
 * records come only when the two differ. A digest, not a counter, because it means the same in every life of the
 * controller (whose image versions start afresh). The records are encoded and digested once per change of the ACLs
 * or credentials, not per fetch.
 *
 * <p>Runs on the event loop: it reads only the version and the immutable snapshots of the ACLs and credentials,
 * never the topics' lock.
 */
public final class ControllerFetchHandler implements ApiHandler {

    private final ImageVersion version;
    private final Supplier<SecurityRecords.Snapshot> security;
    private final MetadataFollowers followers;
    /** The records of the last snapshot answered, kept until the ACLs or credentials change. */
    private volatile EncodedSecurity encoded;

    /**
     * @param security the cluster's ACLs and SCRAM credentials as they are now: collections replaced, never
     *                 changed in place, on each change (a supplier handing out new but equal ones only costs an
     *                 encoding per fetch)
     */
    public ControllerFetchHandler(ImageVersion version, Supplier<SecurityRecords.Snapshot> security,
                                  MetadataFollowers followers) {
        this.version = version;
        this.security = security;
        this.followers = followers;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        FetchRequestView fetch = new FetchRequestView(request.body());
        FetchResponseView response = new FetchResponseView().errorCode(Errors.NONE.code());
        FetchRequestView.FetchPartition asked = metadataPartition(fetch);
        if (asked == null) {
            return CompletableFuture.completedFuture(response.errorCode(Errors.INVALID_REQUEST.code()).struct());
        }
        if (asked.partitionMaxBytes() > 0) {
            EncodedSecurity now = encodedSecurity();
            metadataPartition(response).highWatermark(now.digest()).lastStableOffset(now.digest())
                    .records(now.digest() == asked.fetchOffset() ? Unpooled.EMPTY_BUFFER : now.records());
            return CompletableFuture.completedFuture(response.struct());
        }
        int broker = fetch.replicaState().replicaId() >= 0 ? fetch.replicaState().replicaId() : fetch.replicaId();
        if (broker >= 0) {
            version.appliedBy(broker, asked.fetchOffset());
            followers.fetched(broker, asked.replicaDirectoryId(), asked.fetchOffset(), version.current());
        }
        return version.awaitChange(asked.fetchOffset(), fetch.maxWaitMs()).thenApply(current -> {
            metadataPartition(response).highWatermark(current).lastStableOffset(current)
                    .records(Unpooled.EMPTY_BUFFER);
            return response.struct();
        });
    }

    private static FetchResponseView.PartitionData metadataPartition(FetchResponseView response) {
        return response.addResponse().topic(MetadataFetcher.METADATA_TOPIC).topicId(TopicIds.METADATA_TOPIC_ID)
                .addPartition().partitionIndex(0).errorCode(Errors.NONE.code()).logStartOffset(0);
    }

    /** The current snapshot's records, encoded again only when any of the maps it holds was replaced. */
    private EncodedSecurity encodedSecurity() {
        SecurityRecords.Snapshot now = security.get();
        EncodedSecurity last = encoded;
        if (last == null || !sameParts(last.snapshot(), now)) {
            last = EncodedSecurity.of(now); // two event loops may both encode one change: the same bytes
            encoded = last;
        }
        return last;
    }

    /**
     * Whether two snapshots hold the very same parts: each part is an immutable value its keeper replaces whole on a
     * change, so the same instances mean the same records.
     */
    private static boolean sameParts(SecurityRecords.Snapshot last, SecurityRecords.Snapshot now) {
        return last.acls() == now.acls() && last.credentials() == now.credentials()
                && last.groupConfigs() == now.groupConfigs() && last.brokerConfigs() == now.brokerConfigs()
                && last.clientQuotas() == now.clientQuotas() && last.features() == now.features()
                && last.clientMetrics() == now.clientMetrics() && last.delegationTokens() == now.delegationTokens();
    }

    /**
     * A snapshot, its records, and their digest: 63 bits of SHA-256, never the -1 of a broker that holds nothing.
     */
    private record EncodedSecurity(SecurityRecords.Snapshot snapshot, byte[] bytes, long digest) {

        static EncodedSecurity of(SecurityRecords.Snapshot snapshot) {
            ByteBuf records = SecurityRecords.encode(snapshot);
            byte[] bytes = ByteBufUtil.getBytes(records);
            records.release();
            try {
                long digest = ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(bytes)).getLong();
                return new EncodedSecurity(snapshot, bytes, digest & Long.MAX_VALUE);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every JVM has SHA-256", e);
            }
        }

        /** A buffer of the response's own, which may release it. */
        ByteBuf records() {
            return bytes.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes);
        }
    }

    /** The request's only partition if it is partition 0 of {@code __cluster_metadata} (by id or name), else null. */
    private static FetchRequestView.FetchPartition metadataPartition(FetchRequestView fetch) {
        if (fetch.topics().size() != 1) {
            return null;
        }
        FetchRequestView.FetchTopic topic = fetch.topics().get(0);
        boolean metadataTopic = TopicIds.METADATA_TOPIC_ID.equals(topic.topicId())
                || MetadataFetcher.METADATA_TOPIC.equals(topic.topic());
        if (!metadataTopic || topic.partitions().size() != 1 || topic.partitions().get(0).partition() != 0) {
            return null;
        }
        return topic.partitions().get(0);
    }
}
