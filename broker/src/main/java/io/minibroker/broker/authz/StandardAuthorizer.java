package io.minibroker.broker.authz;

import io.minibroker.broker.security.KafkaPrincipal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Decides whether a principal may perform an operation on a resource, with the semantics of Kafka's
 * StandardAuthorizer: super users may do everything; otherwise the ACLs whose pattern covers the resource (its
 * literal name, the literal {@code *}, any prefix of it) and whose principal ({@code User:*} too) and host
 * ({@code *} too) match are read, and a matching DENY wins over any ALLOW; an ALLOW of READ, WRITE, DELETE or ALTER
 * also allows DESCRIBE, of ALTER_CONFIGS also DESCRIBE_CONFIGS, of ALL everything. A resource no ACL covers at all
 * is allowed only with {@code allow.everyone.if.no.acl.found}.
 *
 * <p>The bindings are kept in an {@link AclIndex} by resource type and pattern, so a check reads only the bindings
 * that cover its resource.
 */
public final class StandardAuthorizer implements Authorizer {

    /** The name Kafka's authorizeByResourceType asks about first (Authorizer's "hardcode"). */
    private static final String ANY_RESOURCE_NAME = "hardcode";

    private final Set<KafkaPrincipal> superUsers;
    private final boolean allowEveryoneIfNoAclFound;
    private final AclFile file;
    /** Replaced as a whole on each change, so checks on the event loops never lock. */
    private volatile AclIndex index = AclIndex.EMPTY;

    private StandardAuthorizer(Set<KafkaPrincipal> superUsers, boolean allowEveryoneIfNoAclFound, AclFile file,
                               List<AclBinding> bindings) {
        this.superUsers = superUsers;
        this.allowEveryoneIfNoAclFound = allowEveryoneIfNoAclFound;
        this.file = file;
        replace(bindings);
    }

    /**
     * Loads the ACLs kept in {@code logDir}; {@code superUsers} is {@code super.users}, semicolon-separated
     * {@code Type:name} principals (BrokerConfig refuses an entry without the colon).
     */
    public static StandardAuthorizer open(Path logDir, String superUsers, boolean allowEveryoneIfNoAclFound)
            throws IOException {
        AclFile file = new AclFile(logDir);
        return new StandardAuthorizer(parseSuperUsers(superUsers), allowEveryoneIfNoAclFound, file, file.load());
    }

    /**
     * A cluster broker's authorizer: no file of its own, its ACLs the controller's, replaced whole by each image
     * ({@link #replaceAll}); none until the first image arrives.
     */
    public static StandardAuthorizer following(String superUsers, boolean allowEveryoneIfNoAclFound) {
        return new StandardAuthorizer(parseSuperUsers(superUsers), allowEveryoneIfNoAclFound, null, List.of());
    }

    static Set<KafkaPrincipal> parseSuperUsers(String value) {
        if (value == null) {
            return Set.of();
        }
        return Arrays.stream(value.split(";")).map(String::trim).filter(s -> !s.isEmpty())
                .map(KafkaPrincipal::parse)
                .collect(Collectors.toUnmodifiableSet());
    }

    private void replace(List<AclBinding> next) {
        index = new AclIndex(next);
    }

    /** Every binding: what the controller hands its brokers. */
    public List<AclBinding> bindings() {
        return index.bindings();
    }

    @Override
    public boolean authorize(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type,
                             String name) {
        if (superUsers.contains(principal)) {
            return true;
        }
        return switch (index.check(principal, host, operation, type, name)) {
            case ALLOWED -> true;
            case DENIED, NO_MATCHING_ALLOW -> false;
            case NOT_COVERED -> allowEveryoneIfNoAclFound;
        };
    }

    @Override
    public boolean isSuperUser(KafkaPrincipal principal) {
        return superUsers.contains(principal);
    }

