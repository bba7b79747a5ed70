package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.topic.PartitionRules;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView.CreatableTopic;
import io.minibroker.protocol.message.view.CreateTopicsRequestView.CreatableTopicConfig;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView.CreatableTopicResult;
import io.minibroker.protocol.schema.Struct;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * CreateTopics, including {@code validateOnly} and manual replica assignments (which on one node may only name
 * this node), checked by Kafka's rules ({@link PartitionRules}). Creation writes and fsyncs a few small files, so the broker runs this handler on its disk-io
 * thread ({@link DiskBoundHandler}), never on an event loop.
 */
public final class CreateTopicsHandler implements ApiHandler {

    /** Kafka's metadata log, which no client may create as a topic. */
    private static final String CLUSTER_METADATA = "__cluster_metadata";

    private final TopicRegistry topics;
    private final LocalNode node;
    private final BrokerConfig brokerConfig;
    private final ControllerMutationQuotas mutationQuotas;

    public CreateTopicsHandler(TopicRegistry topics, LocalNode node, BrokerConfig brokerConfig,
                               ControllerMutationQuotas mutationQuotas) {
        this.topics = topics;
        this.node = node;
        this.brokerConfig = brokerConfig;
        this.mutationQuotas = mutationQuotas;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        CreateTopicsRequestView create = new CreateTopicsRequestView(request.body());
        ControllerMutationQuotas.Quota quota = mutationQuotas.newQuotaFor(context.principal().name(),
                request.header().clientId(), request.version(), ControllerMutationQuotas.CREATE_TOPICS_STRICT_SINCE);
        CreateTopicsResponseView response = eachDistinctTopic(create, brokerConfig.get(BrokerConfig.NUM_PARTITIONS),
                (topic, result) -> create(topic, result, create.validateOnly(), quota));
        return CompletableFuture.completedFuture(response.throttleTimeMs(quota.throttleTimeMs()).struct());
    }

    /**
     * A CreateTopics response as Kafka's controller answers (ControllerApis.createTopics): {@code create} fills the
     * result of each name asked once, in the request's order, whose message stays null unless it fails (Kafka's
     * controller sets null, not the schema's empty default); then a name asked more than once is answered once,
     * INVALID_REQUEST, and {@code __cluster_metadata} INVALID_REQUEST, neither created. If the others ask for more
     * partitions in all than Kafka allows ({@link PartitionsPerRequest}), none is created and each is answered
     * POLICY_VIOLATION. A request with a TimeoutMs of 0 or less that leaves anything to create is answered
     * {@link PastDeadline} and creates nothing.
     */
    public static CreateTopicsResponseView eachDistinctTopic(CreateTopicsRequestView request, int defaultPartitions,
                                                             BiConsumer<CreatableTopic, CreatableTopicResult> create) {
        CreateTopicsResponseView response = new CreateTopicsResponseView();
        Set<String> duplicated = duplicated(request.topics());
        List<CreatableTopic> distinct = toCreate(request.topics(), duplicated);
        if (!distinct.isEmpty() && PastDeadline.at(request.timeoutMs())) {
            request.topics().forEach(topic -> fail(response.addTopic().name(topic.name()),
                    PastDeadline.ERROR, null));
            return response;
        }
        boolean tooMany = PartitionsPerRequest.tooManyToCreate(distinct, defaultPartitions);
        for (CreatableTopic topic : distinct) {
            CreatableTopicResult result = response.addTopic().name(topic.name()).errorMessage(null);
            if (tooMany) {
                fail(result, Errors.POLICY_VIOLATION, PartitionsPerRequest.TOO_MANY_FOR_CREATE_TOPICS);
            } else {
                create.accept(topic, result);
            }
        }
        duplicated.forEach(name -> fail(response.addTopic().name(name), Errors.INVALID_REQUEST,
                CreatePartitionsHandler.DUPLICATE_TOPIC));
        if (!duplicated.contains(CLUSTER_METADATA)
                && request.topics().stream().anyMatch(topic -> topic.name().equals(CLUSTER_METADATA))) {
            fail(response.addTopic().name(CLUSTER_METADATA), Errors.INVALID_REQUEST,
                    "Creation of internal topic " + CLUSTER_METADATA + " is prohibited.");
        }
        return response;
    }

