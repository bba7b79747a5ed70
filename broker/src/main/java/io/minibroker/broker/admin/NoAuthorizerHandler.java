package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreateAclsRequestView;
import io.minibroker.protocol.message.view.CreateAclsResponseView;
import io.minibroker.protocol.message.view.DeleteAclsRequestView;
import io.minibroker.protocol.message.view.DeleteAclsResponseView;
import io.minibroker.protocol.message.view.DescribeAclsResponseView;
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
    private static final short CODE = Errors.SECURITY_DISABLED.code();

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        return CompletableFuture.completedFuture(switch (request.api()) {
            case DESCRIBE_ACLS -> new DescribeAclsResponseView().errorCode(CODE).errorMessage(MESSAGE).struct();
            case CREATE_ACLS -> {
                CreateAclsResponseView response = new CreateAclsResponseView();
                new CreateAclsRequestView(request.body()).creations()
                        .forEach(creation -> response.addResult().errorCode(CODE).errorMessage(MESSAGE));
                yield response.struct();
            }
            case DELETE_ACLS -> {
                DeleteAclsResponseView response = new DeleteAclsResponseView();
                new DeleteAclsRequestView(request.body()).filters()
                        .forEach(filter -> response.addFilterResult().errorCode(CODE).errorMessage(MESSAGE));
                yield response.struct();
            }
            default -> throw new IllegalArgumentException(request.api() + " is not an ACL API");
        });
    }
}
