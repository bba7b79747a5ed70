package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.ConfigKey;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicRegistry;
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
import java.util.stream.Collectors;

/**
 * DescribeConfigs for topics (each topic config with its effective value) and for this broker (resource name =
 * node id; an empty name asks for the cluster's dynamic defaults, of which there are none), each config's source and, when asked (v1+), its synonyms as Kafka's ConfigHelper lists them: a topic
 * override (DYNAMIC_TOPIC_CONFIG), then the broker configs it falls back to ({@link TopicConfig#brokerSynonyms})
 * as set in the file (STATIC_BROKER_CONFIG), then their defaults (DEFAULT_CONFIG); the source is the first
 * synonym's. Documentation and config types are not listed. A topic's overrides come from this node's topics on a
 * single node, from the cluster's image on a broker in a cluster.
 */
public final class DescribeConfigsHandler implements ApiHandler {

    private final Function<String, Optional<Map<String, String>>> topicOverrides;
    private final BrokerConfig config;
    private final LocalNode node;
    private final GroupConfigs groups;

    /** @param topicOverrides a topic's config overrides, empty if there is no such topic */
    public DescribeConfigsHandler(Function<String, Optional<Map<String, String>>> topicOverrides,
                                  BrokerConfig config, LocalNode node) {
        this(topicOverrides, config, node, null);
    }

    /** As above, and group configs (resource type GROUP) from {@code groups}, a single node's. */
    public DescribeConfigsHandler(Function<String, Optional<Map<String, String>>> topicOverrides,
                                  BrokerConfig config, LocalNode node, GroupConfigs groups) {
        this.topicOverrides = topicOverrides;
        this.config = config;
        this.node = node;
        this.groups = groups;
    }

    /** One synonym of a config: where a value comes from, and the name it has there. */
    private record Synonym(String name, String value, byte source) {
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DescribeConfigsRequestView describe = new DescribeConfigsRequestView(request.body());
        DescribeConfigsResponseView response = new DescribeConfigsResponseView();
        boolean includeSynonyms = describe.includeSynonyms(); // v1+, the first version served
        for (DescribeConfigsResource resource : describe.resources()) {
            byte type = resource.resourceType();
            String name = resource.resourceName();
            List<String> keys = resource.configurationKeys();
            DescribeConfigsResult result = response.addResult().resourceType(type).resourceName(name);
            if (type == ConfigResources.TOPIC) {
                describeTopic(name, keys, result, includeSynonyms);
            } else if (type == ConfigResources.BROKER && name.isEmpty()) {
                // The cluster's dynamic broker defaults (kafka-configs --entity-default): there are none to list.
                result.errorCode(Errors.NONE.code());
            } else if (type == ConfigResources.BROKER && name.equals(Integer.toString(node.nodeId()))) {
                describeBroker(keys, result, includeSynonyms);
            } else if (type == ConfigResources.GROUP && groups != null) {
                describeGroup(name, keys, result, includeSynonyms);
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
            // Kafka's ConfigHelper answers the code alone.
            result.errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()).errorMessage(null);
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
                    synonyms.addAll(brokerSynonyms(fallbacks, fallbacks.get(0).name()));
                }
                addConfig(result, key, value, synonyms, includeSynonyms);
            }
        });
        result.errorCode(Errors.NONE.code());
    }

    /**
     * A group's configs (any group id: Kafka describes a group's configs whether or not it exists): its own value
     * (DYNAMIC_GROUP_CONFIG), then the broker key it defaults to, set in the file or by default.
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
                synonyms.add(new Synonym(brokerKey.name(), text(config.get(brokerKey)), config.isSet(brokerKey)
                        ? ConfigResources.STATIC_BROKER_CONFIG : ConfigResources.DEFAULT_CONFIG));
            }
            addConfig(result, name, value, synonyms, includeSynonyms);
        });
        result.errorCode(Errors.NONE.code());
    }

    private void describeBroker(List<String> keys, DescribeConfigsResult result, boolean includeSynonyms) {
        for (Map.Entry<String, ConfigKey<?>> entry : new TreeMap<>(BrokerConfig.knownKeys()).entrySet()) {
            if (keys == null || keys.contains(entry.getKey())) {
                addConfig(result, entry.getKey(), text(config.get(entry.getValue())),
                        brokerSynonyms(TopicConfig.brokerFamily(entry.getValue()), entry.getKey()), includeSynonyms);
            }
        }
        result.errorCode(Errors.NONE.code());
    }

    /**
     * Where these broker configs have values: each set in the file, then each default that is not null, as
     * Kafka's ConfigHelper lists them. As there, what comes before {@code ownName}'s own entries is dropped, so a
     * config whose first synonym is neither set nor defaulted lists none (segment.ms: log.roll.ms has no default).
     */
    private List<Synonym> brokerSynonyms(List<TopicConfig.BrokerSynonym> synonyms, String ownName) {
        List<Synonym> found = new ArrayList<>();
        for (TopicConfig.BrokerSynonym synonym : synonyms) {
            if (synonym.key() != null && config.isSet(synonym.key())) {
                found.add(new Synonym(synonym.name(), text(config.get(synonym.key())),
                        ConfigResources.STATIC_BROKER_CONFIG));
            }
        }
        for (TopicConfig.BrokerSynonym synonym : synonyms) {
            String defaultValue = synonym.key() != null ? text(synonym.key().defaultValue()) : synonym.kafkaDefault();
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

    /** A value as Kafka prints it: lists comma-separated, null as null. */
    private static String text(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().map(Object::toString).collect(Collectors.joining(","));
        }
        return value == null ? null : value.toString();
    }

    private static void addConfig(DescribeConfigsResult result, String name, String value, List<Synonym> synonyms,
                                  boolean includeSynonyms) {
        DescribeConfigsResourceResult entry = result.addConfig()
                .name(name)
                .value(value)
                .readOnly(false)
                .configSource(synonyms.isEmpty() ? ConfigResources.DEFAULT_CONFIG : synonyms.get(0).source())
                .isSensitive(false);
        if (includeSynonyms) {
            for (Synonym synonym : synonyms) {
                entry.addSynonym().name(synonym.name()).value(synonym.value()).source(synonym.source());
            }
        }
    }
}
