package io.minibroker.broker.control;

import io.minibroker.broker.api.CloseConnection;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.ListOffsetsRequestView;
import io.minibroker.protocol.message.view.ListOffsetsResponseView;
import io.minibroker.protocol.message.view.OffsetCommitRequestView;
import io.minibroker.protocol.message.view.OffsetCommitResponseView;
import io.minibroker.protocol.message.view.ProduceRequestView;
import io.minibroker.protocol.message.view.ProduceResponseView;
import io.minibroker.protocol.schema.ErrorCodes;
import io.minibroker.protocol.schema.Struct;

import java.util.EnumSet;
import java.util.Set;

/**
 * An injected error in the shape of the API's response, as Kafka's {@code AbstractRequest.getErrorResponse} makes
 * one: for the APIs answered per partition, every partition the request names gets the error; for the others the
 * response's top-level error code does, every other field at its default. An error served afterwards overwrites
 * every error code of the real response. An API with neither shape can take only the after-serving form.
 */
final class ErrorAnswers {

    private static final Set<ApiKey> PER_PARTITION = EnumSet.of(ApiKey.PRODUCE, ApiKey.FETCH, ApiKey.LIST_OFFSETS,
            ApiKey.OFFSET_COMMIT);
    /** Fetch errors about the fetch session itself, which Kafka answers at the top level. */
    private static final Set<Errors> FETCH_SESSION_ERRORS = EnumSet.of(Errors.FETCH_SESSION_ID_NOT_FOUND,
            Errors.INVALID_FETCH_SESSION_EPOCH, Errors.FETCH_SESSION_TOPIC_ID_ERROR);

    private ErrorAnswers() {
    }

    /** Whether an error can be answered instead of serving this API: it has a shape to carry one. */
    static boolean canAnswerInstead(ApiKey api) {
        if (PER_PARTITION.contains(api)) {
            return true;
        }
        // The latest version's top-level code: a fresh message's arrays are empty, so only that one is counted.
        return ErrorCodes.overwrite(api.response().newMessage(), api.highestVersion(), Errors.NONE.code()) > 0;
    }

    /** The response to {@code request} carrying {@code error} instead of its service. */
    static Struct instead(Request request, Errors error) {
        short code = error.code();
        return switch (request.api()) {
            case PRODUCE -> produce(new ProduceRequestView(request.body()), code);
            case FETCH -> fetch(new FetchRequestView(request.body()), error);
            case LIST_OFFSETS -> listOffsets(new ListOffsetsRequestView(request.body()), code);
            case OFFSET_COMMIT -> offsetCommit(new OffsetCommitRequestView(request.body()), code);
            default -> ErrorCodes.topLevelAnswer(request.api().response(), request.version(), code);
        };
    }

    /** The served {@code body} with every error code it carries set to {@code error}. */
    static Struct after(Request request, Struct body, Errors error) {
        if (body != null) {
            ErrorCodes.overwrite(body, request.version(), error.code());
        }
        return body;
    }

    private static Struct produce(ProduceRequestView request, short code) {
        if (request.acks() == 0) { // no answer to carry it: Kafka closes the connection on a failed acks=0 produce
            throw new CloseConnection("injected error " + Errors.forCode(code) + " on an acks=0 produce");
        }
        ProduceResponseView response = new ProduceResponseView();
        for (ProduceRequestView.TopicProduceData topic : request.topicData()) {
            ProduceResponseView.TopicProduceResponse answered = response.addResponse()
                    .name(topic.name()).topicId(topic.topicId());
            for (ProduceRequestView.PartitionProduceData partition : topic.partitionData()) {
                answered.addPartitionResponse().index(partition.index()).errorCode(code);
            }
        }
        return response.struct();
    }

    private static Struct fetch(FetchRequestView request, Errors error) {
        FetchResponseView response = new FetchResponseView().sessionId(request.sessionId());
        if (FETCH_SESSION_ERRORS.contains(error)) {
            return response.errorCode(error.code()).sessionId(0).struct();
        }
        for (FetchRequestView.FetchTopic topic : request.topics()) {
            FetchResponseView.FetchableTopicResponse answered = response.addResponse()
                    .topic(topic.topic()).topicId(topic.topicId());
            for (FetchRequestView.FetchPartition partition : topic.partitions()) {
                answered.addPartition().partitionIndex(partition.partition()).errorCode(error.code());
            }
        }
        return response.struct();
    }

    private static Struct listOffsets(ListOffsetsRequestView request, short code) {
        ListOffsetsResponseView response = new ListOffsetsResponseView();
        for (ListOffsetsRequestView.ListOffsetsTopic topic : request.topics()) {
            ListOffsetsResponseView.ListOffsetsTopicResponse answered = response.addTopic().name(topic.name());
            for (ListOffsetsRequestView.ListOffsetsPartition partition : topic.partitions()) {
                answered.addPartition().partitionIndex(partition.partitionIndex()).errorCode(code);
            }
        }
        return response.struct();
    }

    private static Struct offsetCommit(OffsetCommitRequestView request, short code) {
        OffsetCommitResponseView response = new OffsetCommitResponseView();
        for (OffsetCommitRequestView.OffsetCommitRequestTopic topic : request.topics()) {
            OffsetCommitResponseView.OffsetCommitResponseTopic answered = response.addTopic()
                    .name(topic.name()).topicId(topic.topicId());
            for (OffsetCommitRequestView.OffsetCommitRequestPartition partition : topic.partitions()) {
                answered.addPartition().partitionIndex(partition.partitionIndex()).errorCode(code);
            }
        }
        return response.struct();
    }
}
