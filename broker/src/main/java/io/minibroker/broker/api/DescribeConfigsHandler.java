package io.minibroker.broker.api;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.ConfigKey;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * DescribeConfigs for topics (each topic config with its effective value; source DYNAMIC_TOPIC_CONFIG for an
 * override, else DEFAULT_CONFIG) and for this broker (resource name = node id; STATIC_BROKER_CONFIG for what
 * the file or an override set, else DEFAULT_CONFIG). Synonyms and documentation are not listed yet. A topic's
 * overrides come from this node's topics on a single node, from the cluster's image on a broker in a cluster.
 */
public final class DescribeConfigsHandler implements ApiHandler {

    private final Function<String, Optional<Map<String, String>>> topicOverrides;
    private final BrokerConfig config;
    private final LocalNode node;

    /** @param topicOverrides a topic's config overrides, empty if there is no such topic */
    public DescribeConfigsHandler(Function<String, Optional<Map<String, String>>> topicOverrides,
                                  BrokerConfig config, LocalNode node) {
        this.topicOverrides = topicOverrides;
        this.config = config;
        this.node = node;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct response = ApiKey.DESCRIBE_CONFIGS.response().newMessage();
        for (Struct resource : request.body().getStructs("Resources")) {
            byte type = (Byte) resource.get("ResourceType");
            String name = resource.getString("ResourceName");
            List<String> keys = resource.getList("ConfigurationKeys");
            Struct result = response.addElement("Results").set("ResourceType", type).set("ResourceName", name);
            if (type == ConfigResources.TOPIC) {
                describeTopic(name, keys, result);
            } else if (type == ConfigResources.BROKER && (name.isEmpty() || name.equals(Integer.toString(node.nodeId())))) {
                describeBroker(keys, result);
            } else {
                result.set("ErrorCode", Errors.INVALID_REQUEST.code())
                        .set("ErrorMessage", "unsupported resource " + type + " '" + name + "'");
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private void describeTopic(String name, List<String> keys, Struct result) {
        Optional<Map<String, String>> found = topicOverrides.apply(name);
        if (found.isEmpty()) {
            result.set("ErrorCode", Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                    .set("ErrorMessage", "Topic " + name + " does not exist");
            return;
        }
        Map<String, String> overrides = found.get();
        TopicConfig.effective(config, overrides).forEach((key, value) -> {
            if (keys == null || keys.contains(key)) {
                addConfig(result, key, value, overrides.containsKey(key)
                        ? ConfigResources.DYNAMIC_TOPIC_CONFIG : ConfigResources.DEFAULT_CONFIG);
            }
        });
        result.set("ErrorCode", Errors.NONE.code());
    }

    private void describeBroker(List<String> keys, Struct result) {
        for (Map.Entry<String, ConfigKey<?>> entry : new TreeMap<>(BrokerConfig.knownKeys()).entrySet()) {
            if (keys == null || keys.contains(entry.getKey())) {
                addConfig(result, entry.getKey(), text(config.get(entry.getValue())),
                        config.isSet(entry.getValue()) ? ConfigResources.STATIC_BROKER_CONFIG : ConfigResources.DEFAULT_CONFIG);
            }
        }
        result.set("ErrorCode", Errors.NONE.code());
    }

    /** A value as Kafka prints it: lists comma-separated, null as null. */
    private static String text(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().map(Object::toString).collect(Collectors.joining(","));
        }
        return value == null ? null : value.toString();
    }

    private static void addConfig(Struct result, String name, String value, byte source) {
        result.addElement("Configs")
                .set("Name", name)
                .set("Value", value)
                .set("ReadOnly", false)
                .set("ConfigSource", source)
                .set("IsSensitive", false);
    }
}