    /**
     * Whether the principal may perform the operation on some resource of the type, as Kafka's
     * authorizeByResourceType answers (an idempotent producer needs WRITE on any topic). As Kafka's, it first asks
     * about a resource named {@value #ANY_RESOURCE_NAME}, which a super user may always act on, and anyone with
     * {@code allow.everyone.if.no.acl.found} when no binding covers that name. Then only the bindings of exactly the
     * operation (or ALL) count, without implications: a DENY of the literal {@code *} refuses; an ALLOW of the
     * literal {@code *} allows; otherwise some other ALLOW must name a resource no DENY covers (a literal DENY of the same
     * name, or a prefixed DENY of a prefix of it).
     */
    @Override
    public boolean allowsAny(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type) {
        if (authorize(principal, host, operation, type, ANY_RESOURCE_NAME)) {
            return true;
        }
        String who = principal.toString();
        Set<String> deniedLiterals = new HashSet<>();
        Set<String> deniedPrefixes = new HashSet<>();
        List<AclBinding> allows = new ArrayList<>();
        for (AclBinding b : bindings()) {
            if (b.resourceType() != type || (b.operation() != operation && b.operation() != AclOperation.ALL)
                    || !(b.principal().equals(who) || b.principal().equals(AclBinding.WILDCARD_PRINCIPAL))
                    || !(b.host().equals(AclBinding.WILDCARD) || b.host().equals(host))) {
                continue;
            }
            boolean literal = b.patternType() == PatternType.LITERAL;
            if (b.permission() == AclPermissionType.ALLOW) {
                allows.add(b);
            } else if (literal && b.resourceName().equals(AclBinding.WILDCARD)) {
                return false;
            } else {
                (literal ? deniedLiterals : deniedPrefixes).add(b.resourceName());
            }
        }
        // Only the literal * means every resource; a prefixed * is a prefix like any other, which a DENY can cover.
        if (allows.stream().anyMatch(b -> b.patternType() == PatternType.LITERAL
                && b.resourceName().equals(AclBinding.WILDCARD))) {
            return true;
        }
        return allows.stream().anyMatch(b -> !(b.patternType() == PatternType.LITERAL
                && deniedLiterals.contains(b.resourceName())) && !deniedByPrefix(b.resourceName(), deniedPrefixes));
    }

    private static boolean deniedByPrefix(String name, Set<String> deniedPrefixes) {
        for (int end = 1; end <= name.length(); end++) {
            if (deniedPrefixes.contains(name.substring(0, end))) {
                return true;
            }
        }
        return false;
    }

    public List<AclBinding> describe(AclBindingFilter filter) {
        return bindings().stream().filter(filter::matches).toList();
    }

    /** Replaces every binding with {@code replacement}, as a following broker applies an image. */
    public synchronized void replaceAll(List<AclBinding> replacement) {
        replace(List.copyOf(replacement));
    }

    /** Adds the bindings not already present and keeps them on disk before answering. */
    public synchronized void create(List<AclBinding> added) throws IOException {
        List<AclBinding> next = new ArrayList<>(bindings());
        added.stream().filter(b -> !next.contains(b)).distinct().forEach(next::add);
        save(next);
        replace(next);
    }

    /** Removes and returns the bindings each filter matches, in the filters' order. */
    public synchronized List<List<AclBinding>> delete(List<AclBindingFilter> filters) throws IOException {
        List<List<AclBinding>> removed = new ArrayList<>();
        List<AclBinding> next = new ArrayList<>(bindings());
        for (AclBindingFilter filter : filters) {
            // Kafka answers each filter with what it matched before this request, even if another filter took it.
            removed.add(bindings().stream().filter(filter::matches).toList());
            next.removeIf(filter::matches);
        }
        save(next);
        replace(next);
        return removed;
    }

    private void save(List<AclBinding> next) throws IOException {
        if (file == null) {
            throw new IllegalStateException("a following broker's ACLs change only through the controller");
        }
        file.save(next);
    }
}
