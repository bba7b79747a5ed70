package io.minibroker.broker.api;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
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
 * credentials, work. A filter Kafka refuses is refused INVALID_REQUEST with its message: an entity type other than
 * user, client-id and ip, one named twice, ip beside user or client-id, an unknown match type.
 */
public final class DescribeClientQuotasHandler implements ApiHandler {

    private static final Set<String> ENTITY_TYPES = Set.of("user", "client-id", "ip");
    private static final byte MATCH_EXACT = 0;
    private static final byte MATCH_SPECIFIED = 2;

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct response = ApiKey.DESCRIBE_CLIENT_QUOTAS.response().newMessage();
        String refusal = refusal(request.body().getStructs("Components"));
        if (refusal != null) {
            response.set("ErrorCode", Errors.INVALID_REQUEST.code()).set("ErrorMessage", refusal).set("Entries", null);
        } else {
            response.set("ErrorCode", Errors.NONE.code()).set("Entries", List.of());
        }
        return CompletableFuture.completedFuture(response);
    }

    /** Why Kafka would refuse this filter, or null. */
    private static String refusal(List<Struct> components) {
        Set<String> types = new HashSet<>();
        for (Struct component : components) {
            String type = component.getString("EntityType");
            byte match = component.getInt8("MatchType");
            if (!ENTITY_TYPES.contains(type)) {
                return "Custom entity type '" + type + "' not supported";
            }
            if (!types.add(type)) {
                return "Duplicate " + type + " filter component entity type";
            }
            if (match < MATCH_EXACT || match > MATCH_SPECIFIED) {
                return "Unknown match type: " + match;
            }
        }
        if (types.contains("ip") && types.size() > 1) {
            return "Invalid entity filter component combination, IP filter component should not be used with user"
                    + " or clientId filter component.";
        }
        return null;
    }
}
