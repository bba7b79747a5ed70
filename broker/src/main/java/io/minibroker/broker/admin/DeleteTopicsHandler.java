package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.topic.DeletableTopics;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DeleteTopicsRequestView;
import io.minibroker.protocol.message.view.DeleteTopicsRequestView.DeleteTopicState;
import io.minibroker.protocol.message.view.DeleteTopicsResponseView;
import io.minibroker.protocol.message.view.DeleteTopicsResponseView.DeletableTopicResult;
import io.minibroker.protocol.schema.Struct;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DeleteTopics, by name (v1-5) or by name or topic id (v6+), on a single node's topics or, on the controller, the
 * cluster's. Checked as Kafka's controller checks it: with {@code delete.topic.enable=false} every topic is refused
 * TOPIC_DELETION_DISABLED (INVALID_REQUEST before v3, which has no such error); a topic named twice, by name or by
 * id, is refused once INVALID_REQUEST and not deleted; an entry given both a name and an id, or neither, is refused
 * INVALID_REQUEST each time it appears (Kafka's ControllerApis.deleteTopics answers those entry by entry and the
 * repeated names and ids once each, from sets). An unknown name or id is answered with Kafka's default message of its
 * error (from v5, which has the field), as its controller's look-up answers it.
 *
 * <p>A topic given once by its name and once by its id is not deleted either. The entry by name is refused
 * INVALID_REQUEST; the entry by id gets no result at all, which is what Kafka's controller answers (it drops the
 * id from the topics to delete after it has written the results for ids).
 */
public final class DeleteTopicsHandler implements ApiHandler {

    private static final int DELETION_DISABLED_ERROR_FROM_VERSION = 3;
    private static final int ERROR_MESSAGE_FROM_VERSION = 5;
    private static final int TOPIC_IDS_FROM_VERSION = 6;

    private final DeletableTopics topics;
    private final boolean deleteEnabled;
    private final ControllerMutationQuotas mutationQuotas;

    public DeleteTopicsHandler(DeletableTopics topics, boolean deleteEnabled, ControllerMutationQuotas mutationQuotas) {
        this.topics = topics;
        this.deleteEnabled = deleteEnabled;
        this.mutationQuotas = mutationQuotas;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DeleteTopicsRequestView delete = new DeleteTopicsRequestView(request.body());
        ControllerMutationQuotas.Quota quota = mutationQuotas.newQuotaFor(context.principal().name(),
                request.header().clientId(), request.version(), ControllerMutationQuotas.DELETE_TOPICS_STRICT_SINCE);
        DeleteTopicsResponseView response = new DeleteTopicsResponseView();
        handle(request, delete, response, quota);
        return CompletableFuture.completedFuture(response.throttleTimeMs(quota.throttleTimeMs()).struct());
    }

