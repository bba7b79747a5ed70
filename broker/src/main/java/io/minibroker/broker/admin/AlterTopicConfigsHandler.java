package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.clientmetrics.ClientMetricsSubscriptions;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.topic.ConfigurableTopics;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static io.minibroker.broker.admin.AlterConfigOp.APPEND;
import static io.minibroker.broker.admin.AlterConfigOp.DELETE;
import static io.minibroker.broker.admin.AlterConfigOp.SET;
import static io.minibroker.broker.admin.AlterConfigOp.SUBTRACT;

/**
 * Changes topic configs, in either of Kafka's two request shapes: AlterConfigs replaces a topic's overrides
 * with the ones given; IncrementalAlterConfigs applies SET, DELETE, and (for list configs, here
 * {@code cleanup.policy}) APPEND and SUBTRACT to the current ones. Dynamic broker configs and loggers go to
 * {@link BrokerConfigChanges}.
 * Serves a single node's topics and, on the controller, the cluster's, where every broker forwards these requests.
 */
public final class AlterTopicConfigsHandler implements ApiHandler {

    /** The topic configs Kafka types as lists, which APPEND and SUBTRACT work on, with their defaults. */
    private static final Map<String, String> LIST_DEFAULTS = Map.of(
            TopicConfig.CLEANUP_POLICY, "delete",
            TopicConfig.LEADER_REPLICATION_THROTTLED_REPLICAS, "",
            TopicConfig.FOLLOWER_REPLICATION_THROTTLED_REPLICAS, "");

    private final ConfigurableTopics topics;
    private final ApiKey api;
    private final GroupConfigs groups;
    private final BrokerConfigChanges.Step brokers;
    private final ClientMetricsSubscriptions clientMetrics;

    /** {@code api} is ALTER_CONFIGS or INCREMENTAL_ALTER_CONFIGS; topic configs only. */
    public AlterTopicConfigsHandler(ConfigurableTopics topics, ApiKey api) {
        this(topics, api, null);
    }

    /** As above, and group configs (resource type GROUP) into {@code groups}, a single node's. */
    public AlterTopicConfigsHandler(ConfigurableTopics topics, ApiKey api, GroupConfigs groups) {
        this(topics, api, groups, null);
    }

    /**
     * As above, and the BROKER and BROKER_LOGGER resources through {@code brokers}: a single node's
     * {@link BrokerConfigChanges#alter}, a controller's {@link BrokerConfigChanges#persist}.
     */
    public AlterTopicConfigsHandler(ConfigurableTopics topics, ApiKey api, GroupConfigs groups,
                                    BrokerConfigChanges.Step brokers) {
        this(topics, api, groups, brokers, null);
    }

    /** As above, and the CLIENT_METRICS subscriptions into {@code clientMetrics}: a node's own or a controller's. */
    public AlterTopicConfigsHandler(ConfigurableTopics topics, ApiKey api, GroupConfigs groups,
                                    BrokerConfigChanges.Step brokers, ClientMetricsSubscriptions clientMetrics) {
        this.topics = topics;
        this.api = api;
        this.groups = groups;
        this.brokers = brokers;
        this.clientMetrics = clientMetrics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        AlterConfigsRequest alter = new AlterConfigsRequest(api, request.body());
        List<ConfigurableTopics.Change> changes = alter.refusals();
        for (int i = 0; i < changes.size(); i++) {
            if (changes.get(i) == null) {
                AlterConfigsRequest.Resource resource = alter.resources().get(i);
                changes.set(i, alter(resource.type(), resource.name(), resource.configs(), alter.validateOnly()));
            }
        }
        return CompletableFuture.completedFuture(alter.answer(changes));
    }

    /** Changes one resource's configs, or says why not: the error and message to answer it with. */
    private ConfigurableTopics.Change alter(byte type, String name, List<AlterConfigOp> configs, boolean validateOnly) {
        if (type == ConfigResources.GROUP && groups != null) {
            return alterGroup(name, configs, validateOnly);
        }
        if (type == ConfigResources.CLIENT_METRICS && clientMetrics != null) {
            return alterSubscription(name, configs, validateOnly);
        }
        if ((type == ConfigResources.BROKER || type == ConfigResources.BROKER_LOGGER) && brokers != null) {
            return brokers.apply(type, name, configs, api == ApiKey.INCREMENTAL_ALTER_CONFIGS, validateOnly);
        }
        if (type != ConfigResources.TOPIC) {
            return new ConfigurableTopics.Change(Errors.INVALID_REQUEST,
                    "only topic configs can be changed on this broker");
        }
        return alterTopic(name, configs, validateOnly);
    }

