package io.minibroker.broker.cluster;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.topic.AutoCreatedTopic;
import io.minibroker.broker.topic.RequestingClient;
import io.minibroker.broker.topic.TopicCreation;
import io.minibroker.broker.topic.TopicCreationErrors;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A broker in a cluster has topics created by the controller, as Kafka's DefaultAutoTopicCreationManager does: one
 * CreateTopics request, forwarded, for the topics asked for at once, each with what {@link AutoCreatedTopic} gives
 * it. A Metadata request's unknown topics ({@code auto.create.topics.enable}) go in an Envelope as the client's
 * request, with its principal, address, client id and correlation id, as Kafka's broker wraps them when it has the
 * request's context: the controller authorizes them as the client's and counts them against the client's
 * {@code controller_mutation_rate} (strict: CreateTopics v7), so a client over its quota has its topic refused
 * THROTTLING_QUOTA_EXCEEDED and finds it still unknown until the quota lets the creation through. A streams group's
 * internal topics go the same way as the member's heartbeat, as Kafka's KafkaApis passes its context. The others go on
 * the broker's own account: {@code __consumer_offsets} for a FindCoordinator and the share-group state topic, as
 * Kafka's (no context there). What the controller answers to a client's topics is only
 * logged: a topic it could not create is asked for again by the client's next request. A topic already being created
 * is not asked for again, so a client retrying it adds nothing to the controller's queue. A streams group's internal
 * topic the controller refused, or whose request failed, is kept in {@link TopicCreationErrors} with the controller's
 * message (or the failure's), as Kafka's broker keeps it.
 */
public final class ControllerTopicAutoCreation implements TopicCreation {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerTopicAutoCreation.class);
    private static final short VERSION = ApiKey.CREATE_TOPICS.highestStableVersion();

    private final ControllerForwarder controller;
    private final BrokerConfig config;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final TopicCreationErrors refusals;

    public ControllerTopicAutoCreation(ControllerForwarder controller, BrokerConfig config,
                                       TopicCreationErrors refusals) {
        this.controller = controller;
        this.config = config;
        this.refusals = refusals;
    }

    @Override
    public void create(Collection<String> names) {
        createOnce(names.stream().map(name -> AutoCreatedTopic.of(name, config)).toList(),
                request -> controller.forward(ApiKey.CREATE_TOPICS, VERSION, request), (name, refusal) -> { });
    }

    /** Has a Metadata request's unknown topics created on its client's account. */
    public void createFor(RequestingClient client, Collection<String> names) {
        createOnce(names.stream().map(name -> AutoCreatedTopic.of(name, config)).toList(), asClient(client),
                (name, refusal) -> { });
    }

    @Override
    public void createAsDecided(Collection<AutoCreatedTopic> topics, long errorRetentionMs,
                                RequestingClient client) {
        createOnce(topics.stream().filter(topic -> !refusals.holds(topic.name())).toList(), asClient(client),
                (name, refusal) -> refusals.remember(name, refusal, errorRetentionMs));
    }

    /**
     * Sends a CreateTopics in an Envelope as {@code client}'s, with the client id and correlation id of the request it
     * is made for, as Kafka's KRaftTopicCreator.createTopicWithPrincipal does.
     */
    private Function<Struct, CompletableFuture<Struct>> asClient(RequestingClient client) {
        RequestHeader header = new RequestHeader(ApiKey.CREATE_TOPICS.id(), VERSION, client.header().correlationId(),
                client.clientId());
        return request -> controller.forwardAs(client.context(), new Request(header, ApiKey.CREATE_TOPICS, request));
    }

    @Override
    public Map<String, String> creationErrors(Collection<String> names) {
        return refusals.of(names);
    }

    /**
     * Asks for the topics not already asked for, in one CreateTopics that {@code send} sends; {@code onRefusal} is
     * told each topic the controller did not create (TOPIC_ALREADY_EXISTS too, as Kafka keeps any error) and why, or,
     * if the request failed, each topic asked.
     */
    private void createOnce(Collection<AutoCreatedTopic> topics, Function<Struct, CompletableFuture<Struct>> send,
                            BiConsumer<String, String> onRefusal) {
        List<AutoCreatedTopic> askedTopics = topics.stream().filter(topic -> inFlight.add(topic.name())).toList();
        if (askedTopics.isEmpty()) {
            return;
        }
        List<String> asked = askedTopics.stream().map(AutoCreatedTopic::name).toList();
        CreateTopicsRequestView request = new CreateTopicsRequestView();
        for (AutoCreatedTopic topic : askedTopics) {
            CreateTopicsRequestView.CreatableTopic creatable = request.addTopic().name(topic.name())
                    .numPartitions(topic.partitions()).replicationFactor(topic.replicationFactor());
            for (Map.Entry<String, String> override : topic.configs().entrySet()) {
                creatable.addConfig().name(override.getKey()).value(override.getValue());
            }
        }
        send.apply(request.struct())
                .whenComplete((response, failure) -> {
                    asked.forEach(inFlight::remove);
                    if (failure != null) {
                        LOG.warn("Could not have {} created: {}", asked, failure.getCause());
                        String why = whyFailed(failure);
                        asked.forEach(name -> onRefusal.accept(name, why));
                        return;
                    }
                    for (CreateTopicsResponseView.CreatableTopicResult topic
                            : new CreateTopicsResponseView(response).topics()) {
                        Errors error = Errors.forCode(topic.errorCode());
                        if (error != Errors.NONE) {
                            onRefusal.accept(topic.name(), TopicCreationErrors.messageOf(error,
                                    topic.errorMessage()));
                        }
                        if (error != Errors.NONE && error != Errors.TOPIC_ALREADY_EXISTS) {
                            LOG.warn("Could not have topic {} created: {} {}", topic.name(), error,
                                    topic.errorMessage());
                        } else if (error == Errors.NONE) {
                            LOG.info("Created topic {}", topic.name());
                        }
                    }
                });
    }

    /** The failure's message, or the failure itself when it has none, as Kafka keeps a failed request's. */
    private static String whyFailed(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
}
