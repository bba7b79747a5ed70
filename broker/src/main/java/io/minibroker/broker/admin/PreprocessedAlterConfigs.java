package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.ConfigurableTopics.Change;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterConfigsRequestView;
import io.minibroker.protocol.message.view.AlterConfigsResponseView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsRequestView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A cluster broker's AlterConfigs and IncrementalAlterConfigs, as Kafka's brokers split them: the BROKER and
 * BROKER_LOGGER resources are preprocessed here ({@link BrokerConfigChanges#preprocess}: this broker's id, Kafka's
 * dynamic-config checks, a logger's level set here), and what remains (topics, groups, the broker changes that passed)
 * goes to the controller in one request; the answer lists every resource in the request's order, as Kafka's
 * ConfigAdminManager reassembles it.
 */
public final class PreprocessedAlterConfigs implements ApiHandler {

    private final ApiKey api;
    private final BrokerConfigChanges changes;
    private final ApiHandler controller;

    /** @param controller forwards a request to the controller and completes with its answer */
    public PreprocessedAlterConfigs(ApiKey api, BrokerConfigChanges changes, ApiHandler controller) {
        this.api = api;
        this.changes = changes;
        this.controller = controller;
    }

    /** One resource of either request shape, and its answer once known here (null while it is the controller's). */
    private record Resource(byte type, String name, Change preprocessed) {
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        boolean incremental = api == ApiKey.INCREMENTAL_ALTER_CONFIGS;
        List<Resource> resources = new ArrayList<>();
        Struct forwarded;
        if (incremental) {
            IncrementalAlterConfigsRequestView alter = new IncrementalAlterConfigsRequestView(request.body());
            List<IncrementalAlterConfigsRequestView.AlterConfigsResource> remaining = new ArrayList<>();
            for (IncrementalAlterConfigsRequestView.AlterConfigsResource resource : alter.resources()) {
                Change change = preprocess(resource.resourceType(), resource.resourceName(), resource.configs()
                        .stream().map(config -> new AlterConfigOp(config.name(), config.value(),
                                config.configOperation())).toList(), true, alter.validateOnly());
                resources.add(new Resource(resource.resourceType(), resource.resourceName(), change));
                if (change == null) {
                    remaining.add(resource);
                }
            }
            forwarded = remaining.isEmpty() ? null : new IncrementalAlterConfigsRequestView()
                    .validateOnly(alter.validateOnly()).resources(remaining).struct();
        } else {
            AlterConfigsRequestView alter = new AlterConfigsRequestView(request.body());
            List<AlterConfigsRequestView.AlterConfigsResource> remaining = new ArrayList<>();
            for (AlterConfigsRequestView.AlterConfigsResource resource : alter.resources()) {
                Change change = preprocess(resource.resourceType(), resource.resourceName(), resource.configs()
                        .stream().map(config -> new AlterConfigOp(config.name(), config.value(), AlterConfigOp.SET))
                        .toList(), false, alter.validateOnly());
                resources.add(new Resource(resource.resourceType(), resource.resourceName(), change));
                if (change == null) {
                    remaining.add(resource);
                }
            }
            forwarded = remaining.isEmpty() ? null : new AlterConfigsRequestView()
                    .validateOnly(alter.validateOnly()).resources(remaining).struct();
        }
        if (forwarded == null) {
            return CompletableFuture.completedFuture(answer(resources, Map.of()));
        }
        return controller.handle(context, new Request(request.header(), request.api(), forwarded))
                .thenApply(response -> answer(resources, controllerAnswers(response)));
    }

    /** A BROKER or BROKER_LOGGER resource's answer here; null for one the controller answers. */
    private Change preprocess(byte type, String name, List<AlterConfigOp> ops, boolean incremental,
                              boolean validateOnly) {
        if (type != ConfigResources.BROKER && type != ConfigResources.BROKER_LOGGER) {
            return null;
        }
        return changes.preprocess(type, name, ops, incremental, validateOnly);
    }

    /** The controller's answers by resource type and name (a controller that answered none leaves a gap, below). */
    private Map<String, Change> controllerAnswers(Struct response) {
        Map<String, Change> answers = new HashMap<>();
        if (api == ApiKey.INCREMENTAL_ALTER_CONFIGS) {
            new IncrementalAlterConfigsResponseView(response).responses().forEach(answer -> answers.put(
                    key(answer.resourceType(), answer.resourceName()),
                    new Change(Errors.forCode(answer.errorCode()), answer.errorMessage())));
        } else {
            new AlterConfigsResponseView(response).responses().forEach(answer -> answers.put(
                    key(answer.resourceType(), answer.resourceName()),
                    new Change(Errors.forCode(answer.errorCode()), answer.errorMessage())));
        }
        return answers;
    }

    /** Every resource in the request's order: its answer here, else the controller's, else UNKNOWN_SERVER_ERROR. */
    private Struct answer(List<Resource> resources, Map<String, Change> controllerAnswers) {
        IncrementalAlterConfigsResponseView incremental = new IncrementalAlterConfigsResponseView();
        AlterConfigsResponseView legacy = new AlterConfigsResponseView();
        for (Resource resource : resources) {
            Change change = resource.preprocessed() != null ? resource.preprocessed()
                    : controllerAnswers.getOrDefault(key(resource.type(), resource.name()),
                            new Change(Errors.UNKNOWN_SERVER_ERROR, null));
            if (api == ApiKey.INCREMENTAL_ALTER_CONFIGS) {
                incremental.addResponse().resourceType(resource.type()).resourceName(resource.name())
                        .errorCode(change.error().code()).errorMessage(change.message());
            } else {
                legacy.addResponse().resourceType(resource.type()).resourceName(resource.name())
                        .errorCode(change.error().code()).errorMessage(change.message());
            }
        }
        return api == ApiKey.INCREMENTAL_ALTER_CONFIGS ? incremental.struct() : legacy.struct();
    }

    private static String key(byte type, String name) {
        return type + ":" + name;
    }
}
