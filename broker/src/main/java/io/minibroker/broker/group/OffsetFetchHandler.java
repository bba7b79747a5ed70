package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.OffsetFetchRequestView;
import io.minibroker.protocol.message.view.OffsetFetchRequestView.OffsetFetchRequestGroup;
import io.minibroker.protocol.message.view.OffsetFetchRequestView.OffsetFetchRequestTopic;
import io.minibroker.protocol.message.view.OffsetFetchRequestView.OffsetFetchRequestTopics;
import io.minibroker.protocol.message.view.OffsetFetchResponseView;
import io.minibroker.protocol.message.view.OffsetFetchResponseView.OffsetFetchResponseGroup;
import io.minibroker.protocol.message.view.OffsetFetchResponseView.OffsetFetchResponseTopic;
import io.minibroker.protocol.message.view.OffsetFetchResponseView.OffsetFetchResponseTopics;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * OffsetFetch: the committed offset of each asked partition, -1 (with empty metadata) when there is none; a
 * null topic list (v2+) asks for everything the group committed. v1-7 ask for one group, v8+ for a batch;
 * v10 names topics by id; v7+ may require stable offsets (KIP-447). A group not coordinated here gets
 * NOT_COORDINATOR (COORDINATOR_LOAD_IN_PROGRESS while this broker loads it), which the client answers by finding its
 * coordinator again. Each asked topic is answered as asked, a topic or a partition asked twice twice, in the
 * request's order, as Kafka answers them.
 */
public final class OffsetFetchHandler implements ApiHandler {

    private static final int TOP_LEVEL_ERROR_FROM_VERSION = 2;
    private static final int REQUIRE_STABLE_FROM_VERSION = 7;
    private static final int BATCHED_FROM_VERSION = 8;
    private static final int TOPIC_IDS_FROM_VERSION = 10;
    private static final int MEMBER_EPOCH_FROM_VERSION = 9;

    private final GroupCoordinator coordinator;
    private final TopicRegistry topics;

