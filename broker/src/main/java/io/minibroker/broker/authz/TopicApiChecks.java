package io.minibroker.broker.authz;

import io.minibroker.broker.api.CloseConnection;
import io.minibroker.broker.metadata.MetadataHandler;
import io.minibroker.broker.produce.TransactionalRecords;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DeleteRecordsRequestView;
import io.minibroker.protocol.message.view.DeleteRecordsResponseView;
import io.minibroker.protocol.message.view.DescribeProducersRequestView;
import io.minibroker.protocol.message.view.DescribeProducersResponseView;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.ListOffsetsRequestView;
import io.minibroker.protocol.message.view.ListOffsetsResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.message.view.OffsetForLeaderEpochRequestView;
import io.minibroker.protocol.message.view.OffsetForLeaderEpochResponseView;
import io.minibroker.protocol.message.view.ProduceRequestView;
import io.minibroker.protocol.message.view.ProduceResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The checks of the APIs that read or write a topic's partitions, as Kafka's KafkaApis makes them: Produce (WRITE on
 * each topic, WRITE on the transactional id), Fetch (READ on each topic; a follower's fetch CLUSTER_ACTION),
 * ListOffsets (DESCRIBE), OffsetForLeaderEpoch (DESCRIBE; a follower CLUSTER_ACTION), DeleteRecords (DELETE),
 * DescribeProducers (READ) and Metadata (DESCRIBE, auto-creation CREATE). A refused topic is taken out of the request
 * before it is served, so its existence is never looked at, and is answered TOPIC_AUTHORIZATION_FAILED per partition.
 */
final class TopicApiChecks {

    private static final short PRODUCE_TOPIC_IDS_FROM_VERSION = 13;
    private static final short FETCH_TOPIC_IDS_FROM_VERSION = 13;
    private static final short FETCH_REPLICA_STATE_FROM_VERSION = 15;

    private final TopicFacts topics;

    TopicApiChecks(TopicFacts topics) {
        this.topics = topics;
    }

    CompletionStage<Struct> produce(Access access) {
        Request request = access.request();
        ProduceRequestView body = new ProduceRequestView(request.body());
        boolean byId = request.version() >= PRODUCE_TOPIC_IDS_FROM_VERSION;
        String transactionalId = body.transactionalId();
        // As Kafka, only transactional batches need WRITE on the id (without an id they are refused).
        boolean transactionAllowed = !TransactionalRecords.in(body) || (transactionalId != null
                && access.allowed(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId));
        Function<ProduceRequestView.TopicProduceData, Errors> refusal = topic -> !transactionAllowed
                ? Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
                : access.topicRefusal(AclOperation.WRITE,
                byId ? topics.nameOf(topic.topicId()).orElse(null) : topic.name());
        if (body.acks() == 0) {
            return produceWithoutAnswer(access, body, refusal);
        }
        return access.serveAllowed(body.topicData(), refusal, body::topicData, (answer, refused) -> {
            ProduceResponseView.TopicProduceResponse topic = new ProduceResponseView(answer).addResponse();
            if (byId) {
                topic.topicId(refused.item().topicId());
            } else {
                topic.name(refused.item().name());
            }
            refused.item().partitionData().forEach(p -> topic.addPartitionResponse().index(p.index())
                    .errorCode(refused.error().code()).baseOffset(-1L));
        });
    }

    /**
     * An acks=0 produce has no answer to carry a refusal: as Kafka, the allowed topics are appended and then the
     * connection is closed, which is how the client learns of it.
     */
    private static CompletionStage<Struct> produceWithoutAnswer(
            Access access, ProduceRequestView body,
            Function<ProduceRequestView.TopicProduceData, Errors> refusal) {
        List<ProduceRequestView.TopicProduceData> kept = body.topicData().stream().filter(t -> refusal.apply(t) == null)
                .toList();
        if (kept.size() == body.topicData().size()) {
            return access.serve();
        }
        if (kept.isEmpty()) {
            throw new CloseConnection("produce refused by the authorizer");
        }
        body.topicData(new ArrayList<>(kept));
        return access.serve().thenApply(answer -> {
            throw new CloseConnection("produce refused by the authorizer");
        });
    }

    /** A follower's fetch needs CLUSTER_ACTION; a consumer's READ on each topic. */
    CompletionStage<Struct> fetch(Access access) {
        Request request = access.request();
        FetchRequestView body = new FetchRequestView(request.body());
        boolean byId = request.version() >= FETCH_TOPIC_IDS_FROM_VERSION;
        int replicaId = request.version() >= FETCH_REPLICA_STATE_FROM_VERSION ? body.replicaState().replicaId()
                : body.replicaId();
        boolean follower = replicaId >= 0;
        boolean replicaAllowed = !follower || access.allowedOnCluster(AclOperation.CLUSTER_ACTION);
        return access.serveAllowed(body.topics(), topic -> follower
                        ? (replicaAllowed ? null : Errors.TOPIC_AUTHORIZATION_FAILED)
                        : access.topicRefusal(AclOperation.READ,
                        byId ? topics.nameOf(topic.topicId()).orElse(null) : topic.topic()), body::topics,
                (answer, refused) -> {
                    FetchResponseView.FetchableTopicResponse topic = new FetchResponseView(answer).addResponse();
                    if (byId) {
                        topic.topicId(refused.item().topicId());
                    } else {
                        topic.topic(refused.item().topic());
                    }
                    refused.item().partitions().forEach(p -> topic.addPartition().partitionIndex(p.partition())
                            .errorCode(refused.error().code()).highWatermark(-1L).lastStableOffset(-1L)
                            .logStartOffset(-1L).records(Unpooled.EMPTY_BUFFER));
                });
    }

    CompletionStage<Struct> listOffsets(Access access) {
        ListOffsetsRequestView body = new ListOffsetsRequestView(access.request().body());
        return access.serveAllowed(body.topics(), topic -> access.topicRefusal(AclOperation.DESCRIBE, topic.name()),
                body::topics, (answer, refused) -> {
                    ListOffsetsResponseView.ListOffsetsTopicResponse topic = new ListOffsetsResponseView(answer)
                            .addTopic().name(refused.item().name());
                    refused.item().partitions().forEach(p -> topic.addPartition().partitionIndex(p.partitionIndex())
                            .errorCode(refused.error().code()).timestamp(-1L).offset(-1L).leaderEpoch(-1));
                });
    }

    /** A follower (replica id 0 or more, sent from v3) needs CLUSTER_ACTION, anyone else DESCRIBE on each topic. */
    CompletionStage<Struct> offsetForLeaderEpoch(Access access) {
        Request request = access.request();
        OffsetForLeaderEpochRequestView body = new OffsetForLeaderEpochRequestView(request.body());
        boolean clusterAction = access.allowedOnCluster(AclOperation.CLUSTER_ACTION);
        return access.serveAllowed(body.topics(), topic -> clusterAction ? null
                        : access.topicRefusal(AclOperation.DESCRIBE, topic.topic()), body::topics,
                (answer, refused) -> {
                    OffsetForLeaderEpochResponseView.OffsetForLeaderTopicResult topic =
                            new OffsetForLeaderEpochResponseView(answer).addTopic().topic(refused.item().topic());
                    refused.item().partitions().forEach(p -> topic.addPartition().partition(p.partition())
                            .errorCode(refused.error().code()).leaderEpoch(-1).endOffset(-1L));
                });
    }

    CompletionStage<Struct> deleteRecords(Access access) {
        DeleteRecordsRequestView body = new DeleteRecordsRequestView(access.request().body());
        return access.serveAllowed(body.topics(), topic -> access.topicRefusal(AclOperation.DELETE, topic.name()),
                body::topics, (answer, refused) -> {
                    DeleteRecordsResponseView.DeleteRecordsTopicResult topic = new DeleteRecordsResponseView(answer)
                            .addTopic().name(refused.item().name());
                    refused.item().partitions().forEach(p -> topic.addPartition().partitionIndex(p.partitionIndex())
                            .errorCode(refused.error().code()).lowWatermark(-1L));
                });
    }

    CompletionStage<Struct> describeProducers(Access access) {
        DescribeProducersRequestView body = new DescribeProducersRequestView(access.request().body());
        return access.serveAllowed(body.topics(), topic -> access.topicRefusal(AclOperation.READ, topic.name()),
                body::topics, (answer, refused) -> {
                    DescribeProducersResponseView.TopicResponse topic = new DescribeProducersResponseView(answer)
                            .addTopic().name(refused.item().name());
                    refused.item().partitionIndexes().forEach(p -> topic.addPartition().partitionIndex(p)
                            .errorCode(refused.error().code()).errorMessage(Access.message(refused.error())));
                });
    }

    /**
     * Metadata answers only topics the principal may DESCRIBE: an all-topics request hides the others, a named one
     * is answered TOPIC_AUTHORIZATION_FAILED for them without looking them up. A named topic that does not exist is
     * auto-created only with CREATE on the cluster or the topic, else answered TOPIC_AUTHORIZATION_FAILED.
     */
    CompletionStage<Struct> metadata(Access access) {
        return metadataServed(access).thenApply(answer -> {
            access.fillAuthorizedOperations(answer);
            return answer;
        });
    }

    /**
     * DescribeTopicPartitions: the handler leaves out, or refuses, the topics the principal may not describe, as
     * Kafka's handler does while it pages through them; every topic answered gets its authorized operations.
     */
    static CompletionStage<Struct> describeTopicPartitions(Access access) {
        return access.serveWithTopicRights().thenApply(answer -> {
            access.fillAuthorizedOperations(answer);
            return answer;
        });
    }

    private CompletionStage<Struct> metadataServed(Access access) {
        MetadataRequestView body = new MetadataRequestView(access.request().body());
        if (MetadataHandler.asksForAllTopics(access.request().version(), body.topics())) {
            return access.serveFiltered(answer -> {
                MetadataResponseView response = new MetadataResponseView(answer);
                response.topics(response.topics().stream().filter(t -> t.name() == null
                        || access.allowed(AclOperation.DESCRIBE, ResourceType.TOPIC, t.name())).toList());
            });
        }
        boolean autoCreate = body.allowAutoTopicCreation() && topics.autoCreate();
        boolean clusterCreate = autoCreate && access.allowedOnCluster(AclOperation.CREATE);
        return access.serveAllowed(body.topics(), topic -> {
            String name = topic.name();
            // Named by id (the name null or empty, as a KIP-848 consumer sends it): the id is not secret, the
            // refusal names it (Kafka's answer too).
            if (MetadataHandler.byId(topic)) {
                return access.topicRefusal(AclOperation.DESCRIBE, topics.nameOf(topic.topicId()).orElse(null));
            }
            Errors refused = access.topicRefusal(AclOperation.DESCRIBE, name);
            if (refused == null && autoCreate && !clusterCreate && !topics.exists(name)
                    && !access.allowed(AclOperation.CREATE, ResourceType.TOPIC, name)) {
                refused = Errors.TOPIC_AUTHORIZATION_FAILED;
            }
            return refused;
        }, body::topics, (answer, refused) -> new MetadataResponseView(answer).addTopic()
                .name(refused.item().name()).topicId(refused.item().topicId()).errorCode(refused.error().code())
                .partitions(new ArrayList<>()), true);
    }

    /** The refused topics of a request, for the checks that refuse a whole request when any topic is refused. */
    static List<String> refusedTopics(Access access, AclOperation operation, List<String> names) {
        return names.stream().filter(n -> !access.allowed(operation, ResourceType.TOPIC, n)).toList();
    }
}
