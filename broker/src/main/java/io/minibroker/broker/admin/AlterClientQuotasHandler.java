package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.QuotaAlterations;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterClientQuotasRequestView;
import io.minibroker.protocol.message.view.AlterClientQuotasResponseView;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * AlterClientQuotas where the quotas are kept (a single node, or a cluster's controller, which brokers forward it
 * to): every entry checked as Kafka's controller checks it ({@link QuotaAlterations}), the changes of those that pass
 * applied at once unless the request only validates. Runs on the thread that writes files.
 */
public final class AlterClientQuotasHandler implements ApiHandler {

    private final ClientQuotas quotas;

    public AlterClientQuotasHandler(ClientQuotas quotas) {
        this.quotas = quotas;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        AlterClientQuotasRequestView alter = new AlterClientQuotasRequestView(request.body());
        QuotaAlterations alterations = new QuotaAlterations(quotas.all());
        for (AlterClientQuotasRequestView.EntryData entry : alter.entries()) {
            HashMap<String, String> entity = new HashMap<>(entry.entity().size());
            entry.entity().forEach(named -> entity.put(named.entityType(), named.entityName()));
            List<Map.Entry<String, Double>> ops = new ArrayList<>();
            entry.ops().forEach(op -> ops.add(new AbstractMap.SimpleEntry<>(op.key(),
                    op.remove() ? null : op.value())));
            alterations.add(entity, ops);
        }
        if (!alter.validateOnly() && !alterations.changes().isEmpty()) {
            try {
                quotas.alter(alterations.changes());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the client quotas", e);
            }
        }
        AlterClientQuotasResponseView response = new AlterClientQuotasResponseView();
        alterations.results().forEach((entity, result) -> {
            AlterClientQuotasResponseView.EntryData answered = response.addEntry()
                    .errorCode(result.error().code()).errorMessage(result.message());
            entity.entries().forEach((type, name) -> answered.addEntity().entityType(type).entityName(name));
        });
        return CompletableFuture.completedFuture(response.struct());
    }

    /**
     * The answer that refuses the whole request, as Kafka's AlterClientQuotasRequest.getErrorResponse: every entry
     * of the request, its entity as listed, with this error and message.
     */
    public static Struct refusal(Request request, Errors error, String message) {
        AlterClientQuotasResponseView response = new AlterClientQuotasResponseView();
        for (AlterClientQuotasRequestView.EntryData entry : new AlterClientQuotasRequestView(request.body()).entries()) {
            AlterClientQuotasResponseView.EntryData refused = response.addEntry().errorCode(error.code())
                    .errorMessage(message);
            entry.entity().forEach(named -> refused.addEntity().entityType(named.entityType())
                    .entityName(named.entityName()));
        }
        return response.struct();
    }
}
