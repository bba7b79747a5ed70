package io.minibroker.broker.admin;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.BrokerConfigOverrides;
import io.minibroker.broker.config.ConfigKey;
import io.minibroker.broker.config.DynamicBrokerConfig;
import io.minibroker.broker.config.EligibleLeaderReplicasSafety;
import io.minibroker.broker.topic.ConfigurableTopics.Change;
import io.minibroker.protocol.error.Errors;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.minibroker.broker.admin.AlterConfigOp.APPEND;
import static io.minibroker.broker.admin.AlterConfigOp.DELETE;
import static io.minibroker.broker.admin.AlterConfigOp.SET;
import static io.minibroker.broker.admin.AlterConfigOp.SUBTRACT;

/**
 * AlterConfigs and IncrementalAlterConfigs of the BROKER and BROKER_LOGGER resources, in Kafka's two steps. The
 * broker that gets the request preprocesses it ({@link #preprocess}, Kafka's ConfigAdminManager): a logger's level is
 * set there and then; a broker config change must name this broker or the cluster default and pass
 * {@link DynamicBrokerConfig}'s checks. What passes is stored ({@link #persist}) where the topic configs live: by the
 * same node on a single node, by the controller in a cluster, whose checks (ControllerConfigurationValidator) are
 * of the name, and of {@code min.insync.replicas} while ELR is on ({@link EligibleLeaderReplicasSafety}).
 * {@link #alter} does both, for a node that is its own controller.
 */
public final class BrokerConfigChanges {

    /** Kafka's LogLevelConfig.VALID_LOG_LEVELS, in the order its message lists them. */
    private static final List<String> LOG_LEVELS = List.of("DEBUG", "ERROR", "FATAL", "INFO", "TRACE", "WARN");

    /** What a request handler does with a BROKER or BROKER_LOGGER resource: {@link #alter} or {@link #persist}. */
    @FunctionalInterface
    public interface Step {
        Change apply(byte type, String name, List<AlterConfigOp> ops, boolean incremental, boolean validateOnly);
    }

    /** A change refused, with Kafka's error and message. */
    private static final class Refused extends Exception {
        private final Errors error;

        Refused(Errors error, String message) {
            super(message, null, false, false);
            this.error = error;
        }

        Change change() {
            return new Change(error, getMessage());
        }
    }

    /** This node's id; -1 at a controller, which preprocesses nothing. */
    private final int nodeId;
    private final BrokerConfigOverrides stored;
    private final RuntimeLoggers loggers;
    /** The store's KIP-966 rules; null at a cluster's broker, which only preprocesses. */
    private final EligibleLeaderReplicasSafety elr;

    private BrokerConfigChanges(int nodeId, BrokerConfigOverrides stored, RuntimeLoggers loggers,
                                EligibleLeaderReplicasSafety elr) {
        this.nodeId = nodeId;
        this.stored = stored;
        this.loggers = loggers;
        this.elr = elr;
    }

    /** A cluster's broker: it preprocesses against its mirror of the controller's {@code stored}. */
    public static BrokerConfigChanges ofBroker(int nodeId, BrokerConfigOverrides stored, RuntimeLoggers loggers) {
        return new BrokerConfigChanges(nodeId, stored, loggers, null);
    }

    /** A single node's: it preprocesses, then keeps what passed in its own {@code stored}. */
    public static BrokerConfigChanges ofSingleNode(int nodeId, BrokerConfigOverrides stored, RuntimeLoggers loggers,
                                                   EligibleLeaderReplicasSafety elr) {
        return new BrokerConfigChanges(nodeId, stored, loggers, elr);
    }

    /** A controller's: it stores what brokers preprocessed, into the cluster's {@code stored}. */
    public static BrokerConfigChanges atController(BrokerConfigOverrides stored, EligibleLeaderReplicasSafety elr) {
        return new BrokerConfigChanges(-1, stored, RuntimeLoggers.NONE, elr);
    }

    /** Preprocesses, then stores what passed: a single node's whole change. */
    public Change alter(byte type, String name, List<AlterConfigOp> ops, boolean incremental, boolean validateOnly) {
        Change preprocessed = preprocess(type, name, ops, incremental, validateOnly);
        return preprocessed != null ? preprocessed : persist(type, name, ops, incremental, validateOnly);
    }

