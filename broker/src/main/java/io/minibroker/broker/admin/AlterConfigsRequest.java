package io.minibroker.broker.admin;

import io.minibroker.broker.topic.ConfigurableTopics.Change;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.AlterConfigsRequestView;
import io.minibroker.protocol.message.view.AlterConfigsResponseView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsRequestView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An AlterConfigs or IncrementalAlterConfigs request read alike, its answer written in its own shape, and the checks
 * Kafka's ConfigAdminManager.preprocess makes of the whole request before it looks at any resource's type, which a
 * single node and a cluster's broker make first alike, and before any ACL: Kafka's brokers preprocess a request
 * before its controller authorizes it.
 */
public final class AlterConfigsRequest {

    /** One resource of either request shape; {@code struct} is the request's own, to forward. */
    record Resource(byte type, String name, List<AlterConfigOp> configs, Struct struct) {
    }

    private final ApiKey api;
    private final boolean validateOnly;
    private final List<Resource> resources;

    /** {@code api} is ALTER_CONFIGS or INCREMENTAL_ALTER_CONFIGS. */
    AlterConfigsRequest(ApiKey api, Struct body) {
        this.api = api;
        if (incremental()) {
            IncrementalAlterConfigsRequestView alter = new IncrementalAlterConfigsRequestView(body);
            validateOnly = alter.validateOnly();
            resources = alter.resources().stream().map(resource -> new Resource(resource.resourceType(),
                    resource.resourceName(), resource.configs().stream()
                    .map(config -> new AlterConfigOp(config.name(), config.value(), config.configOperation()))
                    .toList(), resource.struct())).toList();
        } else {
            AlterConfigsRequestView alter = new AlterConfigsRequestView(body);
            validateOnly = alter.validateOnly();
            resources = alter.resources().stream().map(resource -> new Resource(resource.resourceType(),
                    resource.resourceName(), resource.configs().stream()
                    .map(config -> new AlterConfigOp(config.name(), config.value(), AlterConfigOp.SET)).toList(),
                    resource.struct())).toList();
        }
    }

    boolean incremental() {
        return api == ApiKey.INCREMENTAL_ALTER_CONFIGS;
    }

    boolean validateOnly() {
        return validateOnly;
    }

    List<Resource> resources() {
        return resources;
    }

    /**
     * What ConfigAdminManager.preprocess refuses first, by index (null where nothing): a resource named twice (both
     * answered), a config named twice in one resource, a null value other than an IncrementalAlterConfigs DELETE's,
     * then a resource type the request does not serve.
     */
    List<Change> refusals() {
        List<Change> refused = new ArrayList<>(Collections.nCopies(resources.size(), null));
        Map<Map.Entry<Byte, String>, Integer> firstIndex = new HashMap<>();
        for (int i = 0; i < resources.size(); i++) {
            Integer first = firstIndex.putIfAbsent(Map.entry(resources.get(i).type(), resources.get(i).name()), i);
            if (first != null) {
                Change twice = new Change(Errors.INVALID_REQUEST, "Each resource must appear at most once.");
                refused.set(first, twice);
                refused.set(i, twice);
            }
        }
        for (int i = 0; i < resources.size(); i++) {
            if (refused.get(i) == null) {
                refused.set(i, configRefusal(resources.get(i).configs()));
            }
            if (refused.get(i) == null && !serves(resources.get(i).type())) {
                // Kafka's broker names the type by its code, whatever it is (ConfigResource.Type would say UNKNOWN).
                refused.set(i, new Change(Errors.INVALID_REQUEST, "Unknown resource type " + resources.get(i).type()));
            }
        }
        return refused;
    }

    /**
     * A resource type this request changes: ConfigAdminManager.preprocess passes TOPIC, BROKER, CLIENT_METRICS and
     * GROUP in both shapes, and BROKER_LOGGER only in IncrementalAlterConfigs (the legacy AlterConfigs never served
     * loggers).
     */
    private boolean serves(byte type) {
        return ConfigResources.isKnown(type) && (incremental() || type != ConfigResources.BROKER_LOGGER);
    }

    /**
     * What each resource is answered before Kafka authorizes it, by index (null where its authorization comes next):
     * {@link #refusals()}, then for a BROKER or BROKER_LOGGER resource {@code brokers}' part of
     * ConfigAdminManager.preprocess ({@link BrokerConfigChanges#refusalBeforeAuthorization}). Kafka's brokers
     * preprocess a request before its controller's ControllerApis authorizes the rest, so the ACL step answers a
     * refused principal's resource with these, as the handler would.
     *
     * @param api ALTER_CONFIGS or INCREMENTAL_ALTER_CONFIGS
     */
    public static List<Change> refusalsBeforeAuthorization(ApiKey api, Struct body, BrokerConfigChanges brokers) {
        AlterConfigsRequest request = new AlterConfigsRequest(api, body);
        List<Change> refusals = request.refusals();
        for (int i = 0; i < refusals.size(); i++) {
            Resource resource = request.resources().get(i);
            if (refusals.get(i) == null && ConfigResources.isBrokers(resource.type())) {
                refusals.set(i, brokers.refusalBeforeAuthorization(resource.type(), resource.name(),
                        resource.configs(), request.incremental()));
            }
        }
        return refusals;
    }

    /** A request of the same shape with only {@code forwarded} of its resources. */
    Struct with(List<Resource> forwarded) {
        if (incremental()) {
            return new IncrementalAlterConfigsRequestView().validateOnly(validateOnly).resources(forwarded.stream()
                    .map(resource -> new IncrementalAlterConfigsRequestView.AlterConfigsResource(resource.struct()))
                    .toList()).struct();
        }
        return new AlterConfigsRequestView().validateOnly(validateOnly).resources(forwarded.stream()
                .map(resource -> new AlterConfigsRequestView.AlterConfigsResource(resource.struct())).toList()).struct();
    }

    /** The answer: each resource's change, in the request's order. */
    Struct answer(List<Change> changes) {
        if (incremental()) {
            IncrementalAlterConfigsResponseView response = new IncrementalAlterConfigsResponseView();
            for (int i = 0; i < resources.size(); i++) {
                response.addResponse().resourceType(resources.get(i).type()).resourceName(resources.get(i).name())
                        .errorCode(changes.get(i).error().code()).errorMessage(changes.get(i).message());
            }
            return response.struct();
        }
        AlterConfigsResponseView response = new AlterConfigsResponseView();
        for (int i = 0; i < resources.size(); i++) {
            response.addResponse().resourceType(resources.get(i).type()).resourceName(resources.get(i).name())
                    .errorCode(changes.get(i).error().code()).errorMessage(changes.get(i).message());
        }
        return response.struct();
    }

    /** A config named twice, or null values outside a DELETE; null if neither. */
    private static Change configRefusal(List<AlterConfigOp> configs) {
        Set<String> names = new HashSet<>();
        List<String> nullValues = new ArrayList<>();
        boolean twice = false;
        for (AlterConfigOp config : configs) {
            twice |= !names.add(config.name());
            if (config.value() == null && config.operation() != AlterConfigOp.DELETE) {
                nullValues.add(config.name());
            }
        }
        if (twice) {
            return new Change(Errors.INVALID_REQUEST, "Error due to duplicate config keys");
        }
        return nullValues.isEmpty() ? null
                : new Change(Errors.INVALID_REQUEST, "Null value not supported for : " + String.join(", ", nullValues));
    }
}
