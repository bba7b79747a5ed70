package io.minibroker.broker.authz;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.TopicRights;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.ErrorCodes;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One request's questions to the authorizer, as Kafka's AuthHelper asks them: the principal and client address
 * of the connection, read once per request, and the shapes of answer a refused request or resource gets; a served
 * handler gets the principal's {@link TopicRights} with it.
 */
final class Access {

    /** The top-level field of an answer that {@link #refuseWithMessage} fills. */
    private static final String ERROR_MESSAGE = "ErrorMessage";

    private final Authorizer authorizer;
    private final KafkaPrincipal principal;
    private final String host;
    private final RequestContext context;
    private final Request request;
    private final ApiHandler handler;

    Access(Authorizer authorizer, RequestContext context, Request request, ApiHandler handler) {
        this.authorizer = authorizer;
        this.principal = context.principal();
        this.host = AclApisHandler.host(context.clientAddress());
        this.context = context;
        this.request = request;
        this.handler = handler;
    }

    Request request() {
        return request;
    }

    boolean allowed(AclOperation operation, ResourceType type, String name) {
        return authorizer.authorize(principal, host, operation, type, name);
    }

    /**
     * TOPIC_AUTHORIZATION_FAILED unless {@code operation} is allowed on the topic, else null; null for a topic
     * without a name too (named by an id this broker does not know), which its handler answers UNKNOWN_TOPIC_ID, as
     * Kafka resolves ids before it authorizes.
     */
    Errors topicRefusal(AclOperation operation, String name) {
        return name == null || allowed(operation, ResourceType.TOPIC, name) ? null : Errors.TOPIC_AUTHORIZATION_FAILED;
    }

    boolean allowedOnCluster(AclOperation operation) {
        return allowed(operation, ResourceType.CLUSTER, AclBinding.CLUSTER_NAME);
    }

    /** Kafka's authorizeByResourceType: the operation is allowed on some resource of the type. */
    boolean allowedOnAny(AclOperation operation, ResourceType type) {
        return authorizer.allowsAny(principal, host, operation, type);
    }

    /**
     * Kafka's authorized-operations field for a resource: a bit (at the operation's code) for each operation Kafka
     * supports on the resource type that this principal is allowed, as Kafka's AuthHelper.authorizedOperations
     * reads them.
     */
    int authorizedOperations(ResourceType type, String name) {
        int bits = 0;
        for (AclOperation operation : AuthorizedOperations.SUPPORTED.get(type)) {
            if (allowed(operation, type, name)) {
                bits |= 1 << operation.code();
            }
        }
        return bits;
    }

    /** The cluster's authorized operations where DESCRIBE on it is allowed, else none (0), as Kafka answers. */
    int clusterAuthorizedOperations() {
        return allowedOnCluster(AclOperation.DESCRIBE)
                ? authorizedOperations(ResourceType.CLUSTER, AclBinding.CLUSTER_NAME) : 0;
    }

    /** The authorized-operations fields the request asks for, filled in its answer with this principal's. */
    void fillAuthorizedOperations(Struct answer) {
        AuthorizedOperations.fill(request, answer, this::authorizedOperations, this::clusterAuthorizedOperations);
    }

    /** Serves the request as it stands. */
    CompletionStage<Struct> serve() {
        return handler.handle(context, request);
    }

    /**
     * Serves the request, telling its handler what the principal may do with topics the request does not name: rights
     * that hold the authorizer, principal and host only, as a handler may keep them past the request (a KIP-848
     * member keeps its heartbeat's until the next one) and must not keep the request's buffers alive with them. Only
     * for the handlers that read them (ConsumerGroupHeartbeat's regular expressions, ShareFetch's session partitions):
     * the others' requests, Produce and Fetch among them, allocate no rights and no second context.
     */
    CompletionStage<Struct> serveWithTopicRights() {
        return handler.handle(context.withTopicRights(new PrincipalRights(authorizer, principal, host)), request);
    }