    private void handle(Request request, DeleteTopicsRequestView delete, DeleteTopicsResponseView response,
                        ControllerMutationQuotas.Quota quota) {
        if (!deleteEnabled) {
            refuseWhole(request, delete, response, request.version() < DELETION_DISABLED_ERROR_FROM_VERSION
                    ? Errors.INVALID_REQUEST : Errors.TOPIC_DELETION_DISABLED);
            return;
        }
        if (PastDeadline.at(delete.timeoutMs()) && anyToLookUp(request, delete)) {
            refuseWhole(request, delete, response, PastDeadline.ERROR);
            return;
        }
        if (request.version() < TOPIC_IDS_FROM_VERSION) {
            Set<String> duplicated = Repeated.keys(delete.topicNames(), name -> name);
            Set<String> answered = new HashSet<>();
            for (String name : delete.topicNames()) {
                if (!answered.add(name)) {
                    continue;
                }
                DeletableTopicResult result = response.addResponse().name(name);
                if (!duplicated.contains(name)) {
                    answer(result, delete(name, quota));
                } else if (request.version() >= ERROR_MESSAGE_FROM_VERSION) {
                    refuse(result, CreatePartitionsHandler.DUPLICATE_TOPIC);
                } else {
                    result.errorCode(Errors.INVALID_REQUEST.code());
                }
            }
            return;
        }
        List<DeleteTopicState> requested = delete.topics();
        Set<Entry> duplicated = Repeated.keys(requested, DeleteTopicsHandler::key);
        Set<UUID> alsoNamed = idsAlsoGivenByName(requested, duplicated);
        Set<Entry> answered = new HashSet<>();
        for (DeleteTopicState state : requested) {
            String name = state.name();
            UUID id = state.topicId();
            boolean malformed = (name == null) == id.equals(TopicIds.ZERO); // neither a name nor an id, or both
            if (!malformed && (!answered.add(key(state)) || (name == null && alsoNamed.contains(id)
                    && !duplicated.contains(key(state))))) {
                continue;
            }
            DeletableTopicResult result = response.addResponse().name(name).topicId(id);
            String invalid = invalidEntry(state, duplicated);
            if (invalid != null) {
                refuse(result, invalid);
            } else if (name != null && topics.idOf(name).filter(alsoNamed::contains).isPresent()) {
                result.topicId(topics.idOf(name).get()); // Kafka names the id it maps to
                refuse(result, "The provided topic name maps to an ID that was already supplied.");
            } else {
                deleteByNameOrId(name, id, result, quota);
            }
        }
    }

    /**
     * A v6+ entry Kafka's controller refuses INVALID_REQUEST before it looks anything up or authorizes: with neither
     * a name nor an id, with both, or given twice alike (a name, or an id, on its own). Its message, or null.
     */
    private static String invalidEntry(DeleteTopicState state, Set<Entry> duplicated) {
        if (state.name() == null && state.topicId().equals(TopicIds.ZERO)) {
            return "Neither topic name nor id were specified.";
        }
        if (state.name() != null && !state.topicId().equals(TopicIds.ZERO)) {
            return "You may not specify both topic name and topic id.";
        }
        if (duplicated.contains(key(state))) {
            return state.name() != null ? CreatePartitionsHandler.DUPLICATE_TOPIC : "Duplicate topic id.";
        }
        return null;
    }

    /**
     * The entries (by index in the request) that Kafka's controller answers before it authorizes, which the ACL step
     * therefore leaves to this handler: every one while {@code delete.topic.enable} is false (the request is refused
     * whole first), else a name given twice and, from v6, {@link #invalidEntry}'s.
     */
    public static Set<Integer> answeredBeforeAuthorization(short version, DeleteTopicsRequestView delete,
                                                           boolean deleteEnabled) {
        Set<Integer> answered = new HashSet<>();
        if (version < TOPIC_IDS_FROM_VERSION) {
            Set<String> duplicated = Repeated.keys(delete.topicNames(), name -> name);
            for (int i = 0; i < delete.topicNames().size(); i++) {
                if (!deleteEnabled || duplicated.contains(delete.topicNames().get(i))) {
                    answered.add(i);
                }
            }
            return answered;
        }
        Set<Entry> duplicated = Repeated.keys(delete.topics(), DeleteTopicsHandler::key);
        for (int i = 0; i < delete.topics().size(); i++) {
            if (!deleteEnabled || invalidEntry(delete.topics().get(i), duplicated) != null) {
                answered.add(i);
            }
        }
        return answered;
    }

    /** Kafka's refusal of the request whole (DeleteTopicsRequest.getErrorResponse): every entry, repeats included. */
    private static void refuseWhole(Request request, DeleteTopicsRequestView delete, DeleteTopicsResponseView response,
                                    Errors error) {
        if (request.version() < TOPIC_IDS_FROM_VERSION) {
            delete.topicNames().forEach(name -> response.addResponse().name(name).errorCode(error.code()));
        } else {
            delete.topics().forEach(state -> response.addResponse().name(state.name())
                    .topicId(state.topicId()).errorCode(error.code()));
        }
    }

