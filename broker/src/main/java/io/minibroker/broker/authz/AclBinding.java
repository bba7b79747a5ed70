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

    /**
     * Why Kafka's controller would refuse to create this binding (it answers INVALID_REQUEST with the reason), or
     * null if it is a valid binding.
     */
    public String invalidReason() {
        if (resourceType == ResourceType.UNKNOWN || resourceType == ResourceType.ANY) {
            return "Invalid resourceType " + resourceType;
        }
        if (patternType != PatternType.LITERAL && patternType != PatternType.PREFIXED) {
            return "Invalid patternType " + patternType;
        }
        if (resourceName == null || resourceName.isEmpty()) {
            return "Resource name should not be empty";
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
