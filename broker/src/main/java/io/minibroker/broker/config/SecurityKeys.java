package io.minibroker.broker.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.minibroker.broker.config.ConfigKey.booleanKey;
import static io.minibroker.broker.config.ConfigKey.intKey;
import static io.minibroker.broker.config.ConfigKey.longKey;
import static io.minibroker.broker.config.ConfigKey.stringKey;

/**
 * The keys of how a broker authenticates and authorizes: each listener's security protocol, SASL's mechanisms and
 * limits, the per-listener JAAS family, the TLS handshake's bound and the authorizer; with the checks of how they
 * fit together (a SASL listener needs a mechanism offered, nodes sign in to each other with PLAIN, the one
 * authorizer offered). Part of {@link BrokerConfig}'s table; the {@code ssl.*} family is {@link SslKeys}', and the
 * security keys not implemented are {@link UnofferedSecurityKeys}'.
 */
public final class SecurityKeys {

    /** The SASL mechanisms offered. */
    private static final List<String> SASL_MECHANISMS = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");
    /** Kafka's security protocols, by the names listener.security.protocol.map uses. */
    private static final List<String> SECURITY_PROTOCOLS = List.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");
    /**
     * Kafka's per-listener JAAS keys, {@code listener.name.<listener, lower case>.<mechanism>.sasl.jaas.config}: a
     * family of keys rather than one, so kept apart from {@link #KEYS}. PLAIN's gives the users; SCRAM's, which
     * Kafka requires and which names only the login module, is accepted and not needed here (the users come from
     * AlterUserScramCredentials either way).
     */
    private static final Pattern JAAS_KEY = Pattern.compile(
            "listener\\.name\\.([^.]+)\\.(plain|scram-sha-256|scram-sha-512)\\.sasl\\.jaas\\.config");