    /**
     * Whether Kafka's controller has a name or an id to look up (ControllerApis.deleteTopics' first step, under the
     * request's deadline): an entry given by a name or by an id alone, not repeated. With none it answers the
     * entries' own refusals at once, deadline or not.
     */
    private static boolean anyToLookUp(Request request, DeleteTopicsRequestView delete) {
        if (request.version() < TOPIC_IDS_FROM_VERSION) {
            return Repeated.keys(delete.topicNames(), name -> name).size()
                    < new HashSet<>(delete.topicNames()).size();
        }
        Set<Entry> duplicated = Repeated.keys(delete.topics(), DeleteTopicsHandler::key);
        return delete.topics().stream().anyMatch(state -> !duplicated.contains(key(state))
                && (state.name() == null) != state.topicId().equals(TopicIds.ZERO));
    }

    /** A v6+ entry as given: two entries alike name the same topic twice. */
    private record Entry(String name, UUID id) {
    }

    /**
     * The ids given on their own whose topic is also named, once, by a name given on its own: neither entry
     * deletes it.
     */
    private Set<UUID> idsAlsoGivenByName(List<DeleteTopicState> requested, Set<Entry> duplicated) {
        Set<String> named = new HashSet<>();
        for (DeleteTopicState state : requested) {
            if (state.name() != null && state.topicId().equals(TopicIds.ZERO)
                    && !duplicated.contains(key(state))) {
                named.add(state.name());
            }
        }
        Set<UUID> alsoNamed = new HashSet<>();
        for (DeleteTopicState state : requested) {
            UUID id = state.topicId();
            if (state.name() == null && !id.equals(TopicIds.ZERO)
                    && topics.nameOf(id).filter(named::contains).isPresent()) {
                alsoNamed.add(id);
            }
        }
        return alsoNamed;
    }

    private static Entry key(DeleteTopicState state) {
        return new Entry(state.name(), state.topicId());
    }

    private static void refuse(DeletableTopicResult result, String message) {
        result.errorCode(Errors.INVALID_REQUEST.code()).errorMessage(message);
    }

    /**
     * An entry's outcome: an unknown name or id with its error's default message, which Kafka's controller's look-up
     * (findTopicIds, findTopicNames) carries in its ApiError; any other without one.
     */
    private static void answer(DeletableTopicResult result, Errors error) {
        boolean unknown = error == Errors.UNKNOWN_TOPIC_OR_PARTITION || error == Errors.UNKNOWN_TOPIC_ID;
        result.errorCode(error.code()).errorMessage(unknown ? DefaultMessages.of(error) : null);
    }

    /**
     * Deletes a topic once its partitions are within the client's controller_mutation_rate, as Kafka's controller
     * counts them (ReplicationControlManager.deleteTopics: an unknown topic is answered first); a refused one is
     * answered with no message, as Kafka's (ApiError.fromThrowable drops one equal to the error's default).
     */
    private Errors delete(String name, ControllerMutationQuotas.Quota quota) {
        int partitions = topics.partitionCount(name);
        if (partitions < 0) {
            return Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        return quota.record(partitions) ? topics.delete(name) : Errors.THROTTLING_QUOTA_EXCEEDED;
    }

    private void deleteByNameOrId(String name, UUID id, DeletableTopicResult result,
                                  ControllerMutationQuotas.Quota quota) {
        if (name == null) {
            Optional<String> named = topics.nameOf(id);
            if (named.isEmpty()) {
                answer(result, Errors.UNKNOWN_TOPIC_ID);
                return;
            }
            name = named.get();
        }
        UUID deletedId = topics.idOf(name).orElse(TopicIds.ZERO);
        answer(result.name(name).topicId(deletedId), delete(name, quota));
    }
}