    /**
     * Kafka's ConfigAdminManager.preprocess of a BROKER or BROKER_LOGGER resource, once the request's own checks
     * ({@link AlterConfigsRequest#refusals}) passed it: the answer for a logger change (made here unless
     * {@code validateOnly}) or a refused broker change; null for a broker change to store.
     */
    public Change preprocess(byte type, String name, List<AlterConfigOp> ops, boolean incremental,
                             boolean validateOnly) {
        Change refused = refusalBeforeAuthorization(type, name, ops, incremental);
        if (refused != null || type != ConfigResources.BROKER_LOGGER) {
            return refused;
        }
        try {
            alterLoggers(name, ops, validateOnly);
            return new Change(Errors.NONE, null);
        } catch (Refused loggerRefused) {
            return loggerRefused.change();
        }
    }

    /**
     * What {@link #preprocess} answers a BROKER or BROKER_LOGGER resource before Kafka authorizes it, or null; it
     * changes nothing. A broker change is checked whole (this broker's id, the dynamic-config rules), since Kafka's
     * brokers preprocess it and leave its CLUSTER ALTER_CONFIGS check to the controller; a logger change never,
     * since IncrementalAlterConfigs authorizes a logger change before its node id and levels (and the legacy
     * AlterConfigs refuses the type itself: {@link AlterConfigsRequest#refusals()}). A controller, which gets broker
     * changes preprocessed, refuses none here.
     */
    public Change refusalBeforeAuthorization(byte type, String name, List<AlterConfigOp> ops, boolean incremental) {
        if (nodeId < 0) {
            return null;
        }
        try {
            if (type == ConfigResources.BROKER_LOGGER) { // the legacy AlterConfigs' was refused by its request
                return null;
            }
            boolean perBroker = !name.isEmpty();
            if (perBroker) {
                requireThisNode(name, "Node id must be an integer, but it is: " + name,
                        "Unexpected broker id, expected " + nodeId + ", but received " + name);
            }
            String invalid = DynamicBrokerConfig.invalidReason(after(name, ops, incremental), perBroker);
            if (invalid != null) {
                // Kafka's INVALID_REQUEST for a value that is well formed but cannot be applied (KAFKA-13609).
                throw new Refused(Errors.INVALID_REQUEST, invalid);
            }
            return null;
        } catch (Refused refused) {
            return refused.change();
        }
    }

    /** The controller's part: the name checked as Kafka's ControllerConfigurationValidator does, then stored. */
    public Change persist(byte type, String name, List<AlterConfigOp> ops, boolean incremental,
                          boolean validateOnly) {
        try {
            if (type != ConfigResources.BROKER) {
                throw new Refused(Errors.INVALID_REQUEST, "Unknown resource type " + type);
            }
            if (!name.isEmpty()) {
                int id;
                try {
                    id = Integer.parseInt(name);
                } catch (NumberFormatException e) {
                    throw new Refused(Errors.INVALID_REQUEST, "Unable to parse broker name as a base 10 number.");
                }
                if (id < 0) {
                    throw new Refused(Errors.INVALID_REQUEST, "Invalid negative broker ID.");
                }
            }
            Map<String, String> configs = after(name, ops, incremental);
            String unsafe = elr.refusal(name, configs);
            if (unsafe != null) {
                throw new Refused(Errors.INVALID_CONFIG, unsafe);
            }
            if (!validateOnly) {
                stored.replace(name, configs);
            }
            return new Change(Errors.NONE, null);
        } catch (Refused refused) {
            return refused.change();
        } catch (IOException e) {
            return new Change(Errors.KAFKA_STORAGE_ERROR, "Could not store the broker configs: " + e.getMessage());
        }
    }

