package io.minibroker.broker.cluster;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.topic.AutoCreatedTopic;
import io.minibroker.broker.topic.TopicCreation;
import io.minibroker.broker.topic.TopicCreationErrors;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * A broker in a cluster has topics created on its own account by the controller, as Kafka's
 * DefaultAutoTopicCreationManager does: one CreateTopics request, forwarded, for the topics asked for at once (a
 * Metadata request's unknown topics with {@code auto.create.topics.enable}, or {@code __consumer_offsets} for a
 * FindCoordinator), each with what {@link AutoCreatedTopic} gives it. What the controller answers is only logged:
 * a topic it could not create (too few registered brokers for the replication factor) is asked for again by the client's
 * next request. A topic already being created is not asked for again, so a client retrying it adds nothing to the
 * controller's queue. A streams group's internal topic the controller refused, or whose request failed, is kept in
 * {@link TopicCreationErrors} with the controller's message (or the failure's), as Kafka's broker keeps it.
 */
public final class ControllerTopicAutoCreation implements TopicCreation {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerTopicAutoCreation.class);

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
        ask(names.stream().map(name -> AutoCreatedTopic.of(name, config)).toList(), (name, refusal) -> { });
    }

    @Override
    public void createAsDecided(Collection<AutoCreatedTopic> topics, long errorRetentionMs) {
        ask(topics.stream().filter(topic -> !refusals.holds(topic.name())).toList(),
                (name, refusal) -> refusals.remember(name, refusal, errorRetentionMs));
    }

    @Override
    public Map<String, String> creationErrors(Collection<String> names) {
        return refusals.of(names);
    }

    /**
     * Asks the controller for the topics not already asked for; {@code onRefusal} is told each topic it did not create
     * (TOPIC_ALREADY_EXISTS too, as Kafka keeps any error) and why, or, if the request failed, each topic asked.
     */
    private void ask(Collection<AutoCreatedTopic> topics, BiConsumer<String, String> onRefusal) {
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
        controller.forward(ApiKey.CREATE_TOPICS, ApiKey.CREATE_TOPICS.highestStableVersion(), request.struct())
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
