package io.minibroker.broker.transaction;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ListTransactionsRequestView;
import io.minibroker.protocol.message.view.ListTransactionsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * ListTransactions ({@code kafka-transactions.sh list}) on a broker that coordinates no transactions (there is
 * no transaction coordinator yet, and InitProducerId refuses transactional ids): no transaction states, with
 * Kafka's checks of the filters. State filters that name no state of Kafka's are listed back as unknown; an
 * unparsable transactional id pattern (v2) is INVALID_REGULAR_EXPRESSION.
 */
public final class ListTransactionsHandler implements ApiHandler {

    /** Kafka's transaction states, as ListTransactions names them. */
    private static final Set<String> STATES = Set.of("Empty", "Ongoing", "PrepareCommit", "PrepareAbort",
            "CompleteCommit", "CompleteAbort", "Dead", "PrepareEpochFence");

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ListTransactionsRequestView body = new ListTransactionsRequestView(request.body());
        ListTransactionsResponseView response = new ListTransactionsResponseView();
        String pattern = request.version() >= 2 ? body.transactionalIdPattern() : null;
        if (pattern != null && !pattern.isEmpty()) {
            try {
                Pattern.compile(pattern);
            } catch (PatternSyntaxException e) {
                return CompletableFuture.completedFuture(
                        response.errorCode(Errors.INVALID_REGULAR_EXPRESSION.code()).struct());
            }
        }
        List<String> unknown = body.stateFilters().stream()
                .filter(state -> !STATES.contains(state)).toList();
        return CompletableFuture.completedFuture(response.unknownStateFilters(unknown).struct());
    }
}