    /**
     * A topic's configs, checked in the order of Kafka's controller (ControllerConfigurationValidator, then the
     * existence check): its name, the configs it would have, then whether it exists.
     */
    private ConfigurableTopics.Change alterTopic(String name, List<AlterConfigOp> configs, boolean validateOnly) {
        if (name.isEmpty()) {
            return new ConfigurableTopics.Change(Errors.INVALID_REQUEST, "Default topic resources are not allowed.");
        }
        String invalidName = TopicRegistry.invalidName(name);
        if (invalidName != null) {
            return new ConfigurableTopics.Change(Errors.INVALID_TOPIC_EXCEPTION, invalidName);
        }
        Optional<Map<String, String>> current = topics.overrides(name);
        Map<String, String> overrides;
        try {
            overrides = api == ApiKey.INCREMENTAL_ALTER_CONFIGS
                    ? applyIncrementally(current.orElse(Map.of()), configs, LIST_DEFAULTS)
                    : replacement(configs);
        } catch (IllegalArgumentException e) {
            return new ConfigurableTopics.Change(Errors.INVALID_CONFIG, e.getMessage());
        }
        String invalidConfig = TopicConfig.invalidReason(overrides);
        if (invalidConfig != null) {
            return new ConfigurableTopics.Change(Errors.INVALID_CONFIG, invalidConfig);
        }
        if (current.isEmpty()) {
            return new ConfigurableTopics.Change(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                    "The topic '" + name + "' does not exist.");
        }
        return topics.replaceOverrides(name, overrides, validateOnly);
    }

    /** A group's configs: Kafka's INVALID_CONFIG for an unknown name, a bad value, or APPEND/SUBTRACT. */
    private ConfigurableTopics.Change alterGroup(String groupId, List<AlterConfigOp> configs, boolean validateOnly) {
        if (groupId.isEmpty()) {
            return new ConfigurableTopics.Change(Errors.INVALID_REQUEST, "Default group resources are not allowed.");
        }
        Map<String, String> overrides;
        try {
            overrides = api == ApiKey.INCREMENTAL_ALTER_CONFIGS
                    ? applyIncrementally(groups.overrides(groupId), configs, LIST_DEFAULTS)
                    : replacement(configs);
        } catch (IllegalArgumentException e) {
            return new ConfigurableTopics.Change(Errors.INVALID_CONFIG, e.getMessage());
        }
        GroupConfigs.Change change = groups.replace(groupId, overrides, validateOnly);
        return change.ok() ? new ConfigurableTopics.Change(Errors.NONE, null)
                : new ConfigurableTopics.Change(Errors.INVALID_CONFIG, change.message());
    }

    /**
     * A client metrics subscription's configs: as Kafka's ControllerConfigurationValidator, the configs it would
     * have are checked whole (APPEND and SUBTRACT work on its two list configs); none left removes it.
     */
    private ConfigurableTopics.Change alterSubscription(String name, List<AlterConfigOp> configs,
                                                        boolean validateOnly) {
        Map<String, String> wanted;
        try {
            wanted = api == ApiKey.INCREMENTAL_ALTER_CONFIGS
                    ? applyIncrementally(clientMetrics.configs(name), configs,
                            ClientMetricsSubscriptions.LIST_DEFAULTS)
                    : replacement(configs);
        } catch (IllegalArgumentException e) {
            return new ConfigurableTopics.Change(Errors.INVALID_CONFIG, e.getMessage());
        }
        ClientMetricsSubscriptions.Change change = clientMetrics.replace(name, wanted, validateOnly);
        return new ConfigurableTopics.Change(change.error(), change.message());
    }

    private static Map<String, String> replacement(List<AlterConfigOp> configs) {
        Map<String, String> overrides = new LinkedHashMap<>();
        for (AlterConfigOp config : configs) {
            overrides.put(config.name(), config.value());
        }
        return overrides;
    }

    /** @param listDefaults the resource's LIST configs (the ones APPEND and SUBTRACT take), with their defaults */
    private static Map<String, String> applyIncrementally(Map<String, String> current, List<AlterConfigOp> configs,
                                                          Map<String, String> listDefaults) {
        Map<String, String> overrides = new LinkedHashMap<>(current);
        for (AlterConfigOp config : configs) {
            String name = config.name();
            String value = config.value();
            byte operation = config.operation();
            switch (operation) {
                case SET -> overrides.put(name, value);
                case DELETE -> overrides.remove(name);
                case APPEND, SUBTRACT -> {
                    String listDefault = listDefaults.get(name);
                    if (listDefault == null) {
                        throw new IllegalArgumentException("Can't " + (operation == APPEND ? "APPEND" : "SUBTRACT")
                                + " to key " + name + " because its type is not LIST.");
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

    private static Set<String> listItems(String list) {
        Set<String> items = new LinkedHashSet<>();
        for (String item : list.split(",")) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return items;
    }
}