    /**
     * Whether Kafka's controller would be asked to create any of {@code topics} (the ones a principal may create,
     * with ACLs): a name asked once, other than {@code __cluster_metadata}. Only then does a request past its
     * deadline time out ({@link PastDeadline}); otherwise it is answered its checks at once.
     */
    public static boolean leavesAnyToCreate(List<CreatableTopic> topics) {
        return !toCreate(topics, duplicated(topics)).isEmpty();
    }

    private static Set<String> duplicated(List<CreatableTopic> topics) {
        return Repeated.keys(topics, CreatableTopic::name);
    }

    private static List<CreatableTopic> toCreate(List<CreatableTopic> topics, Set<String> duplicated) {
        return topics.stream().filter(topic -> !duplicated.contains(topic.name())
                && !topic.name().equals(CLUSTER_METADATA)).toList();
    }

    /**
     * Creates the topic; under a controller_mutation_rate, once its checks pass and its partitions are within the
     * quota, as Kafka's controller counts them (ReplicationControlManager.createTopic: after every check, validateOnly
     * too).
     */
    private void create(CreatableTopic topic, CreatableTopicResult result, boolean validateOnly,
                        ControllerMutationQuotas.Quota quota) {
        PartitionRules.NewTopic wanted = newTopic(topic, brokerConfig);
        TopicRegistry.Outcome outcome = topics.create(topic.name(), wanted, overrides(topic),
                validateOnly || quota.bounded());
        if (quota.bounded() && outcome.error() == Errors.NONE) {
            if (!quota.record(outcome.topic().partitions())) {
                fail(result, Errors.THROTTLING_QUOTA_EXCEEDED, null);
                return;
            }
            if (!validateOnly) {
                outcome = topics.create(topic.name(), wanted, overrides(topic), false);
            }
        }
        if (outcome.error() != Errors.NONE) {
            fail(result, outcome.error(), outcome.message());
            return;
        }
        if (!quota.bounded()) {
            quota.record(outcome.topic().partitions()); // no limit to check: only the client's mutation-rate, if recorded
        }
        result.topicId(outcome.topic().id())
                .numPartitions(outcome.topic().partitions())
                .replicationFactor((short) 1);
        listConfigs(result, brokerConfig, outcome.topic().configOverrides());
    }

    /** A topic's counts and manual assignments as asked, with the broker's defaults for a -1. */
    public static PartitionRules.NewTopic newTopic(CreatableTopic topic, BrokerConfig brokerConfig) {
        return new PartitionRules.NewTopic(topic.numPartitions(), topic.replicationFactor(),
                topic.assignments().stream().map(a -> new PartitionRules.ManualAssignment(a.partitionIndex(),
                        a.brokerIds())).toList(),
                brokerConfig.get(BrokerConfig.NUM_PARTITIONS), brokerConfig.get(BrokerConfig.DEFAULT_REPLICATION_FACTOR));
    }

    /** A topic's config overrides as asked. */
    public static Map<String, String> overrides(CreatableTopic topic) {
        Map<String, String> overrides = new LinkedHashMap<>();
        for (CreatableTopicConfig config : topic.configs()) {
            overrides.put(config.name(), config.value());
        }
        return overrides;
    }

    /**
     * Lists a created topic's configs in its result (v5+), as Kafka's KafkaConfigSchema.resolveEffectiveTopicConfigs
     * does, by name: each with its value and where it comes from — the topic's own override, else the first broker
     * synonym set in the broker's file (this broker has no dynamic broker configs), else the default.
     */
    public static void listConfigs(CreatableTopicResult result, BrokerConfig brokerConfig, Map<String, String> overrides) {
        new TreeMap<>(TopicConfig.effective(brokerConfig, overrides)).forEach((key, value) -> result.addConfig()
                .name(key)
                .value(value)
                .readOnly(false)
                .configSource(source(key, overrides, brokerConfig))
                .isSensitive(false));
    }

    private static byte source(String key, Map<String, String> overrides, BrokerConfig brokerConfig) {
        if (overrides.containsKey(key)) {
            return ConfigResources.DYNAMIC_TOPIC_CONFIG;
        }
        boolean setInFile = TopicConfig.brokerSynonyms(key).stream()
                .anyMatch(synonym -> synonym.key() != null && brokerConfig.isSet(synonym.key()));
        return setInFile ? ConfigResources.STATIC_BROKER_CONFIG : ConfigResources.DEFAULT_CONFIG;
    }

    public static void fail(CreatableTopicResult result, Errors error, String message) {
        result.errorCode(error.code()).errorMessage(message);
    }
}
