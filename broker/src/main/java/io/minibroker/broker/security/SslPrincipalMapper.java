package io.minibroker.broker.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ssl.principal.mapping.rules}, with the semantics of Kafka's SslPrincipalMapper: a comma-separated list
 * of {@code DEFAULT} (the certificate's distinguished name as it is, RFC 2253) and
 * {@code RULE:pattern/replacement/} with an optional {@code L} or {@code U} after the last slash (lower or upper
 * case the result). The first rule whose pattern matches the whole name gives the principal's name; when none
 * does, the client cannot be named and its connection is refused.
 */
public final class SslPrincipalMapper {

    /** One rule at the start of the remaining text; slashes and commas in a pattern are escaped with a backslash. */
    private static final Pattern RULE = Pattern.compile(
            "\\s*(?:(DEFAULT)|RULE:((?:\\\\.|[^\\\\/])*)/((?:\\\\.|[^\\\\/])*)/([LU]?))\\s*(?:,|$)");

    private record Rule(Pattern pattern, String replacement, String caseChange) {
        /** The mapped name, or null if the pattern does not match the whole name. */
        String apply(String distinguishedName) {
            if (pattern == null) {
                return distinguishedName;
            }
            Matcher matcher = pattern.matcher(distinguishedName);
            if (!matcher.matches()) {
                return null;
            }
            String mapped;
            try {
                mapped = matcher.replaceAll(literalMissingGroups(replacement, matcher.groupCount()));
            } catch (IndexOutOfBoundsException noSuchGroup) { // the caller refuses the name, as for no match
                throw new IllegalArgumentException("Rule " + pattern + "/" + replacement + "/ cannot map "
                        + distinguishedName + ": " + noSuchGroup.getMessage());
            }
            return switch (caseChange) {
                case "L" -> mapped.toLowerCase(Locale.ROOT);
                case "U" -> mapped.toUpperCase(Locale.ROOT);
                default -> mapped;
            };
        }

        /**
         * The replacement with each {@code $N} that names no group of the pattern made literal, as Kafka's rule
         * does (Matcher would throw). Matcher reads a group number's first digit always and further digits only
         * while the number stays a group, so only a first digit above the group count names none. A pattern
         * without groups keeps the reference, as in Kafka, whose mapping of the name then fails.
         */
        private static String literalMissingGroups(String replacement, int groupCount) {
            if (groupCount == 0) {
                return replacement;
            }
            StringBuilder escaped = new StringBuilder(replacement.length() + 4);
            for (int i = 0; i < replacement.length(); i++) {
                char c = replacement.charAt(i);
                if (c == '\\' && i + 1 < replacement.length()) {
                    escaped.append(c).append(replacement.charAt(++i)); // already literal
                    continue;
                }
                boolean missingGroup = c == '$' && i + 1 < replacement.length()
                        && Character.isDigit(replacement.charAt(i + 1))
                        && Character.digit(replacement.charAt(i + 1), 10) > groupCount;
                escaped.append(missingGroup ? "\\$" : String.valueOf(c));
            }
            return escaped.toString();
        }
    }

    private final List<Rule> rules;

    private SslPrincipalMapper(List<Rule> rules) {
        this.rules = rules;
    }

    /**
     * Parses the rules; IllegalArgumentException names the part that is not a rule. As in Kafka, null means
     * {@code DEFAULT}, empty entries are skipped, and so a blank value is no rules at all: every certificate is
     * then refused.
     */
    public static SslPrincipalMapper fromRules(String text) {
        List<Rule> rules = new ArrayList<>();
        String rest = text == null ? "DEFAULT" : text.trim();
        while (!rest.isEmpty()) {
            if (rest.startsWith(",")) {
                rest = rest.substring(1).trim();
                continue;
            }
            Matcher matcher = RULE.matcher(rest);
            if (!matcher.lookingAt() || matcher.end() == 0) {
                throw new IllegalArgumentException("not a DEFAULT or RULE:pattern/replacement/[LU] rule: " + rest);
            }
            if (matcher.group(1) != null) {
                rules.add(new Rule(null, null, ""));
            } else {
                rules.add(new Rule(Pattern.compile(matcher.group(2)), matcher.group(3), matcher.group(4)));
            }
            rest = rest.substring(matcher.end()).trim();
        }
        return new SslPrincipalMapper(List.copyOf(rules));
    }

    /** The principal name for this distinguished name; IllegalArgumentException if no rule applies. */
    public String name(String distinguishedName) {
        for (Rule rule : rules) {
            String mapped = rule.apply(distinguishedName);
            if (mapped != null) {
                return mapped;
            }
        }
        throw new IllegalArgumentException("No rules apply to " + distinguishedName);
    }
}
