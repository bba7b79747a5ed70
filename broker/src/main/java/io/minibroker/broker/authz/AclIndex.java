package io.minibroker.broker.authz;

import io.minibroker.broker.security.KafkaPrincipal;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bindings arranged for the authorizer's question, as Kafka's StandardAuthorizerData keeps them: per resource
 * type, the literal patterns by name (the wildcard {@code *} among them) and the prefixed patterns in a trie of
 * their characters, so that a check reads only the bindings whose pattern covers the resource instead of every
 * binding. Principals are split into type and name when the index is built, so a check compares the request's
 * principal without building its text. Immutable: a change builds a new index.
 */
final class AclIndex {

    static final AclIndex EMPTY = new AclIndex(List.of());

    /** The answer to one check before super users and {@code allow.everyone.if.no.acl.found} are applied. */
    enum Verdict { ALLOWED, DENIED, NO_MATCHING_ALLOW, NOT_COVERED }

    private final List<AclBinding> bindings;
    private final Map<ResourceType, TypeIndex> byType = new EnumMap<>(ResourceType.class);

    AclIndex(List<AclBinding> bindings) {
        this.bindings = List.copyOf(bindings);
        for (AclBinding binding : this.bindings) {
            byType.computeIfAbsent(binding.resourceType(), t -> new TypeIndex()).add(new Entry(binding));
        }
    }

    List<AclBinding> bindings() {
        return bindings;
    }

    Verdict check(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type, String name) {
        TypeIndex index = byType.get(type);
        if (index == null) {
            return Verdict.NOT_COVERED;
        }
        Tally tally = new Tally(principal, host, operation);
        tally.read(index.literal.get(name));
        if (!name.equals(AclBinding.WILDCARD)) {
            tally.read(index.literal.get(AclBinding.WILDCARD));
        }
        PrefixNode node = index.prefixes;
        for (int i = 0; i < name.length() && node != null && !tally.denied; i++) {
            node = node.children.get(name.charAt(i)); // chars below 128 are cached boxes: no allocation
            if (node != null) {
                tally.read(node.entries);
            }
        }
        if (tally.denied) {
            return Verdict.DENIED;
        }
        if (tally.allowed) {
            return Verdict.ALLOWED;
        }
        return tally.covered ? Verdict.NO_MATCHING_ALLOW : Verdict.NOT_COVERED;
    }

    /** One binding with its principal split as the index compares it. */
    private record Entry(AclBinding binding, String principalType, String principalName, boolean anyPrincipal) {
        Entry(AclBinding binding) {
            this(binding, typeOf(binding.principal()), nameOf(binding.principal()),
                    binding.principal().equals(AclBinding.WILDCARD_PRINCIPAL));
        }

        private static String typeOf(String principal) {
            int colon = principal.indexOf(':');
            return colon < 0 ? principal : principal.substring(0, colon);
        }

        private static String nameOf(String principal) {
            int colon = principal.indexOf(':');
            return colon < 0 ? "" : principal.substring(colon + 1);
        }

        boolean appliesTo(KafkaPrincipal principal, String host) {
            boolean who = anyPrincipal || (principalName.equals(principal.name())
                    && principalType.equals(principal.principalType()));
            return who && (binding.host().equals(AclBinding.WILDCARD) || binding.host().equals(host));
        }
    }

    /** What the covering bindings read so far say: DENY wins at once, an ALLOW is remembered. */
    private static final class Tally {
        private final KafkaPrincipal principal;
        private final String host;
        private final AclOperation operation;
        boolean covered;
        boolean allowed;
        boolean denied;

        Tally(KafkaPrincipal principal, String host, AclOperation operation) {
            this.principal = principal;
            this.host = host;
            this.operation = operation;
        }

        void read(List<Entry> entries) {
            if (entries == null) {
                return;
            }
            covered = true;
            for (int i = 0; i < entries.size() && !denied; i++) {
                Entry entry = entries.get(i);
                if (!entry.appliesTo(principal, host)) {
                    continue;
                }
                AclOperation granted = entry.binding().operation();
                if (entry.binding().permission() == AclPermissionType.DENY) {
                    denied = granted == operation || granted == AclOperation.ALL;
                } else if (!allowed && operation.isAllowedBy(granted)) {
                    allowed = true;
                }
            }
        }
    }

    private static final class TypeIndex {
        final Map<String, List<Entry>> literal = new HashMap<>();
        final PrefixNode prefixes = new PrefixNode();

        void add(Entry entry) {
            String name = entry.binding().resourceName();
            if (entry.binding().patternType() == PatternType.PREFIXED) {
                PrefixNode node = prefixes;
                for (int i = 0; i < name.length(); i++) {
                    node = node.children.computeIfAbsent(name.charAt(i), c -> new PrefixNode());
                }
                if (node.entries == null) {
                    node.entries = new ArrayList<>();
                }
                node.entries.add(entry);
            } else {
                literal.computeIfAbsent(name, n -> new ArrayList<>()).add(entry);
            }
        }
    }

    private static final class PrefixNode {
        final Map<Character, PrefixNode> children = new HashMap<>();
        List<Entry> entries;
    }
}
