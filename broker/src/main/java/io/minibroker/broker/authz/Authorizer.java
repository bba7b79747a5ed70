package io.minibroker.broker.authz;

import io.minibroker.broker.security.KafkaPrincipal;

/**
 * What the request checks ask of an authorizer, as Kafka's request handlers ask its Authorizer interface: whether a
 * principal from a host may perform an operation on a resource, on some resource of a type, and whether it is a super
 * user. {@link StandardAuthorizer} is the broker's; the checks see only this, so a test can count their questions.
 */
public interface Authorizer {

    boolean authorize(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type, String name);

    /** Whether the principal may perform the operation on some resource of the type: authorizeByResourceType. */
    boolean allowsAny(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type);

    boolean isSuperUser(KafkaPrincipal principal);
}
