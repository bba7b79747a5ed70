package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.topic.PartitionRules;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView.CreatePartitionsAssignment;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView.CreatePartitionsTopic;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView.CreatePartitionsTopicResult;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.ToIntFunction;

/**
 * CreatePartitions: raises a topic's partition count (never lowers it), with {@code ValidateOnly}; manual
 * assignments may only name this node. Checked by Kafka's rules ({@link PartitionRules}), as a cluster's controller
 * checks them.
 */
public final class CreatePartitionsHandler implements ApiHandler {

    /** Kafka's message for a topic that a CreatePartitions, CreateTopics or DeleteTopics request names twice. */
    public static final String DUPLICATE_TOPIC = "Duplicate topic name.";

    private final TopicRegistry topics;
    private final LocalNode node;
    private final ControllerMutationQuotas mutationQuotas;

    public CreatePartitionsHandler(TopicRegistry topics, LocalNode node, ControllerMutationQuotas mutationQuotas) {
        this.topics = topics;
        this.node = node;
        this.mutationQuotas = mutationQuotas;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        CreatePartitionsRequestView create = new CreatePartitionsRequestView(request.body());
        ControllerMutationQuotas.Quota quota = mutationQuotas.newQuotaFor(context.principal().name(),
                request.header().clientId(), request.version(),
                ControllerMutationQuotas.CREATE_PARTITIONS_STRICT_SINCE);
        CreatePartitionsResponseView response = eachDistinctTopic(create, topics::partitionCount,
                (topic, result) -> add(topic, result, create.validateOnly(), quota));
        return CompletableFuture.completedFuture(response.throttleTimeMs(quota.throttleTimeMs()).struct());
    }

    /**
     * Whether Kafka's controller would be asked to add partitions to any of {@code topics} (the ones a principal may
     * alter, with ACLs): a name asked once. Only then does a request past its deadline time out ({@link PastDeadline}).
     */
    public static boolean leavesAnyToAddTo(List<CreatePartitionsTopic> topics) {
        return leavesAnyToAddTo(topics, duplicated(topics));
    }

    private static boolean leavesAnyToAddTo(List<CreatePartitionsTopic> topics, Set<String> duplicated) {
        return topics.stream().anyMatch(topic -> !duplicated.contains(topic.name()));
    }

    private static Set<String> duplicated(List<CreatePartitionsTopic> topics) {
        return Repeated.keys(topics, CreatePartitionsTopic::name);
    }

    /**
     * Adds the partitions, counted against the controller_mutation_rate where Kafka's controller counts them
     * (ReplicationControlManager.createPartitions: the partitions added, validateOnly too, once the count and the
     * number of replica lists pass, before the lists' brokers are checked).
     */
    private void add(CreatePartitionsTopic topic, CreatePartitionsTopicResult result, boolean validateOnly,
                     ControllerMutationQuotas.Quota quota) {
        TopicRegistry.Outcome outcome = topics.addPartitions(topic.name(), topic.count(), replicaLists(topic),
                node.nodeId(), validateOnly, quota::record);
        result.errorCode(outcome.error().code()).errorMessage(outcome.message());
    }

    /**
     * A CreatePartitions response as Kafka's controller answers: a topic named more than once is answered
     * INVALID_REQUEST once, first, and left alone; if the others add more partitions in all than Kafka allows
     * ({@link PartitionsPerRequest}; {@code currentCount} gives a topic's count, -1 for none) each is answered
     * POLICY_VIOLATION, else {@code add} fills each one's result. A request with a TimeoutMs of 0 or less that leaves
     * any topic to add to is answered {@link PastDeadline} and adds nothing.
     */
    public static CreatePartitionsResponseView eachDistinctTopic(
            CreatePartitionsRequestView request, ToIntFunction<String> currentCount,
            BiConsumer<CreatePartitionsTopic, CreatePartitionsTopicResult> add) {
        CreatePartitionsResponseView response = new CreatePartitionsResponseView();
        Set<String> duplicated = duplicated(request.topics());
        if (leavesAnyToAddTo(request.topics(), duplicated) && PastDeadline.at(request.timeoutMs())) {
            request.topics().forEach(topic -> response.addResult().name(topic.name())
                    .errorCode(PastDeadline.ERROR.code()).errorMessage(null));
            return response;
        }
        duplicated.forEach(name -> response.addResult().name(name).errorCode(Errors.INVALID_REQUEST.code())
                .errorMessage(DUPLICATE_TOPIC));
        List<CreatePartitionsTopic> distinct = request.topics().stream()
                .filter(topic -> !duplicated.contains(topic.name())).toList();
        boolean tooMany = PartitionsPerRequest.tooManyToAdd(distinct, currentCount);
        for (CreatePartitionsTopic topic : distinct) {
            CreatePartitionsTopicResult result = response.addResult().name(topic.name());
            if (tooMany) {
                result.errorCode(Errors.POLICY_VIOLATION.code())
                        .errorMessage(PartitionsPerRequest.TOO_MANY_FOR_CREATE_PARTITIONS);
            } else {
                add.accept(topic, result);
            }
        }
        return response;
    }

    /** A topic's manual assignments as one replica list per new partition, or null when the broker places them. */
    public static List<List<Integer>> replicaLists(CreatePartitionsTopic topic) {
        List<CreatePartitionsAssignment> given = topic.assignments();
        return given == null ? null : given.stream().map(CreatePartitionsAssignment::brokerIds).toList();
    }
}
