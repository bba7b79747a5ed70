package io.minibroker.broker.transaction;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ListTransactionsRequestView;
import io.minibroker.protocol.message.view.ListTransactionsResponseView;
import io.minibroker.protocol.schema.Struct;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ListTransactions ({@code kafka-transactions.sh list}, {@code find-hanging}): the transactions this node
 * coordinates, filtered as Kafka filters them: by state, by producer id, by duration (v1: open longer than the
 * given milliseconds) and by a transactional id pattern (v2, a regular expression the whole id must match, in
 * RE2/J's syntax as Kafka 4.3.1's TransactionStateManager compiles it: backreferences and lookaround are not
 * regular, and an unparsable pattern is INVALID_REGULAR_EXPRESSION). State filters that name no state of Kafka's are listed back as
 * unknown, each once (Kafka's TransactionStateManager takes the filters as a set), and match nothing.
 */
public final class ListTransactionsHandler implements ApiHandler {

    private static final short DURATION_FILTER_FROM = 1;
    private static final short PATTERN_FROM = 2;

    private final TransactionCoordinator coordinator;

    public ListTransactionsHandler(TransactionCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ListTransactionsRequestView body = new ListTransactionsRequestView(request.body());
        ListTransactionsResponseView response = new ListTransactionsResponseView();
        String text = request.version() >= PATTERN_FROM ? body.transactionalIdPattern() : null;
        Pattern pattern = null;
        if (text != null && !text.isEmpty()) {
            try {
                pattern = Pattern.compile(text);
            } catch (PatternSyntaxException e) {
                return CompletableFuture.completedFuture(
                        response.errorCode(Errors.INVALID_REGULAR_EXPRESSION.code()).struct());
            }
        }
        Set<String> unknown = new LinkedHashSet<>();
        Set<TransactionState> states = EnumSet.noneOf(TransactionState.class);
        for (String name : body.stateFilters()) {
            Optional<TransactionState> state = TransactionState.fromName(name);
            if (state.isPresent()) {
                states.add(state.get());
            } else {
                unknown.add(name);
            }
        }
        response.unknownStateFilters(List.copyOf(unknown));
        if (!unknown.isEmpty() && states.isEmpty()) {
            return CompletableFuture.completedFuture(response.struct()); // only unknown states: nothing matches
        }
        long duration = request.version() >= DURATION_FILTER_FROM ? body.durationFilter() : -1;
        TransactionCoordinator.ListFilter filter = new TransactionCoordinator.ListFilter(states,
                Set.copyOf(body.producerIdFilters()), duration, pattern);
        return coordinator.list(filter).thenApply(listing -> {
            response.errorCode(listing.error().code());
            listing.transactions().forEach(metadata -> response.addTransactionState()
                    .transactionalId(metadata.transactionalId())
                    .producerId(metadata.producerId())
                    .transactionState(metadata.state().stateName()));
            return response.struct();
        });
    }
}
