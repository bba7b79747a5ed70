package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.cluster.MetadataFetcher;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Fetch, on the controller's listener: how a broker follows the controller's image, as Kafka's brokers follow the
 * metadata log with a Fetch of {@code __cluster_metadata}. The fetch offset is the image version the broker has
 * applied, which the controller notes ({@link ImageVersion#appliedBy}) for the CreateTopics waiting on it; the
 * request parks ({@link ImageVersion#awaitChange}) until the version moves on or MaxWaitMs runs out, and the
 * answer's high watermark is the version then. It carries no records: a broker that sees a version other than its
 * own fetches the whole image (Metadata, then DescribeConfigs) on its other connection. Runs on the event loop: it
 * only reads the version, never the topics' lock.
 */
public final class ControllerFetchHandler implements ApiHandler {

    private final ImageVersion version;

    public ControllerFetchHandler(ImageVersion version) {
        this.version = version;
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
                    .lastStableOffset(current).logStartOffset(0).records(Unpooled.EMPTY_BUFFER);
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
