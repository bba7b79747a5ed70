package io.minibroker.broker.authz;

/**
 * One ACL as Kafka stores it: a resource pattern (type, name, LITERAL or PREFIXED; the literal name {@code *} is
 * every resource of the type), the principal ({@code User:alice}, {@code User:*} for all), the host ({@code *} for
 * all), the operation and ALLOW or DENY.
 */
public record AclBinding(ResourceType resourceType, String resourceName, PatternType patternType, String principal,
                         String host, AclOperation operation, AclPermissionType permission) {

    public static final String WILDCARD = "*";
    public static final String WILDCARD_PRINCIPAL = "User:*";
    /** The one name of the cluster resource, as Kafka's. */
    public static final String CLUSTER_NAME = "kafka-cluster";

    /**
     * Whether the binding names ANY or MATCH where a binding needs a definite value (resource type, pattern type,
     * operation or permission): Kafka's ResourcePattern and AccessControlEntry cannot be made then, which fails the
     * whole CreateAcls request.
     */
    public boolean namesAFilterValue() {
        return resourceType == ResourceType.ANY || patternType == PatternType.ANY || patternType == PatternType.MATCH
                || operation == AclOperation.ANY || permission == AclPermissionType.ANY;
    }

    /**
     * Why Kafka would refuse to create this binding (it answers INVALID_REQUEST with the reason), or null if it is
     * a valid binding: first its AclApis's checks of the name, then its controller's (AclControlManager.validateNewAcl)
     * in their order. A type Kafka does not know reads as UNKNOWN.
     */
    public String invalidReason() {
        if (resourceType == ResourceType.CLUSTER && !CLUSTER_NAME.equals(resourceName)) {
            return "The only valid name for the CLUSTER resource is " + CLUSTER_NAME;
        }
        if (resourceName == null || resourceName.isEmpty()) {
            return "Invalid empty resource name";
        }
        if (resourceType == ResourceType.UNKNOWN || resourceType == ResourceType.ANY) {
            return "Invalid resourceType " + resourceType;
        }
        if (patternType != PatternType.LITERAL && patternType != PatternType.PREFIXED) {
            return "Invalid patternType " + patternType;
        }
        if (operation == AclOperation.UNKNOWN || operation == AclOperation.ANY) {
            return "Invalid operation " + operation;
        }
        if (permission != AclPermissionType.ALLOW && permission != AclPermissionType.DENY) {
            return "Invalid permissionType " + permission;
        }
        if (principal == null || principal.indexOf(':') <= 0) {
            return "Could not parse principal from `" + principal + "` (no colon is present separating the "
                    + "principal type from the principal name)";
        }
        if (host == null) {
            return "Invalid null host";
        }
        return null;
    }
}
