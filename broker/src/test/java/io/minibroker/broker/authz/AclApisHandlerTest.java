package io.minibroker.broker.authz;

import io.minibroker.broker.api.CloseConnection;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreateAclsRequestView;
import io.minibroker.protocol.message.view.CreateAclsResponseView;
import io.minibroker.protocol.message.view.DeleteAclsRequestView;
import io.minibroker.protocol.message.view.DeleteAclsResponseView;
import io.minibroker.protocol.message.view.DescribeAclsRequestView;
import io.minibroker.protocol.message.view.DescribeAclsResponseView;
import io.minibroker.protocol.schema.Struct;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The ACL APIs' answers to what Kafka 4.3 refuses: an UNKNOWN code (0) closes the connection, as Kafka's request
 * classes fail to parse it; a creation naming ANY fails every creation (UNKNOWN_SERVER_ERROR); other invalid
 * bindings and filters are answered for themselves, with Kafka's messages in its order; a refusal carries a message.
 */
class AclApisHandlerTest {

    private static final KafkaPrincipal ADMIN = KafkaPrincipal.user("admin");
    private static final KafkaPrincipal ALICE = KafkaPrincipal.user("alice");
    /** A code no Kafka enum has: Kafka reads it as UNKNOWN after parsing, unlike 0, which it refuses to parse. */
    private static final byte UNKNOWN_TO_KAFKA = 99;

    @TempDir
    Path dir;
    private StandardAuthorizer authorizer;
    private AclApisHandler handler;

    @BeforeEach
    void open() throws Exception {
        authorizer = StandardAuthorizer.open(dir, "User:admin", false);
        handler = new AclApisHandler(authorizer);
    }

    private Struct call(KafkaPrincipal principal, ApiKey api, Struct body) {
        return handler.handle(TestContexts.withTlsPrincipal("SSL", new InetSocketAddress("127.0.0.1", 5555),
                principal), new Request(new RequestHeader(api.id(), (short) 3, 1, "test"), api, body))
                .toCompletableFuture().join();
    }

    private static CreateAclsRequestView.AclCreation creation(CreateAclsRequestView request, String name) {
        return request.addCreation().resourceType(ResourceType.TOPIC.code()).resourceName(name)
                .resourcePatternType(PatternType.LITERAL.code()).principal("User:bob").host("*")
                .operation(AclOperation.READ.code()).permissionType(AclPermissionType.ALLOW.code());
    }

    /** CreateAcls of one binding on topic {@code name}, asked by {@code principal}. */
    private CreateAclsResponseView createOne(KafkaPrincipal principal, String name) {
        CreateAclsRequestView create = new CreateAclsRequestView();
        creation(create, name);
        return new CreateAclsResponseView(call(principal, ApiKey.CREATE_ACLS, create.struct()));
    }

    /** DescribeAcls of every binding, asked by {@code principal}. */
    private DescribeAclsResponseView describeAll(KafkaPrincipal principal) {
        return new DescribeAclsResponseView(call(principal, ApiKey.DESCRIBE_ACLS,
                new DescribeAclsRequestView().resourceTypeFilter(ResourceType.ANY.code())
                        .patternTypeFilter(PatternType.ANY.code()).operation(AclOperation.ANY.code())
                        .permissionType(AclPermissionType.ANY.code()).struct()));
    }

    private static DeleteAclsRequestView.DeleteAclsFilter anyFilter(DeleteAclsRequestView request) {
        return request.addFilter().resourceTypeFilter(ResourceType.ANY.code())
                .patternTypeFilter(PatternType.ANY.code()).operation(AclOperation.ANY.code())
                .permissionType(AclPermissionType.ANY.code());
    }

    @Test
    void anUnknownCodeClosesTheConnectionBeforeAnythingIsDone() {
        CreateAclsRequestView create = new CreateAclsRequestView();
        creation(create, "fine");
        creation(create, "t").operation(AclOperation.UNKNOWN.code());
        assertThatThrownBy(() -> call(ADMIN, ApiKey.CREATE_ACLS, create.struct()))
                .isInstanceOf(CloseConnection.class);
        assertThat(authorizer.bindings()).as("nothing created").isEmpty();

        DescribeAclsRequestView describe = new DescribeAclsRequestView().resourceTypeFilter(ResourceType.ANY.code())
                .patternTypeFilter(PatternType.ANY.code()).operation(AclOperation.ANY.code())
                .permissionType(AclPermissionType.UNKNOWN.code());
        assertThatThrownBy(() -> call(ALICE, ApiKey.DESCRIBE_ACLS, describe.struct()))
                .as("before authorization, as Kafka parses first").isInstanceOf(CloseConnection.class);

        DeleteAclsRequestView delete = new DeleteAclsRequestView();
        anyFilter(delete).resourceTypeFilter(ResourceType.UNKNOWN.code());
        assertThatThrownBy(() -> call(ADMIN, ApiKey.DELETE_ACLS, delete.struct()))
                .isInstanceOf(CloseConnection.class);
    }

