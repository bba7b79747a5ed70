package io.minibroker.broker.authz;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.CloseConnection;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreateAclsRequestView;
import io.minibroker.protocol.message.view.CreateAclsResponseView;
import io.minibroker.protocol.message.view.DeleteAclsRequestView;
import io.minibroker.protocol.message.view.DeleteAclsResponseView;
import io.minibroker.protocol.message.view.DescribeAclsRequestView;
import io.minibroker.protocol.message.view.DescribeAclsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeAcls, CreateAcls and DeleteAcls against the {@link StandardAuthorizer}, as Kafka 4.3 answers them. A
 * request with an element whose code is UNKNOWN's (0) closes the connection unanswered: Kafka's request classes
 * refuse it while parsing, before any authorization. Then DESCRIBE on the cluster to list, ALTER on the cluster to
 * change (else CLUSTER_AUTHORIZATION_FAILED); a creation naming ANY or MATCH where a binding needs a definite value
 * fails the whole request (Kafka's AclBinding cannot be made: UNKNOWN_SERVER_ERROR for every creation); any other
 * invalid binding, or a deletion filter with a code Kafka does not know, is answered INVALID_REQUEST for itself
 * while the others proceed; a listing filter with such a code matches nothing. Creating and deleting rewrite the
 * ACL file, so they belong on the disk thread; describing reads only the authorizer's immutable index.
 *
 * <p>In a cluster the controller keeps the ACLs: a broker answers DescribeAcls from its copy of the controller's
 * image and forwards CreateAcls and DeleteAcls once it has checked ALTER on the cluster ({@link #forwarding}); the
 * controller's own handler checks again, the forwarding broker's principal (which {@code super.users} names, as
 * Kafka's brokers must be), so that a client reaching the controller's listener directly changes nothing.
 */
public final class AclApisHandler implements ApiHandler {

    private final StandardAuthorizer authorizer;

    public AclApisHandler(StandardAuthorizer authorizer) {
        this.authorizer = authorizer;
    }

    /**
     * A cluster broker's handler: DescribeAcls, and the changes the client may not make, answered here from
     * {@code image}'s ACLs (the refusals write nothing, so this runs on the event loop); the changes it may make
     * go to {@code controller}.
     */
    public static ApiHandler forwarding(StandardAuthorizer image, ApiHandler controller) {
        AclApisHandler local = new AclApisHandler(image);
        return (context, request) -> {
            closeOnUnknownElements(request);
            return request.api() == ApiKey.DESCRIBE_ACLS || !local.allowed(context, request)
                    ? local.handle(context, request) : controller.handle(context, request);
        };
    }

    /** The host ACLs name: the client's IP address as text. */
    public static String host(SocketAddress address) {
        return address instanceof InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getHostAddress() : String.valueOf(address);
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        closeOnUnknownElements(request);
        String refusal = allowed(context, request) ? null : "Request " + request.api() + " from "
                + context.principal() + " is not authorized.";
        try {
            return CompletableFuture.completedFuture(switch (request.api()) {
                case DESCRIBE_ACLS -> describe(new DescribeAclsRequestView(request.body()), refusal);
                case CREATE_ACLS -> create(new CreateAclsRequestView(request.body()), refusal);
                case DELETE_ACLS -> delete(new DeleteAclsRequestView(request.body()), refusal);
                default -> throw new IllegalArgumentException(request.api() + " is not an ACL API");
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the ACLs", e);
        }
    }

    /**
     * Closes the connection (Kafka's socket server does, failing to parse the request) when a binding or filter has
     * a resource type, pattern type, operation or permission whose code is UNKNOWN's: Kafka's CreateAclsRequest,
     * DescribeAclsRequest and DeleteAclsRequest compare the codes as sent, so a code Kafka does not know (other than
     * 0) passes here and is judged as UNKNOWN later.
     */
    private static void closeOnUnknownElements(Request request) {
        byte unknown = AclOperation.UNKNOWN.code();
        boolean anyUnknown = switch (request.api()) {
            case CREATE_ACLS -> new CreateAclsRequestView(request.body()).creations().stream().anyMatch(c ->
                    c.resourceType() == unknown || c.resourcePatternType() == unknown || c.operation() == unknown
                            || c.permissionType() == unknown);
            case DESCRIBE_ACLS -> {
                DescribeAclsRequestView f = new DescribeAclsRequestView(request.body());
                yield f.resourceTypeFilter() == unknown || f.patternTypeFilter() == unknown
                        || f.operation() == unknown || f.permissionType() == unknown;
            }
            case DELETE_ACLS -> new DeleteAclsRequestView(request.body()).filters().stream().anyMatch(f ->
                    f.resourceTypeFilter() == unknown || f.patternTypeFilter() == unknown || f.operation() == unknown
                            || f.permissionType() == unknown);
            default -> false;
        };
        if (anyUnknown) {
            throw new CloseConnection(request.api() + " names an UNKNOWN resource type, pattern type, operation or"
                    + " permission");
        }
    }

    /** DESCRIBE on the cluster to list, ALTER to change. */
    private boolean allowed(RequestContext context, Request request) {
        AclOperation needed = request.api() == ApiKey.DESCRIBE_ACLS ? AclOperation.DESCRIBE : AclOperation.ALTER;
        return authorizer.authorize(context.principal(), host(context.clientAddress()), needed,
                ResourceType.CLUSTER, AclBinding.CLUSTER_NAME);
    }

    private Struct describe(DescribeAclsRequestView request, String refusal) {
        DescribeAclsResponseView response = new DescribeAclsResponseView();
        if (refusal != null) {
            return response.errorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code()).errorMessage(refusal).struct();
        }
        // A code Kafka does not know reads as UNKNOWN, which matches no binding: an empty answer, as Kafka's.
        AclBindingFilter filter = new AclBindingFilter(ResourceType.fromCode(request.resourceTypeFilter()),
                request.resourceNameFilter(), PatternType.fromCode(request.patternTypeFilter()),
                request.principalFilter(), request.hostFilter(), AclOperation.fromCode(request.operation()),
                AclPermissionType.fromCode(request.permissionType()));
        // Grouped by resource pattern, as Kafka's response lists them.
        Map<List<Object>, List<AclBinding>> byResource = new LinkedHashMap<>();
        for (AclBinding binding : authorizer.describe(filter)) {
            byResource.computeIfAbsent(List.of(binding.resourceType(), binding.resourceName(),
                    binding.patternType()), k -> new ArrayList<>()).add(binding);
        }
        byResource.values().forEach(bindings -> {
            AclBinding first = bindings.get(0);
            DescribeAclsResponseView.DescribeAclsResource resource = response.addResource()
                    .resourceType(first.resourceType().code()).resourceName(first.resourceName())
                    .patternType(first.patternType().code());
            bindings.forEach(b -> resource.addAcl().principal(b.principal()).host(b.host())
                    .operation(b.operation().code()).permissionType(b.permission().code()));
        });
        return response.struct();
    }

    private Struct create(CreateAclsRequestView request, String refusal) throws IOException {
        CreateAclsResponseView response = new CreateAclsResponseView();
        List<AclBinding> bindings = request.creations().stream().map(creation -> new AclBinding(
                ResourceType.fromCode(creation.resourceType()), creation.resourceName(),
                PatternType.fromCode(creation.resourcePatternType()), creation.principal(), creation.host(),
                AclOperation.fromCode(creation.operation()), AclPermissionType.fromCode(creation.permissionType())))
                .toList();
        if (refusal != null || bindings.stream().anyMatch(AclBinding::namesAFilterValue)) {
            // Kafka's answer to a refused request, or to one whose bindings it cannot make: every creation fails,
            // the latter with no message (Kafka sends none with UNKNOWN_SERVER_ERROR).
            Errors error = refusal != null ? Errors.CLUSTER_AUTHORIZATION_FAILED : Errors.UNKNOWN_SERVER_ERROR;
            bindings.forEach(b -> response.addResult().errorCode(error.code()).errorMessage(refusal));
            return response.struct();
        }
        List<AclBinding> valid = new ArrayList<>();
        for (AclBinding binding : bindings) {
            CreateAclsResponseView.AclCreationResult result = response.addResult();
            String invalid = binding.invalidReason();
            if (invalid != null) {
                result.errorCode(Errors.INVALID_REQUEST.code()).errorMessage(invalid);
            } else {
                valid.add(binding);
            }
        }
        if (!valid.isEmpty()) {
            authorizer.create(valid);
        }
        return response.struct();
    }

    private Struct delete(DeleteAclsRequestView request, String refusal) throws IOException {
        DeleteAclsResponseView response = new DeleteAclsResponseView();
        List<AclBindingFilter> filters = new ArrayList<>();
        List<DeleteAclsResponseView.DeleteAclsFilterResult> results = new ArrayList<>();
        for (DeleteAclsRequestView.DeleteAclsFilter f : request.filters()) {
            // Kafka answers a filter, and each binding it removed, with ApiError.NONE's message: null, not the
            // schema's empty default (which CreateAcls and DescribeAcls do keep).
            DeleteAclsResponseView.DeleteAclsFilterResult result = response.addFilterResult().errorMessage(null);
            if (refusal != null) {
                result.errorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code()).errorMessage(refusal);
                continue;
            }
            AclBindingFilter filter = new AclBindingFilter(ResourceType.fromCode(f.resourceTypeFilter()),
                    f.resourceNameFilter(), PatternType.fromCode(f.patternTypeFilter()), f.principalFilter(),
                    f.hostFilter(), AclOperation.fromCode(f.operation()), AclPermissionType.fromCode(f.permissionType()));
            String invalid = filter.invalidReason();
            if (invalid != null) {
                result.errorCode(Errors.INVALID_REQUEST.code()).errorMessage(invalid);
            } else {
                filters.add(filter);
                results.add(result);
            }
        }
        if (!filters.isEmpty()) {
            List<List<AclBinding>> removed = authorizer.delete(filters);
            for (int i = 0; i < removed.size(); i++) {
                DeleteAclsResponseView.DeleteAclsFilterResult result = results.get(i);
                removed.get(i).forEach(b -> result.addMatchingAcl().errorMessage(null)
                        .resourceType(b.resourceType().code())
                        .resourceName(b.resourceName()).patternType(b.patternType().code())
                        .principal(b.principal()).host(b.host()).operation(b.operation().code())
                        .permissionType(b.permission().code()));
            }
        }
        return response.struct();
    }
}
