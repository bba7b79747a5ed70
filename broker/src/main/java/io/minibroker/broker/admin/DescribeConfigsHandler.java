package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.clientmetrics.ClientMetricsSubscriptions;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.BrokerConfigOverrides;
import io.minibroker.broker.config.ConfigKey;
import io.minibroker.broker.config.ConfigType;
import io.minibroker.broker.config.DynamicBrokerConfig;
import io.minibroker.broker.config.KafkaBrokerKeys;
import io.minibroker.broker.config.KafkaConfigTypes;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeConfigsRequestView;
import io.minibroker.protocol.message.view.DescribeConfigsRequestView.DescribeConfigsResource;
import io.minibroker.protocol.message.view.DescribeConfigsResponseView;
import io.minibroker.protocol.message.view.DescribeConfigsResponseView.DescribeConfigsResourceResult;
import io.minibroker.protocol.message.view.DescribeConfigsResponseView.DescribeConfigsResult;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * DescribeConfigs for topics (each topic config with its effective value), for this broker (resource name = node
 * id: Kafka's keys and every key set, read-only unless Kafka's DynamicBrokerConfig lets it change), for the
 * cluster's dynamic defaults (resource name "": those set), for this broker's loggers (BROKER_LOGGER) and for groups; each config's
 * source and, when asked (v1+), its synonyms as Kafka's ConfigHelper lists them: a topic override
 * (DYNAMIC_TOPIC_CONFIG), then the broker configs it falls back to ({@link TopicConfig#brokerSynonyms}) as set for
 * this broker at runtime (DYNAMIC_BROKER_CONFIG), for every broker at runtime (DYNAMIC_DEFAULT_BROKER_CONFIG), in the
 * file (STATIC_BROKER_CONFIG), then their defaults (DEFAULT_CONFIG); the source is the first synonym's.
 * Each config's type (v3+) is Kafka 4.3.1's ({@link KafkaConfigTypes}); a broker config Kafka types PASSWORD, or has
 * no type for, is sensitive, as Kafka's {@code KafkaConfig.maybeSensitive}. Documentation is not listed (null, as for
 * a config Kafka has no text for). A topic's overrides come from this node's topics on a single node, from the
 * cluster's image on a broker in a cluster.
 */
public final class DescribeConfigsHandler implements ApiHandler {

    private final Function<String, Optional<Map<String, String>>> topicOverrides;
    private final BrokerConfig config;
    private final LocalNode node;
    private final GroupConfigs groups;
    /** The dynamic broker configs: this broker's own and the cluster default. */
    private final BrokerConfigOverrides dynamic;
    private final RuntimeLoggers loggers;
    private final ClientMetricsSubscriptions clientMetrics;

    /** @param topicOverrides a topic's config overrides, empty if there is no such topic */
    public DescribeConfigsHandler(Function<String, Optional<Map<String, String>>> topicOverrides,
                                  BrokerConfig config, LocalNode node) {
        this(topicOverrides, config, node, null);
    }

    /** As above, and group configs (resource type GROUP) from {@code groups}, a single node's. */
    public DescribeConfigsHandler(Function<String, Optional<Map<String, String>>> topicOverrides,
                                  BrokerConfig config, LocalNode node, GroupConfigs groups) {
        this(topicOverrides, config, node, groups, BrokerConfigOverrides.mirror(() -> { }), RuntimeLoggers.NONE);
    }

    /** As above, with the dynamic broker configs {@code dynamic} holds and the loggers (BROKER_LOGGER) it lists. */
    public DescribeConfigsHandler(Function<String, Optional<Map<String, String>>> topicOverrides,
                                  BrokerConfig config, LocalNode node, GroupConfigs groups,
                                  BrokerConfigOverrides dynamic, RuntimeLoggers loggers) {
        this(topicOverrides, config, node, groups, dynamic, loggers, null);
    }

    /** As above, and the CLIENT_METRICS subscriptions {@code clientMetrics} holds (a single node's or a mirror). */
    public DescribeConfigsHandler(Function<String, Optional<Map<String, String>>> topicOverrides,
                                  BrokerConfig config, LocalNode node, GroupConfigs groups,
                                  BrokerConfigOverrides dynamic, RuntimeLoggers loggers,
                                  ClientMetricsSubscriptions clientMetrics) {
        this.topicOverrides = topicOverrides;
        this.config = config;
        this.node = node;
        this.groups = groups;
        this.dynamic = dynamic;
        this.loggers = loggers;
        this.clientMetrics = clientMetrics;
    }

    /** One synonym of a config: where a value comes from, and the name it has there. */
    private record Synonym(String name, String value, byte source) {
    }

    /**
     * One config listed: its value, its type, whether it is sensitive (then its value is never sent) and read-only.
     */
    private record Entry(String name, String value, ConfigType type, List<Synonym> synonyms, boolean sensitive,
                         boolean readOnly) {
    }

    /**
     * Whether Kafka refuses the request whole, before any resource is described or refused: its ConfigHelper throws
     * INVALID_REQUEST at a resource type it does not know as it authorizes the resources one by one, so the request's
     * error answer (DescribeConfigsRequest.getErrorResponse) is sent, whatever the ACLs say of the others.
     */
    public static boolean refusedWhole(DescribeConfigsRequestView describe) {
        return describe.resources().stream().anyMatch(resource -> !ConfigResources.isKnown(resource.resourceType()));
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DescribeConfigsRequestView describe = new DescribeConfigsRequestView(request.body());
        DescribeConfigsResponseView response = new DescribeConfigsResponseView();
        if (refusedWhole(describe)) {
            // Every resource, with the error's own description (Errors.message), not the exception's text.
            describe.resources().forEach(resource -> response.addResult().resourceType(resource.resourceType())
                    .resourceName(resource.resourceName()).errorCode(Errors.INVALID_REQUEST.code())
                    .errorMessage(DefaultMessages.of(Errors.INVALID_REQUEST)));
            return CompletableFuture.completedFuture(response.struct());
        }
        boolean includeSynonyms = describe.includeSynonyms(); // v1+, the first version served
        for (DescribeConfigsResource resource : describe.resources()) {
            byte type = resource.resourceType();
            String name = resource.resourceName();
            List<String> keys = resource.configurationKeys();
            DescribeConfigsResult result = response.addResult().resourceType(type).resourceName(name);
            if (type == ConfigResources.TOPIC) {
                describeTopic(name, keys, result, includeSynonyms);
            } else if (type == ConfigResources.BROKER && name.isEmpty()) {
                describeClusterDefault(keys, result, includeSynonyms);
            } else if (type == ConfigResources.BROKER_LOGGER) {
                describeLoggers(name, keys, result);
            } else if (type == ConfigResources.BROKER && name.equals(Integer.toString(node.nodeId()))) {
                describeBroker(keys, result, includeSynonyms);
            } else if (type == ConfigResources.GROUP && groups != null) {
                describeGroup(name, keys, result, includeSynonyms);
            } else if (type == ConfigResources.CLIENT_METRICS && clientMetrics != null) {
                describeSubscription(name, keys, result, includeSynonyms);
            } else if (type == ConfigResources.BROKER) {
                result.errorCode(Errors.INVALID_REQUEST.code()).errorMessage(isInteger(name)
                        ? "Unexpected broker id, expected " + node.nodeId() + " or empty string, but received " + name
                        : "Broker id must be an integer, but it is: " + name);
            } else {
                result.errorCode(Errors.INVALID_REQUEST.code())
                        .errorMessage("unsupported resource " + type + " '" + name + "'");
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    /** Whether a config is among the keys asked for: null or none asked means every one, as Kafka's ConfigHelper. */
    private static boolean asked(List<String> keys, String name) {
        return keys == null || keys.isEmpty() || keys.contains(name);
    }

    /** As Kafka reads a broker resource name (Scala's toInt). */
    private static boolean isInteger(String name) {
        try {
            Integer.parseInt(name);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private void describeTopic(String name, List<String> keys, DescribeConfigsResult result, boolean includeSynonyms) {
        String invalidName = TopicRegistry.invalidName(name);
        if (invalidName != null) {
            result.errorCode(Errors.INVALID_TOPIC_EXCEPTION.code()).errorMessage(invalidName);
            return;
        }
        Optional<Map<String, String>> found = topicOverrides.apply(name);
        if (found.isEmpty()) {
            // Kafka's ConfigHelper sets the code alone, leaving the message at its generated default, the empty
            // string (a Kafka 4.3.1 node sent "").
            result.errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()).errorMessage("");
            return;
        }
        Map<String, String> overrides = found.get();
        TopicConfig.effective(config, overrides).forEach((key, value) -> {
            if (asked(keys, key)) {
                List<Synonym> synonyms = new ArrayList<>();
                if (overrides.containsKey(key)) {
                    synonyms.add(new Synonym(key, value, ConfigResources.DYNAMIC_TOPIC_CONFIG));
                }
                List<TopicConfig.BrokerSynonym> fallbacks = TopicConfig.brokerSynonyms(key);
                if (!fallbacks.isEmpty()) {
                    // A stored broker value this broker does not act on is not the topic's: listing it would name a
                    // dynamic source for a value that stays the file's or Kafka's default (log.preallocate, say).
                    synonyms.addAll(brokerSynonyms(fallbacks, fallbacks.get(0).name(),
                            BrokerConfig::inForceWhenDynamic));
                }
                addConfig(result, key, value, KafkaConfigTypes.topic(key), synonyms, includeSynonyms);
            }
        });
        result.errorCode(Errors.NONE.code());
    }

    /**
     * A group's configs (any group id: Kafka describes a group's configs whether or not it exists): its own value
     * (DYNAMIC_GROUP_CONFIG), then the broker key it defaults to, set in the file or by default (Kafka's key
     * and default for one this broker does not read; the config itself at its default for one with no broker key).
     */
    private void describeGroup(String groupId, List<String> keys, DescribeConfigsResult result,
                               boolean includeSynonyms) {
        if (groupId.isEmpty()) {
            result.errorCode(Errors.INVALID_REQUEST.code()).errorMessage("Group name must not be empty");
            return;
        }
        Map<String, String> overrides = groups.overrides(groupId);
        groups.effective(groupId).forEach((name, value) -> {
            if (!asked(keys, name)) {
                return;
            }
            List<Synonym> synonyms = new ArrayList<>();
            if (overrides.containsKey(name)) {
                synonyms.add(new Synonym(name, value, ConfigResources.DYNAMIC_GROUP_CONFIG));
            }
            ConfigKey<Integer> brokerKey = GroupConfigs.brokerDefault(name);
            if (brokerKey != null) {
                synonyms.add(new Synonym(brokerKey.name(), text(config.staticValue(brokerKey)), config.isSet(brokerKey)
                        ? ConfigResources.STATIC_BROKER_CONFIG : ConfigResources.DEFAULT_CONFIG));
            } else {
                Map.Entry<String, String> fixed = GroupConfigs.fixedDefault(name);
                synonyms.add(new Synonym(fixed.getKey(), fixed.getValue(), ConfigResources.DEFAULT_CONFIG));
            }
            addConfig(result, name, value, KafkaConfigTypes.group(name), synonyms, includeSynonyms);
        });
        result.errorCode(Errors.NONE.code());
    }

    /**
     * A client metrics subscription's three configs, as Kafka's ConfigHelper: DYNAMIC_CLIENT_METRICS_CONFIG where
     * set, else the default (so a name never set is described with the defaults, not refused).
     */
    private void describeSubscription(String name, List<String> keys, DescribeConfigsResult result,
                                      boolean includeSynonyms) {
        if (name.isEmpty()) {
            result.errorCode(Errors.INVALID_REQUEST.code())
                    .errorMessage("Client metrics subscription name must not be empty");
            return;
        }
        Map<String, String> set = clientMetrics.configs(name);
        new TreeMap<>(ClientMetricsSubscriptions.DEFAULTS).forEach((config, fallback) -> {
            if (asked(keys, config)) {
                String value = set.getOrDefault(config, fallback);
                addConfig(result, config, value, ClientMetricsSubscriptions.LIST_DEFAULTS.containsKey(config)
                        ? ConfigType.LIST : ConfigType.INT, List.of(new Synonym(config, value, set.containsKey(config)
                        ? ConfigResources.DYNAMIC_CLIENT_METRICS_CONFIG : ConfigResources.DEFAULT_CONFIG)),
                        includeSynonyms);
            }
        });
        result.errorCode(Errors.NONE.code());
    }

    /**
     * This broker's configs as Kafka's ConfigHelper lists a broker's: every key of Kafka's KafkaConfig but the
     * internal ones, set or not ({@link KafkaBrokerKeys}), then every other key set: in the file (this broker's own
     * keys, Kafka's internal ones, any other: Kafka's originals) or dynamically. A key this broker reads is at its
     * value here; one it does not (docs/configuration.md: reported, no effect) at the value set, else Kafka's default.
     * Each at its dynamic value if one is stored (as Kafka would answer it); read-only unless Kafka lets it change at
     * runtime.
     */
    private void describeBroker(List<String> keys, DescribeConfigsResult result, boolean includeSynonyms) {
        Map<String, String> own = dynamic.of(Integer.toString(node.nodeId()));
        Map<String, String> clusterDefault = dynamic.of("");
        Map<String, Entry> entries = new TreeMap<>();
        Function<String, Entry> describe = name -> brokerEntry(name, own, clusterDefault);
        KafkaBrokerKeys.listed().forEach(definition -> entries.computeIfAbsent(definition.name(), describe));
        BrokerConfig.knownKeys().forEach((name, key) -> {
            if (config.isSet(key)) {
                entries.computeIfAbsent(name, describe);
            }
        });
        for (Map<String, String> set : List.of(config.unparsedEntries(), own, clusterDefault)) {
            set.keySet().forEach(name -> entries.computeIfAbsent(name, describe));
        }
        entries.values().stream().filter(entry -> asked(keys, entry.name()))
                .forEach(entry -> addConfig(result, entry, includeSynonyms));
        result.errorCode(Errors.NONE.code());
    }

    /**
     * One broker config: this broker's value of a key it reads, else the value set in the file, else Kafka's
     * default; a dynamic value wins over either, this broker's own over the cluster default.
     */
    private Entry brokerEntry(String name, Map<String, String> own, Map<String, String> clusterDefault) {
        ConfigKey<?> key = BrokerConfig.knownKeys().get(name);
        String notDynamic = key != null ? text(config.staticValue(key))
                : config.unparsedEntries().getOrDefault(name, kafkaDefault(name));
        return brokerEntry(name, own.getOrDefault(name, clusterDefault.getOrDefault(name, notDynamic)),
                brokerSynonyms(family(name), name));
    }

    /**
     * The cluster default (resource name ""): only the dynamic configs stored for every broker, each with its
     * synonyms at that level alone, as Kafka lists them.
     */
    private void describeClusterDefault(List<String> keys, DescribeConfigsResult result, boolean includeSynonyms) {
        new TreeMap<>(dynamic.of("")).forEach((name, value) -> {
            if (!asked(keys, name)) {
                return;
            }
            List<Synonym> synonyms = brokerSynonyms(family(name), name).stream()
                    .filter(synonym -> synonym.source() == ConfigResources.DYNAMIC_DEFAULT_BROKER_CONFIG).toList();
            addConfig(result, brokerEntry(name, value, synonyms), includeSynonyms);
        });
        result.errorCode(Errors.NONE.code());
    }

    /**
     * A broker config as Kafka lists it: typed by its definition, sensitive (its value never sent) when that type is
     * PASSWORD or there is none, as Kafka's {@code KafkaConfig.maybeSensitive}; read-only unless Kafka lets it change
     * at runtime.
     */
    private static Entry brokerEntry(String name, String value, List<Synonym> synonyms) {
        ConfigType type = KafkaConfigTypes.broker(name);
        boolean sensitive = type == ConfigType.UNKNOWN || type == ConfigType.PASSWORD;
        return new Entry(name, value, type, synonyms, sensitive, !DynamicBrokerConfig.isDynamic(name));
    }

    /**
     * A broker config's synonyms: Kafka's family of a key this broker reads, the name alone, with Kafka's default
     * where it has one, for any other.
     */
    private static List<TopicConfig.BrokerSynonym> family(String name) {
        ConfigKey<?> key = BrokerConfig.knownKeys().get(name);
        return key != null ? TopicConfig.brokerFamily(key)
                : List.of(TopicConfig.BrokerSynonym.unread(name, kafkaDefault(name)));
    }

    /** Kafka's default of a broker key as DescribeConfigs prints it; null for one it has none for, or does not know. */
    private static String kafkaDefault(String name) {
        return KafkaBrokerKeys.of(name).map(KafkaBrokerKeys.Definition::defaultText).orElse(null);
    }

    /**
     * Whether Kafka's DescribeConfigs lists a DEFAULT_CONFIG synonym for a key this broker reads: not for one
     * KafkaConfig does not define (this broker's own keys, the authorizer's, DynamicConfig.Broker's throttled rates),
     * as Kafka's broker config has only the values given to it for these, nor for a required one (node.id).
     */
    private static boolean kafkaDefines(ConfigKey<?> key) {
        return KafkaBrokerKeys.of(key.name()).filter(definition -> !definition.required()).isPresent();
    }

    /** Kafka's BROKER_LOGGER description: this broker's loggers and their levels, by name. */
    private void describeLoggers(String name, List<String> keys, DescribeConfigsResult result) {
        if (name.isEmpty()) {
            result.errorCode(Errors.INVALID_REQUEST.code()).errorMessage("Broker id must not be empty");
            return;
        }
        if (!isInteger(name)) {
            result.errorCode(Errors.INVALID_REQUEST.code())
                    .errorMessage("Broker id must be an integer, but it is: " + name);
            return;
        }
        if (Integer.parseInt(name) != node.nodeId()) {
            result.errorCode(Errors.INVALID_REQUEST.code())
                    .errorMessage("Unexpected broker id, expected " + node.nodeId() + " but received " + name);
            return;
        }
        new TreeMap<>(loggers.loggers()).forEach((logger, level) -> {
            if (asked(keys, logger)) {
                result.addConfig().name(logger).value(level)
                        .configSource(ConfigResources.DYNAMIC_BROKER_LOGGER_CONFIG).readOnly(false).isSensitive(false)
                        .documentation(null);
            }
        });
        result.errorCode(Errors.NONE.code());
    }

    /**
     * Where these broker configs have values: each set for this broker dynamically, then each set for the cluster
     * dynamically, each set in the file, then each default that is not null, as Kafka's ConfigHelper lists them. As
     * there, what comes before {@code ownName}'s own entries is dropped, so a config whose first synonym is neither
     * set nor defaulted lists none (segment.ms: log.roll.ms has no default).
     */
    private List<Synonym> brokerSynonyms(List<TopicConfig.BrokerSynonym> synonyms, String ownName) {
        return brokerSynonyms(synonyms, ownName, name -> true);
    }

    /**
     * {@link #brokerSynonyms(List, String)}, listing dynamic values, and the file's values of keys this broker does not
     * read, only for the names {@code listed} takes.
     */
    private List<Synonym> brokerSynonyms(List<TopicConfig.BrokerSynonym> synonyms, String ownName,
                                         Predicate<String> listed) {
        List<Synonym> found = new ArrayList<>();
        Map<String, String> own = dynamic.of(Integer.toString(node.nodeId()));
        Map<String, String> clusterDefault = dynamic.of("");
        for (TopicConfig.BrokerSynonym synonym : synonyms) {
            if (own.containsKey(synonym.name()) && listed.test(synonym.name())) {
                found.add(new Synonym(synonym.name(), own.get(synonym.name()), ConfigResources.DYNAMIC_BROKER_CONFIG));
            }
        }
        for (TopicConfig.BrokerSynonym synonym : synonyms) {
            if (clusterDefault.containsKey(synonym.name()) && listed.test(synonym.name())) {
                found.add(new Synonym(synonym.name(), clusterDefault.get(synonym.name()),
                        ConfigResources.DYNAMIC_DEFAULT_BROKER_CONFIG));
            }
        }
        for (TopicConfig.BrokerSynonym synonym : synonyms) {
            if (synonym.key() != null && config.isSet(synonym.key())) {
                found.add(new Synonym(synonym.name(), text(config.staticValue(synonym.key())),
                        ConfigResources.STATIC_BROKER_CONFIG));
            } else if (synonym.key() == null && config.unparsedEntries().containsKey(synonym.name())
                    && listed.test(synonym.name())) {
                found.add(new Synonym(synonym.name(), config.unparsedEntries().get(synonym.name()),
                        ConfigResources.STATIC_BROKER_CONFIG));
            }
        }
        for (TopicConfig.BrokerSynonym synonym : synonyms) {
            String defaultValue = synonym.key() == null ? synonym.kafkaDefault()
                    : kafkaDefines(synonym.key()) ? text(synonym.key().defaultValue()) : null;
            if (defaultValue != null) {
                found.add(new Synonym(synonym.name(), defaultValue, ConfigResources.DEFAULT_CONFIG));
            }
        }
        int first = 0;
        while (first < found.size() && !found.get(first).name().equals(ownName)) {
            first++;
        }
        return found.subList(first, found.size());
    }

    /** A value as Kafka prints it: lists comma-separated, maps as {@code key:value,...}, null as null. */
    private static String text(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().map(Object::toString).collect(Collectors.joining(","));
        }
        if (value instanceof Map<?, ?> map) {
            return map.entrySet().stream().map(entry -> entry.getKey() + ":" + entry.getValue())
                    .collect(Collectors.joining(","));
        }
        return value == null ? null : value.toString();
    }

    /** A topic's or group's config: never read-only, never sensitive here. */
    private static void addConfig(DescribeConfigsResult result, String name, String value, ConfigType type,
                                  List<Synonym> synonyms, boolean includeSynonyms) {
        addConfig(result, new Entry(name, value, type, synonyms, false, false), includeSynonyms);
    }

    private static void addConfig(DescribeConfigsResult result, Entry config, boolean includeSynonyms) {
        List<Synonym> synonyms = config.synonyms();
        DescribeConfigsResourceResult entry = result.addConfig()
                .name(config.name())
                .value(config.sensitive() ? null : config.value())
                .readOnly(config.readOnly())
                .configSource(synonyms.isEmpty() ? ConfigResources.DEFAULT_CONFIG : synonyms.get(0).source())
                .isSensitive(config.sensitive())
                .configType(config.type().id())
                .documentation(null); // the field's default is "", Kafka sends null when no text is asked for
        if (includeSynonyms) {
            for (Synonym synonym : synonyms) {
                entry.addSynonym().name(synonym.name()).value(config.sensitive() ? null : synonym.value())
                        .source(synonym.source());
            }
        }
    }
}