    /**
     * Which security protocol each listener speaks: PLAINTEXT, SSL, SASL_PLAINTEXT and SASL_SSL are offered. When the
     * map is set, a listener it does not name stops the broker too, as in Kafka, so that a misspelt name never serves
     * a port without authentication; left at its default, a listener it does not name (CLIENT, BROKER, CONTROLLER...)
     * is PLAINTEXT, where Kafka would refuse to start but for controller listeners: configurations written before
     * this key was read keep working.
     */
    public static final ConfigKey<Map<String, String>> LISTENER_SECURITY_PROTOCOL_MAP = new ConfigKey<>(
            "listener.security.protocol.map", SecurityKeys::parseProtocolMap,
            // in the order Kafka 4.3.1 prints its default (its map's), which DescribeConfigs shows
            parseProtocolMap("SASL_SSL:SASL_SSL,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT"),
            map -> SECURITY_PROTOCOLS.containsAll(map.values()), "a list of LISTENER:PROTOCOL, each protocol one of "
                    + SECURITY_PROTOCOLS);
    /**
     * Kafka's default is GSSAPI, which is not offered: a SASL_PLAINTEXT listener needs PLAIN, SCRAM-SHA-256 or
     * SCRAM-SHA-512 here.
     */
    public static final ConfigKey<List<String>> SASL_ENABLED_MECHANISMS = new ConfigKey<>("sasl.enabled.mechanisms",
            ConfigKey::parseNames, List.of("GSSAPI"), v -> true, "a list of SASL mechanism names");
    /** The mechanism brokers sign in with to each other's SASL_PLAINTEXT inter-broker listener; only PLAIN here. */
    public static final ConfigKey<String> SASL_MECHANISM_INTER_BROKER_PROTOCOL =
            stringKey("sasl.mechanism.inter.broker.protocol", "GSSAPI");
    /** The mechanism brokers sign in with to the controller's SASL_PLAINTEXT listener; only PLAIN here. */
    public static final ConfigKey<String> SASL_MECHANISM_CONTROLLER_PROTOCOL =
            stringKey("sasl.mechanism.controller.protocol", "GSSAPI");
    /** The largest frame a SASL_PLAINTEXT connection may send before it has authenticated. */
    public static final ConfigKey<Integer> SASL_SERVER_MAX_RECEIVE_SIZE =
            intKey("sasl.server.max.receive.size", 524_288, 1);
    /** How long the answer to a failed SASL step waits before it is written and the connection closed. */
    public static final ConfigKey<Integer> CONNECTION_FAILED_AUTHENTICATION_DELAY_MS =
            intKey("connection.failed.authentication.delay.ms", 100, 0);
    /**
     * KIP-368: the longest a SASL session lasts before the client must re-authenticate on its connection (0, the
     * default, or less: no limit of its own; a token's expiry bounds a session signed in with it anyway); also set
     * for a listener, {@code listener.name.<listener>.connections.max.reauth.ms}, or for one mechanism on it,
     * {@code listener.name.<listener>.<mechanism>.connections.max.reauth.ms} ({@link
     * BrokerConfig#connectionsMaxReauthMs}). Kafka's key bounds nothing below: neither does this.
     */
    public static final ConfigKey<Long> CONNECTIONS_MAX_REAUTH_MS =
            longKey("connections.max.reauth.ms", 0L, Long.MIN_VALUE);
    /**
     * Not a Kafka key (Kafka bounds a handshake only by connections.max.idle.ms): how long a connection to an SSL or
     * SASL_SSL listener may take to finish its TLS handshake before it is closed, so that a client that connects
     * and never (or only byte by byte) handshakes does not hold its connection for the idle timeout.
     */
    public static final ConfigKey<Long> TLS_HANDSHAKE_TIMEOUT_MS = longKey("tls.handshake.timeout.ms", 10_000L, 1);
    // Authorization: empty turns it off, as in Kafka; the one class offered is Kafka 4's StandardAuthorizer.
    public static final ConfigKey<String> AUTHORIZER_CLASS_NAME = stringKey("authorizer.class.name", "");
    public static final ConfigKey<String> SUPER_USERS = stringKey("super.users", "");
    public static final ConfigKey<Boolean> ALLOW_EVERYONE_IF_NO_ACL_FOUND =
            booleanKey("allow.everyone.if.no.acl.found", false);
    // Delegation tokens (KIP-48): without a secret key (or with an empty one) they are off, as in Kafka.
    public static final ConfigKey<Password> DELEGATION_TOKEN_SECRET_KEY =
            ConfigKey.passwordKey("delegation.token.secret.key");
    public static final ConfigKey<Long> DELEGATION_TOKEN_MAX_LIFETIME_MS =
            longKey("delegation.token.max.lifetime.ms", 604_800_000L, 1);
    public static final ConfigKey<Long> DELEGATION_TOKEN_EXPIRY_TIME_MS =
            longKey("delegation.token.expiry.time.ms", 86_400_000L, 1);
    public static final ConfigKey<Long> DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS =
            longKey("delegation.token.expiry.check.interval.ms", 3_600_000L, 1);

    /** Every key of this family, for {@link BrokerConfig}'s table. */
    static final List<ConfigKey<?>> KEYS = List.of(LISTENER_SECURITY_PROTOCOL_MAP, SASL_ENABLED_MECHANISMS,
            TLS_HANDSHAKE_TIMEOUT_MS, SASL_SERVER_MAX_RECEIVE_SIZE, CONNECTION_FAILED_AUTHENTICATION_DELAY_MS,
            CONNECTIONS_MAX_REAUTH_MS,
            SASL_MECHANISM_INTER_BROKER_PROTOCOL, SASL_MECHANISM_CONTROLLER_PROTOCOL, AUTHORIZER_CLASS_NAME,
            SUPER_USERS, ALLOW_EVERYONE_IF_NO_ACL_FOUND, DELEGATION_TOKEN_SECRET_KEY, DELEGATION_TOKEN_MAX_LIFETIME_MS,
            DELEGATION_TOKEN_EXPIRY_TIME_MS, DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS);

    private SecurityKeys() {
    }

    /** Whether this key is of the JAAS family, {@link #JAAS_KEY}. */
    static boolean isJaasKey(String name) {
        return JAAS_KEY.matcher(name).matches();
    }

    /** The listener, in upper case, of a PLAIN JAAS key; empty for a SCRAM one, which gives no users. */
    static Optional<String> plainJaasListener(String name) {
        Matcher jaas = JAAS_KEY.matcher(name);
        return jaas.matches() && jaas.group(2).equals("plain")
                ? Optional.of(jaas.group(1).toUpperCase(Locale.ROOT)) : Optional.empty();
    }