    @Test
    void aCreationNamingAnyFailsEveryCreation() {
        CreateAclsRequestView create = new CreateAclsRequestView();
        creation(create, "fine");
        creation(create, "t").permissionType(AclPermissionType.ANY.code());
        CreateAclsResponseView response = new CreateAclsResponseView(call(ADMIN, ApiKey.CREATE_ACLS,
                create.struct()));
        assertThat(response.results()).extracting(r -> r.errorCode())
                .containsExactly(Errors.UNKNOWN_SERVER_ERROR.code(), Errors.UNKNOWN_SERVER_ERROR.code());
        assertThat(response.results()).extracting(r -> r.errorMessage()).containsOnlyNulls();
        assertThat(authorizer.bindings()).isEmpty();
    }

    @Test
    void invalidBindingsAreAnsweredForThemselvesInKafkasOrder() {
        CreateAclsRequestView create = new CreateAclsRequestView();
        creation(create, "fine");
        creation(create, "").operation(UNKNOWN_TO_KAFKA);
        creation(create, "t").operation(UNKNOWN_TO_KAFKA).permissionType(UNKNOWN_TO_KAFKA);
        creation(create, "other-cluster").resourceType(ResourceType.CLUSTER.code());
        CreateAclsResponseView response = new CreateAclsResponseView(call(ADMIN, ApiKey.CREATE_ACLS,
                create.struct()));
        assertThat(response.results()).extracting(r -> r.errorCode()).containsExactly(Errors.NONE.code(),
                Errors.INVALID_REQUEST.code(), Errors.INVALID_REQUEST.code(), Errors.INVALID_REQUEST.code());
        assertThat(response.results().subList(1, 4)).extracting(r -> r.errorMessage()).containsExactly(
                "Invalid empty resource name", "Invalid operation UNKNOWN",
                "The only valid name for the CLUSTER resource is kafka-cluster");
        assertThat(authorizer.bindings()).extracting(AclBinding::resourceName).containsExactly("fine");
    }

    @Test
    void filtersWithCodesKafkaDoesNotKnowMatchNothingOrAreRefused() {
        createOne(ADMIN, "t");

        DescribeAclsResponseView listed = new DescribeAclsResponseView(call(ADMIN, ApiKey.DESCRIBE_ACLS,
                new DescribeAclsRequestView().resourceTypeFilter(ResourceType.ANY.code())
                        .patternTypeFilter(PatternType.ANY.code()).operation(UNKNOWN_TO_KAFKA)
                        .permissionType(AclPermissionType.ANY.code()).struct()));
        assertThat(listed.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(listed.resources()).isEmpty();

        DeleteAclsRequestView delete = new DeleteAclsRequestView();
        anyFilter(delete).patternTypeFilter(UNKNOWN_TO_KAFKA);
        anyFilter(delete).permissionType(UNKNOWN_TO_KAFKA);
        DeleteAclsResponseView deleted = new DeleteAclsResponseView(call(ADMIN, ApiKey.DELETE_ACLS,
                delete.struct()));
        assertThat(deleted.filterResults()).extracting(r -> r.errorMessage())
                .containsExactly("Unknown patternFilter.", "Unknown entryFilter.");
        assertThat(authorizer.bindings()).hasSize(1);
    }

    /**
     * Kafka answers a successful deletion with ApiError.NONE's message, null, for the filter and for each ACL it
     * removed, but leaves CreateAcls' and DescribeAcls' messages at their empty default (seen with kafkajs's suite
     * against Kafka 4.3.1).
     */
    @Test
    void successIsANullMessageForDeleteAclsAndAnEmptyOneForCreateAndDescribeAcls() {
        assertThat(createOne(ADMIN, "t").results()).extracting(r -> r.errorMessage()).containsExactly("");
        assertThat(describeAll(ADMIN).errorMessage()).isEmpty();

        DeleteAclsRequestView delete = new DeleteAclsRequestView();
        anyFilter(delete).resourceNameFilter(null).principalFilter(null).hostFilter(null);
        DeleteAclsResponseView.DeleteAclsFilterResult deleted = new DeleteAclsResponseView(call(ADMIN,
                ApiKey.DELETE_ACLS, delete.struct())).filterResults().get(0);
        assertThat(deleted.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(deleted.errorMessage()).isNull();
        assertThat(deleted.matchingAcls()).extracting(acl -> acl.resourceName(), acl -> acl.errorMessage())
                .containsExactly(tuple("t", null));
    }

    @Test
    void aRefusalSaysWhoIsNotAuthorized() {
        CreateAclsResponseView created = createOne(ALICE, "t");
        assertThat(created.results().get(0).errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(created.results().get(0).errorMessage()).isEqualTo(
                "Request CREATE_ACLS from User:alice is not authorized.");
        assertThat(describeAll(ALICE).errorMessage())
                .isEqualTo("Request DESCRIBE_ACLS from User:alice is not authorized.");
        DeleteAclsRequestView delete = new DeleteAclsRequestView();
        anyFilter(delete);
        assertThat(new DeleteAclsResponseView(call(ALICE, ApiKey.DELETE_ACLS, delete.struct())).filterResults()
                .get(0).errorMessage()).isEqualTo("Request DELETE_ACLS from User:alice is not authorized.");
    }
}
