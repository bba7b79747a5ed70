package io.minibroker.broker.security;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JAAS login-module entries, read from the two places a Kafka broker takes them: a {@code sasl.jaas.config}
 * property ({@code org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="secret";}) and a
 * JAAS file's section ({@code KafkaServer { ... };}, the file {@code java.security.auth.login.config} names).
 * Values are bare words or double-quoted strings with backslash escapes; {@code //} and {@code /* * /} comments are
 * skipped in files.
 */
public final class JaasConfig {

    /** One login module: its class name, its control flag, and its options in order. */
    public record LoginModule(String className, String flag, Map<String, String> options) {
    }

    /** JAAS's control flags. */
    private static final List<String> CONTROL_FLAGS = List.of("required", "requisite", "sufficient", "optional");

    private final List<String> tokens;
    private int next;

    private JaasConfig(String text) {
        this.tokens = tokenize(text);
    }

    /**
     * The one module of a {@code sasl.jaas.config} value (Kafka takes exactly one there); IllegalArgumentException
     * if it does not parse.
     */
    public static LoginModule parseProperty(String text) {
        JaasConfig parser = new JaasConfig(text);
        List<LoginModule> modules = parser.modulesUntil(null);
        if (modules.size() != 1) {
            throw new IllegalArgumentException("a JAAS configuration property must name one login module, not "
                    + modules.size());
        }
        return modules.get(0);
    }

    /** The sections of a JAAS file, by name, each with its modules; IllegalArgumentException if it does not parse. */
    public static Map<String, List<LoginModule>> parseFile(String text) {
        JaasConfig parser = new JaasConfig(text);
        Map<String, List<LoginModule>> sections = new LinkedHashMap<>();
        while (parser.next < parser.tokens.size()) {
            String name = parser.word("a section name");
            parser.expect("{");
            sections.put(name, parser.modulesUntil("}"));
            parser.expect("}");
            parser.expect(";");
        }
        return sections;
    }

    private List<LoginModule> modulesUntil(String end) {
        List<LoginModule> modules = new ArrayList<>();
        while (next < tokens.size() && !tokens.get(next).equals(end)) {
            String className = word("a login module class");
            String flag = word("a control flag");
            if (!CONTROL_FLAGS.contains(flag.toLowerCase(java.util.Locale.ROOT))) {
                throw new IllegalArgumentException("the control flag of " + className
                        + " must be one of " + CONTROL_FLAGS);
            }
            Map<String, String> options = new LinkedHashMap<>();
            while (!peek(";")) {
                String name = word("an option name");
                expect("=");
                options.put(name, value());
            }
            expect(";");
            modules.add(new LoginModule(className, flag, options));
        }
        return modules;
    }

    private boolean peek(String token) {
        if (next >= tokens.size()) {
            throw new IllegalArgumentException("the JAAS configuration ends early: expected '" + token + "'");
        }
        return tokens.get(next).equals(token);
    }

    /** Errors name the token's position, never its text: an option value may be a password. */
    private void expect(String token) {
        if (!peek(token)) {
            throw new IllegalArgumentException("expected '" + token + "' at token " + (next + 1)
                    + " of the JAAS configuration");
        }
        next++;
    }

    private String word(String what) {
        if (next >= tokens.size() || isPunctuation(tokens.get(next))) {
            throw new IllegalArgumentException("expected " + what + " at token " + (next + 1)
                    + " of the JAAS configuration");
        }
        return unquoted(tokens.get(next++));
    }

    private String value() {
        return word("an option value");
    }

    /** Quoted tokens keep their opening quote, so that a quoted "{" is not taken for punctuation. */
    private static String unquoted(String token) {
        return token.startsWith("\"") ? token.substring(1) : token;
    }

    private static boolean isPunctuation(String token) {
        return token.length() == 1 && "{};=".contains(token);
    }

    private static List<String> tokenize(String text) {
        List<String> tokens = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (text.startsWith("//", i)) {
                int eol = text.indexOf('\n', i);
                i = eol < 0 ? text.length() : eol + 1;
            } else if (text.startsWith("/*", i)) {
                int close = text.indexOf("*/", i + 2);
                if (close < 0) {
                    throw new IllegalArgumentException("an unclosed comment in the JAAS configuration");
                }
                i = close + 2;
            } else if ("{};=".indexOf(c) >= 0) {
                tokens.add(String.valueOf(c));
                i++;
            } else if (c == '"') {
                StringBuilder quoted = new StringBuilder("\"");
                i++;
                while (i < text.length() && text.charAt(i) != '"') {
                    if (text.charAt(i) == '\\' && i + 1 < text.length()) {
                        i++;
                    }
                    quoted.append(text.charAt(i++));
                }
                if (i >= text.length()) {
                    throw new IllegalArgumentException("an unclosed quote in the JAAS configuration");
                }
                i++;
                tokens.add(quoted.toString());
            } else {
                int start = i;
                while (i < text.length() && !Character.isWhitespace(text.charAt(i))
                        && "{};=\"".indexOf(text.charAt(i)) < 0) {
                    i++;
                }
                tokens.add(text.substring(start, i));
            }
        }
        return tokens;
    }
}
