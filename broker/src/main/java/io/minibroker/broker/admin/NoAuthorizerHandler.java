package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeAcls, CreateAcls and DeleteAcls as a Kafka broker answers them with no {@code authorizer.class.name}:
 * SECURITY_DISABLED, "No Authorizer is configured.", for the request (DescribeAcls) or for each of its creations
 * or filters. Admin tools and UIs that list ACLs then show that there are none to manage, instead of failing on
 * an API the broker does not offer.
 */
public final class NoAuthorizerHandler implements ApiHandler {

    static final String MESSAGE = "No Authorizer is configured.";

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct response = request.api().response().newMessage();
        switch (request.api()) {
            case DESCRIBE_ACLS -> refuse(response);
            case CREATE_ACLS -> request.body().getStructs("Creations")
                    .forEach(creation -> refuse(response.addElement("Results")));
            case DELETE_ACLS -> request.body().getStructs("Filters")
                    .forEach(filter -> refuse(response.addElement("FilterResults")));
            default -> throw new IllegalArgumentException(request.api() + " is not an ACL API");
        }
        return CompletableFuture.completedFuture(response);
    }

    private static void refuse(Struct result) {
        result.set("ErrorCode", Errors.SECURITY_DISABLED.code()).set("ErrorMessage", MESSAGE);
    }
}