    /** A principal's rights on topics, as the authorizer answers them now. */
    private record PrincipalRights(Authorizer authorizer, KafkaPrincipal principal, String host)
            implements TopicRights {

        @Override
        public boolean mayDescribe(String topic) {
            return authorizer.authorize(principal, host, AclOperation.DESCRIBE, ResourceType.TOPIC, topic);
        }

        @Override
        public boolean mayRead(String topic) {
            return authorizer.authorize(principal, host, AclOperation.READ, ResourceType.TOPIC, topic);
        }

        @Override
        public boolean mayCreate(String topic) {
            return authorizer.authorize(principal, host, AclOperation.CREATE, ResourceType.CLUSTER,
                    AclBinding.CLUSTER_NAME)
                    || authorizer.authorize(principal, host, AclOperation.CREATE, ResourceType.TOPIC, topic);
        }
    }

    /**
     * The refusal of the whole request in Kafka's {@code getErrorResponse} shape for an API answered with a top-level
     * error code: that code set, every other field at its default.
     */
    CompletionStage<Struct> refuse(Errors error) {
        return CompletableFuture.completedFuture(errorAnswer(error));
    }

    /**
     * {@link #refuse}, with Kafka's {@link #message} of the error in the answer's top-level ErrorMessage too, as
     * Kafka's error answer of an API that has one sets it (AlterShareGroupOffsets, DeleteShareGroupOffsets).
     */
    CompletionStage<Struct> refuseWithMessage(Errors error) {
        return CompletableFuture.completedFuture(errorAnswer(error).set(ERROR_MESSAGE, message(error)));
    }

    private Struct errorAnswer(Errors error) {
        return ErrorCodes.topLevelAnswer(request.api().response(), request.version(), error.code());
    }

    /** The refusal of the whole request in the shape {@code answer} builds. */
    static CompletionStage<Struct> answer(Struct body) {
        return CompletableFuture.completedFuture(body);
    }

    /** Kafka's description of an authorization error, which answers carrying an error message repeat. */
    static String message(Errors error) {
        return switch (error) {
            case TOPIC_AUTHORIZATION_FAILED -> "Topic authorization failed.";
            case GROUP_AUTHORIZATION_FAILED -> "Group authorization failed.";
            case CLUSTER_AUTHORIZATION_FAILED -> "Cluster authorization failed.";
            case TRANSACTIONAL_ID_AUTHORIZATION_FAILED -> "Transactional Id authorization failed.";
            default -> null;
        };
    }

    /**
     * A request item (topic, group, resource) this request may not act on, the error it is answered with, and its
     * index among the request's items.
     */
    record Refused<T>(T item, Errors error, int index) {
    }

    /**
     * Where the answers to refused items go in a response's list of entries (its groups or topics), read by
     * {@code entries} and set by {@code replace}: before the served entries ({@link #refusedFirst}), or each at its
     * item's index in the request ({@link #inRequestOrder}). Placed by position, not by error code, so an entry the
     * handler itself answered with the same error stays where the handler put it.
     */
    record Placement<E>(boolean first, Function<Struct, List<E>> entries, BiConsumer<Struct, List<E>> replace) {

        /** Before the served entries, as Kafka answers the refused items before it asks its coordinator. */
        static <E> Placement<E> refusedFirst(Function<Struct, List<E>> entries,
                                             BiConsumer<Struct, List<E>> replace) {
            return new Placement<>(true, entries, replace);
        }

        /**
         * Each at its item's index in the request, the served entries in their order around them, as Kafka answers
         * the items in the request's order: the handler answers each served item with one entry, in order.
         */
        static <E> Placement<E> inRequestOrder(Function<Struct, List<E>> entries,
                                               BiConsumer<Struct, List<E>> replace) {
            return new Placement<>(false, entries, replace);
        }

