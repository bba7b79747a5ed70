package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.ConfigurableTopics.Change;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterConfigsResponseView;
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

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        AlterConfigsRequest alter = new AlterConfigsRequest(api, request.body());
        // Kafka's order: the request's own refusals first, so a resource refused there is neither preprocessed (a
        // logger's level left as it is) nor forwarded.
        List<Change> answers = alter.refusals();
        List<AlterConfigsRequest.Resource> forwarded = new ArrayList<>();
        for (int i = 0; i < answers.size(); i++) {
            AlterConfigsRequest.Resource resource = alter.resources().get(i);
            if (answers.get(i) == null && ConfigResources.isBrokers(resource.type())) {
                answers.set(i, changes.preprocess(resource.type(), resource.name(), resource.configs(),
                        alter.incremental(), alter.validateOnly()));
            }
            if (answers.get(i) == null) {
                forwarded.add(resource);
            }
        }
        if (forwarded.isEmpty()) {
            return CompletableFuture.completedFuture(alter.answer(answers));
        }
        return controller.handle(context, new Request(request.header(), request.api(), alter.with(forwarded)))
                .thenApply(response -> {
                    Map<String, Change> controllerAnswers = controllerAnswers(response);
                    for (int i = 0; i < answers.size(); i++) {
                        if (answers.get(i) == null) {
                            AlterConfigsRequest.Resource resource = alter.resources().get(i);
                            answers.set(i, controllerAnswers.getOrDefault(key(resource.type(), resource.name()),
                                    new Change(Errors.UNKNOWN_SERVER_ERROR, null)));
                        }
                    }
                    return alter.answer(answers);
                });
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

    private static String key(byte type, String name) {
        return type + ":" + name;
    }
}
