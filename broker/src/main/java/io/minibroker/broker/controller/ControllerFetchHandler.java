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
import io.netty.buffer.Unpooled;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Fetch, on the controller's listener: how a broker follows the controller's image, as Kafka's brokers follow the
 * metadata log with a Fetch of {@code __cluster_metadata}. The fetch offset is the image version the broker has
 * applied, which the controller notes ({@link ImageVersion#appliedBy}) for the CreateTopics waiting on it; the
 * request parks ({@link ImageVersion#awaitChange}) until the version moves on or MaxWaitMs runs out, and the
 * answer's high watermark is the version then. A broker that sees a version other than its own fetches the whole
 * image on its other connection: the topics with Metadata and DescribeConfigs, and the ACLs and SCRAM credentials
 * with a Fetch that asks for records (a partition max bytes above 0) and waits for nothing, answered with them as
 * metadata records ({@link SecurityRecords}) whenever the version is not the one the fetch names. Runs on the event
 * loop: it reads only the version and the immutable snapshots of the ACLs and credentials, never the topics' lock.
 */
public final class ControllerFetchHandler implements ApiHandler {

    private final ImageVersion version;
    private final Supplier<SecurityRecords.Snapshot> security;

    /** @param security the cluster's ACLs and SCRAM credentials as they are now */
    public ControllerFetchHandler(ImageVersion version, Supplier<SecurityRecords.Snapshot> security) {
        this.version = version;
        this.security = security;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        FetchRequestView fetch = new FetchRequestView(request.body());
        FetchResponseView response = new FetchResponseView().errorCode(Errors.NONE.code());
        FetchRequestView.FetchPartition asked = metadataPartition(fetch);
        if (asked == null) {
            return CompletableFuture.completedFuture(response.errorCode(Errors.INVALID_REQUEST.code()).struct());
        }
        int broker = fetch.replicaState().replicaId() >= 0 ? fetch.replicaState().replicaId() : fetch.replicaId();
        if (broker >= 0) {
            version.appliedBy(broker, asked.fetchOffset());
        }
        return version.awaitChange(asked.fetchOffset(), fetch.maxWaitMs()).thenApply(current -> {
            FetchResponseView.FetchableTopicResponse topic = response.addResponse()
                    .topic(MetadataFetcher.METADATA_TOPIC).topicId(TopicIds.METADATA_TOPIC_ID);
            topic.addPartition().partitionIndex(0).errorCode(Errors.NONE.code()).highWatermark(current)
                    .lastStableOffset(current).logStartOffset(0)
                    .records(current != asked.fetchOffset() && asked.partitionMaxBytes() > 0
                            ? SecurityRecords.encode(security.get()) : Unpooled.EMPTY_BUFFER);
            return response.struct();
        });
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
