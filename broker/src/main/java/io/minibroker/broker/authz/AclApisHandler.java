package io.minibroker.broker.authz;

import io.minibroker.broker.api.ApiHandler;
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
 * DescribeAcls, CreateAcls and DeleteAcls against the {@link StandardAuthorizer}, as Kafka answers them: DESCRIBE
 * on the cluster to list, ALTER on the cluster to change (else CLUSTER_AUTHORIZATION_FAILED), an invalid binding
 * or filter answered INVALID_REQUEST for itself while the others proceed. Creating and deleting rewrite the ACL
 * file, so they belong on the disk thread; describing reads only the authorizer's immutable index.
 *
 * <p>In a cluster the controller keeps the ACLs: a broker answers DescribeAcls from its copy of the controller's
 * image and forwards CreateAcls and DeleteAcls once it has checked ALTER on the cluster ({@link #forwarding}); the
 * controller's own handler checks again, the forwarding broker's principal (which {@code super.users} names, as
 * Kafka's brokers must be), so that a client reaching the controller's listener directly changes nothing.
 */
public final class AclApisHandler implements ApiHandler {

    static final String CLUSTER_NAME = "kafka-cluster";

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
        return (context, request) -> request.api() == ApiKey.DESCRIBE_ACLS || !local.allowed(context, request)
                ? local.handle(context, request) : controller.handle(context, request);
    }

    /** The host ACLs name: the client's IP address as text. */
    public static String host(SocketAddress address) {
        return address instanceof InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getHostAddress() : String.valueOf(address);
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        boolean allowed = allowed(context, request);
        try {
            return CompletableFuture.completedFuture(switch (request.api()) {
                case DESCRIBE_ACLS -> describe(new DescribeAclsRequestView(request.body()), allowed);
                case CREATE_ACLS -> create(new CreateAclsRequestView(request.body()), allowed);
                case DELETE_ACLS -> delete(new DeleteAclsRequestView(request.body()), allowed);
                default -> throw new IllegalArgumentException(request.api() + " is not an ACL API");
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the ACLs", e);
        }
    }

    /** DESCRIBE on the cluster to list, ALTER to change. */
    private boolean allowed(RequestContext context, Request request) {
        AclOperation needed = request.api() == ApiKey.DESCRIBE_ACLS ? AclOperation.DESCRIBE : AclOperation.ALTER;
        return authorizer.authorize(context.principal(), host(context.clientAddress()), needed,
                ResourceType.CLUSTER, CLUSTER_NAME);
    }

    private Struct describe(DescribeAclsRequestView request, boolean allowed) {
        DescribeAclsResponseView response = new DescribeAclsResponseView();
        if (!allowed) {
            return response.errorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code()).struct();
        }
        AclBindingFilter filter = new AclBindingFilter(ResourceType.fromCode(request.resourceTypeFilter()),
                request.resourceNameFilter(), PatternType.fromCode(request.patternTypeFilter()),
                request.principalFilter(), request.hostFilter(), AclOperation.fromCode(request.operation()),
                AclPermissionType.fromCode(request.permissionType()));
        String invalid = filter.invalidReason();
        if (invalid != null) {
            return response.errorCode(Errors.INVALID_REQUEST.code()).errorMessage(invalid).struct();
        }
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

    private Struct create(CreateAclsRequestView request, boolean allowed) throws IOException {
        CreateAclsResponseView response = new CreateAclsResponseView();
        List<AclBinding> valid = new ArrayList<>();
        for (CreateAclsRequestView.AclCreation creation : request.creations()) {
            CreateAclsResponseView.AclCreationResult result = response.addResult();
            if (!allowed) {
                result.errorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
                continue;
            }
            AclBinding binding = new AclBinding(ResourceType.fromCode(creation.resourceType()),
                    creation.resourceName(), PatternType.fromCode(creation.resourcePatternType()),
                    creation.principal(), creation.host(), AclOperation.fromCode(creation.operation()),
                    AclPermissionType.fromCode(creation.permissionType()));
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

    private Struct delete(DeleteAclsRequestView request, boolean allowed) throws IOException {
        DeleteAclsResponseView response = new DeleteAclsResponseView();
        List<AclBindingFilter> filters = new ArrayList<>();
        List<DeleteAclsResponseView.DeleteAclsFilterResult> results = new ArrayList<>();
        for (DeleteAclsRequestView.DeleteAclsFilter f : request.filters()) {
            DeleteAclsResponseView.DeleteAclsFilterResult result = response.addFilterResult();
            if (!allowed) {
                result.errorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
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
                removed.get(i).forEach(b -> result.addMatchingAcl().resourceType(b.resourceType().code())
                        .resourceName(b.resourceName()).patternType(b.patternType().code())
                        .principal(b.principal()).host(b.host()).operation(b.operation().code())
                        .permissionType(b.permission().code()));
            }
        }
        return response.struct();
    }
}
