package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.quota.QuotaEntity;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeClientQuotasRequestView;
import io.minibroker.protocol.message.view.DescribeClientQuotasRequestView.ComponentData;
import io.minibroker.protocol.message.view.DescribeClientQuotasResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * DescribeClientQuotas, answered from the quotas this broker holds (its own on a single node, its mirror of the
 * controller's in a cluster, as Kafka's brokers answer from their metadata image). A filter Kafka's broker refuses
 * is refused with its error and message (checked against Kafka 4.3.1): an empty or unknown entity type, one named
 * twice, a match string where its match type takes none or none where it takes one, an unknown match type, ip
 * beside user or client-id. As Kafka's ClientQuotasImage matches: an exact or default component wants the entity to
 * have that type with that name (null for the default); a "specified" component wants the type with any name, the
 * default too; strict wants no other types; no component matches every entity, or none if strict.
 */
public final class DescribeClientQuotasHandler implements ApiHandler {

    private static final Set<String> ENTITY_TYPES = Set.of("user", "client-id", "ip");
    private static final byte MATCH_EXACT = 0;
    private static final byte MATCH_DEFAULT = 1;
    private static final byte MATCH_SPECIFIED = 2;

    private final Supplier<Map<QuotaEntity, Map<String, Double>>> quotas;

    /** Why Kafka would refuse a filter: its error and message. */
    private record Refusal(Errors error, String message) {
    }

    public DescribeClientQuotasHandler(Supplier<Map<QuotaEntity, Map<String, Double>>> quotas) {
        this.quotas = quotas;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DescribeClientQuotasResponseView response = new DescribeClientQuotasResponseView();
        DescribeClientQuotasRequestView describe = new DescribeClientQuotasRequestView(request.body());
        Refusal refusal = refusal(describe.components());
        if (refusal != null) {
            response.errorCode(refusal.error().code()).errorMessage(refusal.message()).entries(null);
            return CompletableFuture.completedFuture(response.struct());
        }
        response.errorCode(Errors.NONE.code()).entries(List.of());
        quotas.get().forEach((entity, values) -> {
            if (matches(entity, describe.components(), describe.strict())) {
                DescribeClientQuotasResponseView.EntryData entry = response.addEntry();
                entity.entries().forEach((type, name) -> entry.addEntity().entityType(type).entityName(name));
                values.forEach((key, value) -> entry.addValue().key(key).value(value));
            }
        });
        return CompletableFuture.completedFuture(response.struct());
    }

    /** Whether the entity passes every component of a filter that {@link #refusal} took. */
    private static boolean matches(QuotaEntity entity, List<ComponentData> components, boolean strict) {
        if (components.isEmpty()) {
            return !strict;
        }
        if (strict && entity.entries().size() != components.size()) {
            return false;
        }
        for (ComponentData component : components) {
            if (!entity.entries().containsKey(component.entityType())) {
                return false;
            }
            String name = entity.entries().get(component.entityType());
            if (component.matchType() == MATCH_EXACT && !component.match().equals(name)
                    || component.matchType() == MATCH_DEFAULT && name != null) {
                return false;
            }
        }
        return true;
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
