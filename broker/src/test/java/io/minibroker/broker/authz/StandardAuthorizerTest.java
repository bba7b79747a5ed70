package io.minibroker.broker.authz;

import io.minibroker.broker.security.KafkaPrincipal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.minibroker.broker.authz.AclOperation.ALL;
import static io.minibroker.broker.authz.AclOperation.DESCRIBE;
import static io.minibroker.broker.authz.AclOperation.READ;
import static io.minibroker.broker.authz.AclOperation.WRITE;
import static io.minibroker.broker.authz.AclPermissionType.ALLOW;
import static io.minibroker.broker.authz.AclPermissionType.DENY;
import static io.minibroker.broker.authz.PatternType.LITERAL;
import static io.minibroker.broker.authz.PatternType.PREFIXED;
import static io.minibroker.broker.authz.ResourceType.GROUP;
import static io.minibroker.broker.authz.ResourceType.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StandardAuthorizerTest {

    private static final KafkaPrincipal ALICE = KafkaPrincipal.user("alice");
    private static final KafkaPrincipal BOB = KafkaPrincipal.user("bob");

    @TempDir
    Path dir;

    private static AclBinding acl(String name, PatternType pattern, String principal, AclOperation op,
                                  AclPermissionType permission) {
        return new AclBinding(TOPIC, name, pattern, principal, "*", op, permission);
    }

    @Test
    void withoutAclsOnlySuperUsersOrTheAllowEveryoneSwitchGrant() throws IOException {
        StandardAuthorizer closed = StandardAuthorizer.open(dir, " User:admin ; User:ops", false);
        assertFalse(closed.authorize(ALICE, "1.2.3.4", READ, TOPIC, "t"));
        assertTrue(closed.authorize(KafkaPrincipal.user("ops"), "1.2.3.4", READ, TOPIC, "t"));
        StandardAuthorizer open = StandardAuthorizer.open(dir.resolve("elsewhere"), null, true);
        assertTrue(open.authorize(ALICE, "1.2.3.4", READ, TOPIC, "t"));
    }

    @Test
    void allowEveryoneAppliesOnlyToResourcesNoAclCovers() throws IOException {
        StandardAuthorizer authorizer = StandardAuthorizer.open(dir, null, true);
        authorizer.create(List.of(acl("t", LITERAL, "User:bob", READ, ALLOW)));
        assertFalse(authorizer.authorize(ALICE, "h", READ, TOPIC, "t"));
        assertTrue(authorizer.authorize(ALICE, "h", READ, TOPIC, "other"));
    }

    @Test
    void implicationsDenyFirstPrefixesWildcardsAndHosts() throws IOException {
        StandardAuthorizer authorizer = StandardAuthorizer.open(dir, null, false);
        authorizer.create(List.of(
                acl("orders-", PREFIXED, "User:alice", WRITE, ALLOW),
                acl("orders-secret", LITERAL, "User:*", ALL, DENY),
                acl("*", LITERAL, "User:bob", READ, ALLOW),
                new AclBinding(GROUP, "g", LITERAL, "User:alice", "10.0.0.1", READ, ALLOW)));
        assertTrue(authorizer.authorize(ALICE, "h", WRITE, TOPIC, "orders-1"));
        assertTrue(authorizer.authorize(ALICE, "h", DESCRIBE, TOPIC, "orders-1"), "WRITE implies DESCRIBE");
        assertFalse(authorizer.authorize(ALICE, "h", READ, TOPIC, "orders-1"));
        assertFalse(authorizer.authorize(ALICE, "h", WRITE, TOPIC, "orders-secret"), "DENY beats ALLOW");
        assertFalse(authorizer.authorize(ALICE, "h", WRITE, TOPIC, "order"));
        assertTrue(authorizer.authorize(BOB, "h", READ, TOPIC, "anything"));
        assertFalse(authorizer.authorize(BOB, "h", WRITE, TOPIC, "anything"));
        assertTrue(authorizer.authorize(ALICE, "10.0.0.1", READ, GROUP, "g"));
        assertFalse(authorizer.authorize(ALICE, "10.0.0.2", READ, GROUP, "g"));
    }

    /** Kafka's authorizeByResourceType, which an idempotent producer's InitProducerId asks for WRITE on topics. */
    @Test
    void someResourceOfTheTypeIsAllowedUnlessDeniesCoverEveryAllow() throws IOException {
        StandardAuthorizer authorizer = StandardAuthorizer.open(dir, null, false);
        authorizer.create(List.of(acl("a", LITERAL, "User:alice", WRITE, ALLOW),
                acl("a", LITERAL, "User:alice", WRITE, DENY),
                acl("orders-", PREFIXED, "User:alice", WRITE, ALLOW),
                acl("ord", PREFIXED, "User:*", ALL, DENY)));
        assertFalse(authorizer.allowsAny(ALICE, "h", WRITE, TOPIC), "each ALLOW is covered by a DENY");

        authorizer.create(List.of(acl("b", LITERAL, "User:alice", ALL, ALLOW)));
        assertTrue(authorizer.allowsAny(ALICE, "h", WRITE, TOPIC), "b is allowed and no DENY covers it");
        assertFalse(authorizer.allowsAny(BOB, "h", WRITE, TOPIC));

        authorizer.create(List.of(acl("c", LITERAL, "User:bob", READ, ALLOW)));
        assertFalse(authorizer.allowsAny(BOB, "h", WRITE, TOPIC), "READ is not WRITE, nor implies it");

        authorizer.create(List.of(acl("*", LITERAL, "User:alice", WRITE, DENY)));
        assertFalse(authorizer.allowsAny(ALICE, "h", WRITE, TOPIC), "a DENY of every topic wins");
    }

    @Test
    void aPrefixedStarIsAPrefixNotEveryResource() throws IOException {
        StandardAuthorizer authorizer = StandardAuthorizer.open(dir, null, false);
        authorizer.create(List.of(acl("*", PREFIXED, "User:alice", WRITE, ALLOW),
                acl("*", PREFIXED, "User:alice", WRITE, DENY)));
        assertFalse(authorizer.allowsAny(ALICE, "h", WRITE, TOPIC), "the prefixed DENY covers the prefixed ALLOW");
    }

    @Test
    void someResourceOfTheTypeIsAllowedToSuperUsersAndWhereNoAclCoversKafkasProbe() throws IOException {
        StandardAuthorizer authorizer = StandardAuthorizer.open(dir, "User:admin", true);
        authorizer.create(List.of(acl("t", LITERAL, "User:bob", READ, ALLOW)));
        assertTrue(authorizer.allowsAny(ALICE, "h", WRITE, TOPIC), "allow.everyone.if.no.acl.found, as Kafka");
        authorizer.create(List.of(acl("*", LITERAL, "User:*", WRITE, DENY)));
        assertFalse(authorizer.allowsAny(ALICE, "h", WRITE, TOPIC));
        assertTrue(authorizer.allowsAny(KafkaPrincipal.user("admin"), "h", WRITE, TOPIC));
    }

    @Test
    void aclsSurviveReopeningAndFiltersDescribeAndDelete() throws IOException {
        StandardAuthorizer authorizer = StandardAuthorizer.open(dir, null, false);
        authorizer.create(List.of(acl("a b", LITERAL, "User:x y", READ, ALLOW),
                acl("a", PREFIXED, "User:z", WRITE, DENY)));
        StandardAuthorizer reopened = StandardAuthorizer.open(dir, null, false);
        assertTrue(reopened.authorize(KafkaPrincipal.user("x y"), "h", READ, TOPIC, "a b"));
        AclBindingFilter match = new AclBindingFilter(TOPIC, "a b", PatternType.MATCH, null, null,
                AclOperation.ANY, AclPermissionType.ANY);
        assertEquals(2, reopened.describe(match).size());
        AclBindingFilter literalOnly = new AclBindingFilter(ResourceType.ANY, null, LITERAL, null, null,
                AclOperation.ANY, AclPermissionType.ANY);
        assertEquals(1, reopened.delete(List.of(literalOnly)).get(0).size());
        assertEquals(1, StandardAuthorizer.open(dir, null, false).describe(match).size());
    }

    @Test
    void refusesBindingsKafkaRefuses() {
        assertNotNull(new AclBinding(TOPIC, "t", PatternType.MATCH, "User:a", "*", READ, ALLOW).invalidReason());
        assertNotNull(new AclBinding(TOPIC, "t", LITERAL, "alice", "*", READ, ALLOW).invalidReason());
        assertNotNull(new AclBinding(TOPIC, "t", LITERAL, "User:a", "*", AclOperation.ANY, ALLOW).invalidReason());
    }
}