    public OffsetFetchHandler(GroupCoordinator coordinator, TopicRegistry topics) {
        this.coordinator = coordinator;
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        OffsetFetchRequestView body = new OffsetFetchRequestView(request.body());
        OffsetFetchResponseView response = new OffsetFetchResponseView();
        boolean requireStable = request.version() >= REQUIRE_STABLE_FROM_VERSION && body.requireStable();
        if (request.version() < BATCHED_FROM_VERSION) {
            List<OffsetFetchRequestTopic> asked = body.topics();
            List<Asked> partitions = asked == null ? null
                    : asked.stream().map(topic -> new Asked(topic.name(), topic.partitionIndexes())).toList();
            Errors notHere = coordinator.coordinatorError(body.groupId());
            if (notHere != Errors.NONE) {
                notCoordinated(request.version(), partitions, notHere, response);
                return CompletableFuture.completedFuture(response.struct());
            }
            answers(body.groupId(), partitions, requireStable).forEach(topic -> {
                OffsetFetchResponseTopic topicResponse = response.addTopic().name(topic.name());
                for (Answer answer : topic.answers()) {
                    topicResponse.addPartition().partitionIndex(answer.index()).committedOffset(answer.offset())
                            .committedLeaderEpoch(answer.leaderEpoch()).metadata(answer.metadata())
                            .errorCode(answer.error().code());
                }
            });
            response.errorCode(Errors.NONE.code());
            return CompletableFuture.completedFuture(response.struct());
        }
        boolean byId = request.version() >= TOPIC_IDS_FROM_VERSION;
        for (OffsetFetchRequestGroup group : body.groups()) {
            String groupId = group.groupId();
            OffsetFetchResponseGroup groupResponse = response.addGroup().groupId(groupId)
                    .errorCode(Errors.NONE.code());
            Errors notHere = coordinator.coordinatorError(groupId);
            if (notHere != Errors.NONE) {
                groupResponse.errorCode(notHere.code()); // its topics left empty, as Kafka answers
                continue;
            }
            // KIP-848: a consumer group's member fetches at its member epoch (v9+).
            Errors stale = request.version() >= MEMBER_EPOCH_FROM_VERSION
                    ? coordinator.validateOffsetFetch(groupId, group.memberId(), group.memberEpoch()) : Errors.NONE;
            if (stale != Errors.NONE) {
                groupResponse.errorCode(stale.code());
                continue;
            }
            List<OffsetFetchRequestTopics> asked = group.topics();
            List<Asked> partitions = asked == null ? null
                    : byId ? knownTopicIds(asked, groupResponse)
                    : asked.stream().map(topic -> new Asked(topic.name(), topic.partitionIndexes())).toList();
            answers(groupId, partitions, requireStable).forEach(topic -> {
                OffsetFetchResponseTopics topicResponse = groupResponse.addTopic();
                if (byId) {
                    topicResponse.topicId(topics.known(topic.name()).map(TopicMetadata::id).orElse(new UUID(0, 0)));
                } else {
                    topicResponse.name(topic.name());
                }
                for (Answer answer : topic.answers()) {
                    addPartition(topicResponse, answer);
                }
            });
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    /** One asked topic, by name, with the partitions asked of it. */
    private record Asked(String name, List<Integer> indexes) {
    }

    /** One asked topic's answers, in the order of its asked partitions. */
    private record TopicAnswers(String name, List<Answer> answers) {
    }

    /** One partition's answer, whichever of the response's two shapes (v1-7, or a v8+ group's) it goes into. */
    private record Answer(int index, long offset, int leaderEpoch, String metadata, Errors error) {
        static Answer none(int index, Errors error) {
            return new Answer(index, -1L, -1, "", error);
        }
    }

    /**
     * The answer for a single group (v1-7) coordinated elsewhere or still loading: from v2 the top-level error; v1
     * has none, so each asked partition carries it.
     */
    private static void notCoordinated(short version, List<Asked> asked, Errors error,
                                       OffsetFetchResponseView response) {
        if (version >= TOP_LEVEL_ERROR_FROM_VERSION) {
            response.errorCode(error.code());
            return;
        }
        if (asked != null) {
            asked.forEach(topic -> {
                OffsetFetchResponseTopic topicResponse = response.addTopic().name(topic.name());
                for (int index : topic.indexes()) {
                    topicResponse.addPartition().partitionIndex(index).committedOffset(-1L).metadata("")
                            .errorCode(error.code());
                }
            });
        }
    }

    /** Topic ids resolved to names; an unknown id is answered at once with UNKNOWN_TOPIC_ID. */
    private List<Asked> knownTopicIds(List<OffsetFetchRequestTopics> asked, OffsetFetchResponseGroup groupResponse) {
        List<Asked> partitions = new ArrayList<>();
        for (OffsetFetchRequestTopics topic : asked) {
            UUID id = topic.topicId();
            List<Integer> indexes = topic.partitionIndexes();
            topics.known(id).ifPresentOrElse(known -> partitions.add(new Asked(known.name(), indexes)), () -> {
                OffsetFetchResponseTopics unknown = groupResponse.addTopic().topicId(id);
                for (int index : indexes) {
                    addPartition(unknown, Answer.none(index, Errors.UNKNOWN_TOPIC_ID));
                }
            });
        }
        return partitions;
    }

    private static void addPartition(OffsetFetchResponseTopics topic, Answer answer) {
        topic.addPartition().partitionIndex(answer.index()).committedOffset(answer.offset())
                .committedLeaderEpoch(answer.leaderEpoch()).metadata(answer.metadata())
                .errorCode(answer.error().code());
    }

    /**
     * Each asked topic's partitions answered from the group's commits; {@code asked} null means all committed.
     * With {@code requireStable} (KIP-447, v7+: a read_committed consumer), a partition with an offset pending in
     * an open transaction is answered UNSTABLE_OFFSET_COMMIT without an offset, as Kafka does, so that the
     * consumer retries until the transaction has ended rather than start from an offset about to change.
     */
    private List<TopicAnswers> answers(String groupId, List<Asked> asked, boolean requireStable) {
        Map<TopicPartition, OffsetStore.CommittedOffset> committed = coordinator.offsets().all(groupId);
        List<Asked> wanted = asked;
        if (wanted == null) {
            Map<String, List<Integer>> all = new LinkedHashMap<>();
            for (TopicPartition partition : committed.keySet()) {
                all.computeIfAbsent(partition.topic(), t -> new ArrayList<>()).add(partition.partition());
            }
            wanted = all.entrySet().stream().map(topic -> new Asked(topic.getKey(), topic.getValue())).toList();
        }
        List<TopicAnswers> answers = new ArrayList<>(wanted.size());
        for (Asked topic : wanted) {
            List<Answer> topicAnswers = new ArrayList<>(topic.indexes().size());
            for (int index : topic.indexes()) {
                TopicPartition partition = TopicPartition.isValid(topic.name(), index)
                        ? new TopicPartition(topic.name(), index) : null;
                if (requireStable && partition != null
                        && coordinator.offsets().hasPendingTransactionalOffset(groupId, partition)) {
                    topicAnswers.add(Answer.none(index, Errors.UNSTABLE_OFFSET_COMMIT));
                    continue;
                }
                OffsetStore.CommittedOffset offset = partition != null ? committed.get(partition) : null;
                topicAnswers.add(offset == null ? Answer.none(index, Errors.NONE)
                        : new Answer(index, offset.offset(), offset.leaderEpoch(),
                                offset.metadata() == null ? "" : offset.metadata(), Errors.NONE));
            }
            answers.add(new TopicAnswers(topic.name(), topicAnswers));
        }
        return answers;
    }
}