    /** The resource's configs once {@code ops} apply: on top of the stored ones, or replacing them (AlterConfigs). */
    private Map<String, String> after(String name, List<AlterConfigOp> ops, boolean incremental) throws Refused {
        Map<String, String> configs = new LinkedHashMap<>(incremental ? stored.of(name) : Map.of());
        for (AlterConfigOp op : ops) {
            switch (op.operation()) {
                case SET -> configs.put(op.name(), op.value());
                case DELETE -> configs.remove(op.name());
                case APPEND, SUBTRACT -> {
                    List<String> items = new ArrayList<>(listItems(op, configs.get(op.name())));
                    List<String> given = Arrays.asList(op.value().split(","));
                    if (op.operation() == APPEND) {
                        given.stream().filter(item -> !items.contains(item)).forEach(items::add);
                    } else {
                        given.forEach(items::remove);
                    }
                    configs.put(op.name(), String.join(",", items));
                }
                default -> throw new Refused(Errors.INVALID_REQUEST, "Unknown operations type " + op.operation());
            }
        }
        return configs;
    }

    /** A list config's items before an APPEND or SUBTRACT: its stored value, else its default, as Kafka takes them. */
    private static List<String> listItems(AlterConfigOp op, String current) throws Refused {
        ConfigKey<?> key = BrokerConfig.knownKeys().get(op.name());
        if (key == null) {
            throw new Refused(Errors.INVALID_CONFIG, "Unknown config name: " + op.name());
        }
        if (!(key.defaultValue() instanceof List<?> defaults)) {
            String operation = op.operation() == APPEND ? "append" : "subtract";
            throw new Refused(Errors.INVALID_CONFIG,
                    "Config value " + operation + " is not allowed for config key: " + op.name());
        }
        String text = current != null ? current
                : defaults.stream().map(Object::toString).collect(Collectors.joining(","));
        return text.isEmpty() ? List.of() : Arrays.asList(text.split(","));
    }

    /** Kafka's RuntimeLoggerManager: every operation checked, then (unless validate only) applied in order. */
    private void alterLoggers(String name, List<AlterConfigOp> ops, boolean validateOnly) throws Refused {
        // Kafka's message names its own id twice, whatever was asked for; kept, as clients may match it.
        requireThisNode(name, "Node id must be an integer, but it is: " + name,
                "Unexpected node id. Expected " + nodeId + ", but received " + nodeId);
        Set<String> existing = loggers.loggers().keySet();
        for (AlterConfigOp op : ops) {
            switch (op.operation()) {
                case SET -> {
                    requireLogger(existing, op.name());
                    if (!LOG_LEVELS.contains(op.value())) {
                        throw new Refused(Errors.INVALID_CONFIG, "Cannot set the log level of " + op.name() + " to "
                                + op.value() + " as it is not a supported log level. Valid log levels are "
                                + String.join(", ", LOG_LEVELS));
                    }
                }
                case DELETE -> {
                    requireLogger(existing, op.name());
                    if (op.name().equals(RuntimeLoggers.ROOT)) {
                        throw new Refused(Errors.INVALID_REQUEST,
                                "Removing the log level of the root logger is not allowed");
                    }
                }
                case APPEND -> throw new Refused(Errors.INVALID_REQUEST,
                        "APPEND operation is not allowed for the BROKER_LOGGER resource");
                case SUBTRACT -> throw new Refused(Errors.INVALID_REQUEST,
                        "SUBTRACT operation is not allowed for the BROKER_LOGGER resource");
                default -> throw new Refused(Errors.INVALID_REQUEST, "Unknown operation type " + op.operation()
                        + " is not allowed for the BROKER_LOGGER resource");
            }
        }
        if (!validateOnly) {
            for (AlterConfigOp op : ops) {
                if (op.operation() == SET) {
                    loggers.setLevel(op.name(), op.value());
                } else {
                    loggers.unsetLevel(op.name());
                }
            }
        }
    }

    private static void requireLogger(Set<String> existing, String logger) throws Refused {
        if (!existing.contains(logger)) {
            throw new Refused(Errors.INVALID_CONFIG, "Logger " + logger + " does not exist!");
        }
    }

    private void requireThisNode(String name, String notInteger, String otherNode) throws Refused {
        int id;
        try {
            id = Integer.parseInt(name);
        } catch (NumberFormatException e) {
            throw new Refused(Errors.INVALID_REQUEST, notInteger);
        }
        if (id != nodeId) {
            throw new Refused(Errors.INVALID_REQUEST, otherNode);
        }
    }
}
