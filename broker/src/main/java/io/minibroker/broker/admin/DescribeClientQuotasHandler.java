package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeClientQuotasRequestView;
import io.minibroker.protocol.message.view.DescribeClientQuotasRequestView.ComponentData;
import io.minibroker.protocol.message.view.DescribeClientQuotasResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeClientQuotas on a broker without client quotas: every filter Kafka accepts matches nothing, which is
 * the truth here (no quota is enforced, and AlterClientQuotas is not offered, so none can be set). It lets
 * {@code kafka-configs --describe --entity-type users}, which asks for a user's quotas before its SCRAM
 * credentials, work. A filter Kafka's broker refuses is refused with its error and message (checked against
 * Kafka 4.3.1): an empty or unknown entity type, one named twice, a match string where its match type takes none
 * or none where it takes one, an unknown match type, ip beside user or client-id.
 */
public final class DescribeClientQuotasHandler implements ApiHandler {

    private static final Set<String> ENTITY_TYPES = Set.of("user", "client-id", "ip");
    private static final byte MATCH_EXACT = 0;
    private static final byte MATCH_DEFAULT = 1;
    private static final byte MATCH_SPECIFIED = 2;

    /** Why Kafka would refuse a filter: its error and message. */
    private record Refusal(Errors error, String message) {
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DescribeClientQuotasResponseView response = new DescribeClientQuotasResponseView();
        Refusal refusal = refusal(new DescribeClientQuotasRequestView(request.body()).components());
        if (refusal != null) {
            response.errorCode(refusal.error().code()).errorMessage(refusal.message()).entries(null);
        } else {
            response.errorCode(Errors.NONE.code()).entries(List.of());
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    /** Why Kafka's broker (its ClientQuotasImage) would refuse this filter, checked in its order; or null. */
    private static Refusal refusal(List<ComponentData> components) {
        Set<String> types = new HashSet<>();
        for (ComponentData component : components) {
            String type = component.entityType();
            byte match = component.matchType();
            String matched = component.match();
            if (type.isEmpty()) {
                return invalid("Invalid empty entity type.");
            }
            if (types.contains(type)) {
                return invalid("Entity type " + type + " cannot appear more than once in the filter.");
            }
            if (!ENTITY_TYPES.contains(type)) {
                return new Refusal(Errors.UNSUPPORTED_VERSION, "Unsupported entity type " + type);
            }
            if (match == MATCH_EXACT && matched == null) {
                return invalid("Request specified MATCH_TYPE_EXACT, but set match string to null.");
            } else if (match == MATCH_DEFAULT && matched != null) {
                return invalid("Request specified MATCH_TYPE_DEFAULT, but also specified a match string.");
            } else if (match == MATCH_SPECIFIED && matched != null) {
                return invalid("Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.");
            } else if (match < MATCH_EXACT || match > MATCH_SPECIFIED) {
                return invalid("Unknown match type " + match);
            }
            types.add(type);
        }
        if (types.contains("ip") && (types.contains("user") || types.contains("client-id"))) {
            return invalid("Invalid entity filter component combination. IP filter component should not be used"
                    + " with user or clientId filter component.");
        }
        return null;
    }

    private static Refusal invalid(String message) {
        return new Refusal(Errors.INVALID_REQUEST, message);
    }
}