        /** Answers each refused item with {@code answer}, which adds its entries at the end, then places them. */
        <T> void answer(Struct body, List<Refused<T>> refused, BiConsumer<Struct, Refused<T>> answer) {
            int served = size(body);
            int[] ends = new int[refused.size()]; // where each refused item's entries end, as added
            for (int i = 0; i < refused.size(); i++) {
                answer.accept(body, refused.get(i));
                ends[i] = size(body);
            }
            if (ends[ends.length - 1] == served) {
                return; // no answer added an entry: the response was refused whole, and keeps its shape
            }
            List<E> all = entries.apply(body); // the served entries, then the refused ones
            List<E> placed = new ArrayList<>(all.size());
            int next = 0; // the next served entry to place
            for (int i = 0; i < refused.size(); i++) {
                // the served items before the i-th refused one in the request: its index less the refused before it
                int before = first ? 0 : Math.min(refused.get(i).index() - i, served);
                while (next < before) {
                    placed.add(all.get(next++));
                }
                for (int entry = i == 0 ? served : ends[i - 1]; entry < ends[i]; entry++) {
                    placed.add(all.get(entry));
                }
            }
            while (next < served) {
                placed.add(all.get(next++));
            }
            replace.accept(body, placed);
        }

        private int size(Struct body) {
            List<E> list = entries.apply(body);
            return list == null ? 0 : list.size();
        }
    }

    /**
     * Serves the request with only the {@code items} that {@code refusal} finds no error for (put back with
     * {@code keep}), then adds an answer for each refused item to the response with {@code answer}, as Kafka's
     * handlers merge the authorized results with the unauthorized ones. With nothing refused the request is served
     * untouched; with everything refused it is not served at all (a fetch left with no partitions must not wait).
     */
    <T> CompletionStage<Struct> serveAllowed(List<T> items, Function<T, Errors> refusal, Consumer<List<T>> keep,
                                             BiConsumer<Struct, Refused<T>> answer) {
        return serveAllowed(items, refusal, keep, answer, false);
    }

    /** As above, but served even with every item refused, for a response that carries more than the items. */
    <T> CompletionStage<Struct> serveAllowed(List<T> items, Function<T, Errors> refusal, Consumer<List<T>> keep,
                                             BiConsumer<Struct, Refused<T>> answer, boolean serveEmpty) {
        return serveAllowed(items, refusal, keep, serveEmpty, (body, refused) -> refused.forEach(
                r -> answer.accept(body, r)));
    }

    /** As above, the answers to the refused items placed in the response's entries as {@code placement} says. */
    <T, E> CompletionStage<Struct> serveAllowed(List<T> items, Function<T, Errors> refusal, Consumer<List<T>> keep,
                                                BiConsumer<Struct, Refused<T>> answer, boolean serveEmpty,
                                                Placement<E> placement) {
        return serveAllowed(items, refusal, keep, serveEmpty,
                (body, refused) -> placement.answer(body, refused, answer));
    }

    private <T> CompletionStage<Struct> serveAllowed(List<T> items, Function<T, Errors> refusal,
                                                     Consumer<List<T>> keep, boolean serveEmpty,
                                                     BiConsumer<Struct, List<Refused<T>>> answerAll) {
        List<T> kept = new ArrayList<>(items.size());
        List<Refused<T>> refused = new ArrayList<>();
        int index = 0;
        for (T item : items) {
            Errors error = refusal.apply(item);
            if (error == null) {
                kept.add(item);
            } else {
                refused.add(new Refused<>(item, error, index));
            }
            index++;
        }
        if (refused.isEmpty()) {
            return serve();
        }
        CompletionStage<Struct> served;
        if (kept.isEmpty() && !serveEmpty) {
            served = answer(request.api().response().newMessage());
        } else {
            keep.accept(kept);
            served = serve();
        }
        return served.thenApply(body -> {
            if (body != null) {
                answerAll.accept(body, refused);
            }
            return body;
        });
    }

    /** Serves the request and then hands its response to {@code filter} (which hides what may not be seen). */
    CompletionStage<Struct> serveFiltered(Consumer<Struct> filter) {
        return serve().thenApply(body -> {
            if (body != null) {
                filter.accept(body);
            }
            return body;
        });
    }
}
