package io.minibroker.broker.authz;

import io.minibroker.broker.security.KafkaPrincipal;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The index answers what reading every binding answers: checked against a plain scan of the bindings (the
 * authorizer's rules written the obvious way) on random bindings and questions, and on the prefix cases a sorted
 * structure gets wrong (a covering prefix behind a longer non-covering one).
 */
class AclIndexTest {

    private static final String[] NAMES = {"a", "ab", "ab-x", "ab-z", "abc", "b", "*", "orders", "orders-1", "o"};
    private static final String[] PRINCIPALS = {"User:alice", "User:bob", "User:*", "Group:alice"};
    private static final String[] HOSTS = {"*", "10.0.0.1", "10.0.0.2"};
    private static final ResourceType[] TYPES = {ResourceType.TOPIC, ResourceType.GROUP};
    private static final AclOperation[] OPERATIONS = {AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE,
            AclOperation.ALL, AclOperation.ALTER_CONFIGS, AclOperation.DESCRIBE_CONFIGS, AclOperation.DELETE};

    /** The authorizer's rules as a scan over every binding. */
    private static AclIndex.Verdict scan(List<AclBinding> bindings, KafkaPrincipal principal, String host,
                                         AclOperation operation, ResourceType type, String name) {
        boolean covered = false;
        boolean allowed = false;
        for (AclBinding b : bindings) {
            boolean covers = b.resourceType() == type && (b.patternType() == PatternType.PREFIXED
                    ? name.startsWith(b.resourceName())
                    : b.resourceName().equals(AclBinding.WILDCARD) || b.resourceName().equals(name));
            if (!covers) {
                continue;
            }
            covered = true;
            boolean who = b.principal().equals(AclBinding.WILDCARD_PRINCIPAL)
                    || b.principal().equals(principal.toString());
            if (!who || !(b.host().equals(AclBinding.WILDCARD) || b.host().equals(host))) {
                continue;
            }
            if (b.permission() == AclPermissionType.DENY) {
                if (b.operation() == operation || b.operation() == AclOperation.ALL) {
                    return AclIndex.Verdict.DENIED;
                }
            } else if (operation.isAllowedBy(b.operation())) {
                allowed = true;
            }
        }
        return allowed ? AclIndex.Verdict.ALLOWED
                : covered ? AclIndex.Verdict.NO_MATCHING_ALLOW : AclIndex.Verdict.NOT_COVERED;
    }

    private static <T> T pick(Random random, T[] values) {
        return values[random.nextInt(values.length)];
    }

    @Test
    void answersAsAScanOfEveryBindingDoes() {
        Random random = new Random(20);
        for (int round = 0; round < 300; round++) {
            List<AclBinding> bindings = new ArrayList<>();
            int count = random.nextInt(12);
            for (int i = 0; i < count; i++) {
                bindings.add(new AclBinding(pick(random, TYPES), pick(random, NAMES),
                        random.nextBoolean() ? PatternType.LITERAL : PatternType.PREFIXED, pick(random, PRINCIPALS),
                        pick(random, HOSTS), pick(random, OPERATIONS),
                        random.nextInt(4) == 0 ? AclPermissionType.DENY : AclPermissionType.ALLOW));
            }
            AclIndex index = new AclIndex(bindings);
            for (int question = 0; question < 40; question++) {
                String principalText = pick(random, PRINCIPALS).replace("*", "carol");
                int colon = principalText.indexOf(':');
                KafkaPrincipal principal = new KafkaPrincipal(principalText.substring(0, colon),
                        principalText.substring(colon + 1));
                String host = random.nextBoolean() ? "10.0.0.1" : "10.0.0.2";
                AclOperation operation = pick(random, OPERATIONS);
                ResourceType type = pick(random, TYPES);
                String name = pick(random, NAMES);
                assertThat(index.check(principal, host, operation, type, name))
                        .as("%s %s %s %s %s over %s", principal, host, operation, type, name, bindings)
                        .isEqualTo(scan(bindings, principal, host, operation, type, name));
            }
        }
    }

    @Test
    void aShortPrefixCoversPastALongerOneThatDoesNot() {
        AclIndex index = new AclIndex(List.of(
                new AclBinding(ResourceType.TOPIC, "a", PatternType.PREFIXED, "User:alice", "*", AclOperation.READ,
                        AclPermissionType.ALLOW),
                new AclBinding(ResourceType.TOPIC, "ab-x", PatternType.PREFIXED, "User:alice", "*",
                        AclOperation.READ, AclPermissionType.DENY)));
        assertThat(index.check(KafkaPrincipal.user("alice"), "h", AclOperation.READ, ResourceType.TOPIC, "ab-z"))
                .isEqualTo(AclIndex.Verdict.ALLOWED);
        assertThat(index.check(KafkaPrincipal.user("alice"), "h", AclOperation.READ, ResourceType.TOPIC, "ab-xy"))
                .isEqualTo(AclIndex.Verdict.DENIED);
        assertThat(index.check(KafkaPrincipal.user("alice"), "h", AclOperation.READ, ResourceType.GROUP, "ab-z"))
                .isEqualTo(AclIndex.Verdict.NOT_COVERED);
    }
}
