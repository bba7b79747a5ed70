package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.ConfigurableTopics;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Changes topic configs, in either of Kafka's two request shapes: AlterConfigs replaces a topic's overrides
 * with the ones given; IncrementalAlterConfigs applies SET, DELETE, and (for list configs, here
 * {@code cleanup.policy}) APPEND and SUBTRACT to the current ones. Dynamic broker configs are not supported.
 * Serves a single node's topics and, on the controller, the cluster's, where every broker forwards these requests.
 */
public final class AlterTopicConfigsHandler implements ApiHandler {

    private static final byte SET = 0;
    private static final byte DELETE = 1;
    private static final byte APPEND = 2;
    private static final byte SUBTRACT = 3;
    /** The topic configs Kafka types as lists, which APPEND and SUBTRACT work on, with their defaults. */
    private static final Map<String, String> LIST_DEFAULTS = Map.of(
            TopicConfig.CLEANUP_POLICY, "delete",
            TopicConfig.LEADER_REPLICATION_THROTTLED_REPLICAS, "",
            TopicConfig.FOLLOWER_REPLICATION_THROTTLED_REPLICAS, "");

    private final ConfigurableTopics topics;
    private final ApiKey api;

    /** {@code api} is ALTER_CONFIGS or INCREMENTAL_ALTER_CONFIGS. */
    public AlterTopicConfigsHandler(ConfigurableTopics topics, ApiKey api) {
        this.topics = topics;
        this.api = api;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        boolean validateOnly = (Boolean) request.body().get("ValidateOnly");
        Struct response = api.response().newMessage();
        for (Struct resource : request.body().getStructs("Resources")) {
            byte type = (Byte) resource.get("ResourceType");
            String name = resource.getString("ResourceName");
            Struct result = response.addElement("Responses").set("ResourceType", type).set("ResourceName", name);
            String nullValues = api == ApiKey.INCREMENTAL_ALTER_CONFIGS ? nullValuesOutsideDelete(resource) : null;
            if (nullValues != null) { // Kafka's ConfigAdminManager refuses these before looking at anything else
                fail(result, Errors.INVALID_REQUEST, "Null value not supported for : " + nullValues);
                continue;
            }
            if (type != ConfigResources.TOPIC) {
                fail(result, Errors.INVALID_REQUEST, "only topic configs can be changed on this broker");
                continue;
            }
            Optional<Map<String, String>> current = topics.overrides(name);
            if (current.isEmpty()) {
                fail(result, Errors.UNKNOWN_TOPIC_OR_PARTITION, "Topic " + name + " does not exist");
                continue;
            }
            Map<String, String> overrides;
            try {
                overrides = api == ApiKey.INCREMENTAL_ALTER_CONFIGS
                        ? applyIncrementally(current.get(), resource)
                        : replacement(resource);
            } catch (IllegalArgumentException e) {
                fail(result, Errors.INVALID_CONFIG, e.getMessage());
                continue;
            }
            ConfigurableTopics.Change change = topics.replaceOverrides(name, overrides, validateOnly);
            result.set("ErrorCode", change.error().code()).set("ErrorMessage", change.message());
        }
        return CompletableFuture.completedFuture(response);
    }

    private static Map<String, String> replacement(Struct resource) {
        Map<String, String> overrides = new LinkedHashMap<>();
        for (Struct config : resource.getStructs("Configs")) {
            overrides.put(config.getString("Name"), config.getString("Value"));
        }
        return overrides;
    }

    private static Map<String, String> applyIncrementally(Map<String, String> current, Struct resource) {
        Map<String, String> overrides = new LinkedHashMap<>(current);
        for (Struct config : resource.getStructs("Configs")) {
            String name = config.getString("Name");
            String value = config.getString("Value");
            byte operation = (Byte) config.get("ConfigOperation");
            switch (operation) {
                case SET -> overrides.put(name, value);
                case DELETE -> overrides.remove(name);
                case APPEND, SUBTRACT -> {
                    String listDefault = LIST_DEFAULTS.get(name);
                    if (listDefault == null) {
                        throw new IllegalArgumentException("Config " + name + " is not a list; it cannot be "
                                + (operation == APPEND ? "appended to" : "subtracted from"));
                    }
                    Set<String> items = listItems(overrides.getOrDefault(name, listDefault));
                    if (operation == APPEND) {
                        items.addAll(listItems(value));
                    } else {
                        items.removeAll(listItems(value));
                    }
                    overrides.put(name, String.join(",", items));
                }
                default -> throw new IllegalArgumentException("unknown config operation " + operation);
            }
        }
        return overrides;
    }

    /** The names, comma-separated, of the configs given a null value by an operation other than DELETE; null if none. */
    private static String nullValuesOutsideDelete(Struct resource) {
        List<String> names = new ArrayList<>();
        for (Struct config : resource.getStructs("Configs")) {
            if (config.getString("Value") == null && (Byte) config.get("ConfigOperation") != DELETE) {
                names.add(config.getString("Name"));
            }
        }
        return names.isEmpty() ? null : String.join(", ", names);
    }

    private static Set<String> listItems(String list) {
        Set<String> items = new LinkedHashSet<>();
        for (String item : list.split(",")) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return items;
    }

    private static void fail(Struct result, Errors error, String message) {
        result.set("ErrorCode", error.code()).set("ErrorMessage", message);
    }
}
