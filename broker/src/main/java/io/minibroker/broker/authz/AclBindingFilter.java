package io.minibroker.broker.authz;

/**
 * A DescribeAcls or DeleteAcls filter as Kafka reads it: ANY (or null for names, principal and host) matches
 * everything; the pattern type MATCH with a name matches every binding that would apply to that name (the literal
 * name, the literal {@code *}, and prefixes of it).
 */
public record AclBindingFilter(ResourceType resourceType, String resourceName, PatternType patternType,
                               String principal, String host, AclOperation operation, AclPermissionType permission) {

    /**
     * Why Kafka's controller refuses to delete with this filter (INVALID_REQUEST), or null: a resource type or pattern
     * type it does not know, then an operation or permission it does not know (AclControlManager.validateFilter).
     */
    public String invalidReason() {
        if (resourceType == ResourceType.UNKNOWN || patternType == PatternType.UNKNOWN) {
            return "Unknown patternFilter.";
        }
        if (operation == AclOperation.UNKNOWN || permission == AclPermissionType.UNKNOWN) {
            return "Unknown entryFilter.";
        }
        return null;
    }

    public boolean matches(AclBinding binding) {
        return (resourceType == ResourceType.ANY || resourceType == binding.resourceType())
                && patternMatches(binding)
                && (principal == null || principal.equals(binding.principal()))
                && (host == null || host.equals(binding.host()))
                && (operation == AclOperation.ANY || operation == binding.operation())
                && (permission == AclPermissionType.ANY || permission == binding.permission());
    }

    private boolean patternMatches(AclBinding binding) {
        return switch (patternType) {
            case ANY -> resourceName == null || resourceName.equals(binding.resourceName());
            case MATCH -> resourceName == null || switch (binding.patternType()) {
                case LITERAL -> resourceName.equals(binding.resourceName())
                        || binding.resourceName().equals(AclBinding.WILDCARD);
                case PREFIXED -> resourceName.startsWith(binding.resourceName());
                default -> false;
            };
            default -> patternType == binding.patternType()
                    && (resourceName == null || resourceName.equals(binding.resourceName()));
        };
    }
}