    /**
     * Checks that the listeners' protocols, the SASL mechanisms and the authorizer fit together; throws
     * {@link ConfigException} naming the key that does not.
     */
    static void check(BrokerConfig config, List<Endpoint> listeners) {
        checkAuthorizer(config);
        boolean sasl = false;
        for (Endpoint listener : listeners) {
            if (config.isSet(LISTENER_SECURITY_PROTOCOL_MAP)
                    && !config.get(LISTENER_SECURITY_PROTOCOL_MAP).containsKey(listener.listenerName())) {
                throw new ConfigException(LISTENER_SECURITY_PROTOCOL_MAP.name(),
                        config.get(LISTENER_SECURITY_PROTOCOL_MAP),
                        "No security protocol defined for listener " + listener.listenerName());
            }
            sasl |= config.usesSasl(listener.listenerName());
        }
        List<String> mechanisms = config.get(SASL_ENABLED_MECHANISMS);
        if (sasl && (mechanisms.isEmpty() || !SASL_MECHANISMS.containsAll(mechanisms))) {
            throw new ConfigException(SASL_ENABLED_MECHANISMS.name(), mechanisms,
                    "must name only mechanisms offered for a SASL listener: " + SASL_MECHANISMS);
        }
        if (config.inCluster()) {
            // Nodes sign in to each other's SASL listeners with PLAIN, the one mechanism they speak as clients.
            if (config.usesSasl(config.interBrokerListenerName())) {
                requirePlain(config, SASL_MECHANISM_INTER_BROKER_PROTOCOL, mechanisms,
                        config.interBrokerListenerName());
            }
            for (String name : config.get(BrokerConfig.CONTROLLER_LISTENER_NAMES)) {
                if (config.usesSasl(name)) {
                    requirePlain(config, SASL_MECHANISM_CONTROLLER_PROTOCOL, mechanisms, name);
                }
            }
        }
    }

    private static void checkAuthorizer(BrokerConfig config) {
        String className = config.get(AUTHORIZER_CLASS_NAME).trim();
        if (className.isEmpty()) {
            return;
        }
        if (!className.equals(BrokerConfig.STANDARD_AUTHORIZER)) {
            throw new ConfigException(AUTHORIZER_CLASS_NAME.name(), className, "the only authorizer offered is "
                    + BrokerConfig.STANDARD_AUTHORIZER + " (Kafka 4 removed AclAuthorizer); another would run less"
                    + " secure than configured, so the broker does not start");
        }
        // As Kafka's StandardAuthorizer, which parses each entry as a principal and fails to start on one it cannot.
        for (String entry : config.get(SUPER_USERS).split(";")) {
            if (!entry.isBlank() && entry.indexOf(':') < 0) {
                throw new ConfigException(SUPER_USERS.name(), config.get(SUPER_USERS),
                        "expected a string in format principalType:principalName but got " + entry.trim());
            }
        }
    }

    private static void requirePlain(BrokerConfig config, ConfigKey<String> mechanismKey, List<String> enabled,
                                     String listener) {
        if (!config.get(mechanismKey).equals("PLAIN") || !enabled.contains("PLAIN")) {
            throw new ConfigException(mechanismKey.name(), config.get(mechanismKey), "must be PLAIN, and PLAIN enabled"
                    + " in sasl.enabled.mechanisms, for nodes to sign in to each other's SASL_PLAINTEXT listener "
                    + listener);
        }
    }

    /** {@code NAME:PROTOCOL,...}, names and protocols in upper case as Kafka takes them. */
    private static Map<String, String> parseProtocolMap(String text) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String entry : ConfigKey.parseNames(text)) {
            int colon = entry.indexOf(':');
            if (colon <= 0 || colon == entry.length() - 1) {
                throw new IllegalArgumentException("expected LISTENER:PROTOCOL, got " + entry);
            }
            map.put(entry.substring(0, colon).trim().toUpperCase(Locale.ROOT),
                    entry.substring(colon + 1).trim().toUpperCase(Locale.ROOT));
        }
        return Collections.unmodifiableMap(map);
    }
}
