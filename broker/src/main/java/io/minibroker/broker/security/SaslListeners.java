package io.minibroker.broker.security;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.SecurityKeys;
import io.minibroker.broker.config.ConfigException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The SASL side of a broker's listeners: for a {@code SASL_PLAINTEXT} or {@code SASL_SSL} one, a new
 * {@link SaslSession} per
 * connection over the node's SCRAM credentials and the PLAIN users of that listener, read from where Kafka's broker
 * reads them: the property
 * {@code listener.name.<listener>.plain.sasl.jaas.config}, else the JAAS file named by the system property
 * {@code java.security.auth.login.config}, its section {@code <listener>.KafkaServer}, else {@code KafkaServer}.
 * Missing or unreadable users stop the broker at start, naming the key.
 */
public final class SaslListeners {

    /** The system property Java's JAAS reads its file from, and Kafka's broker with it. */
    static final String JAAS_FILE_PROPERTY = "java.security.auth.login.config";
    private static final String SERVER_SECTION = "KafkaServer";

    private SaslListeners() {
    }

    /**
     * A new connection's session on this listener, telling its outcomes to the listener's metrics; null if it does
     * not speak SASL. PLAIN's users are
     * read if PLAIN is enabled; SCRAM's are {@code scramCredentials}, which AlterUserScramCredentials keeps, and the
     * delegation tokens' ({@code tokens}), for a client signing in with {@code tokenauth=true}. Sessions last as
     * {@code connections.max.reauth.ms} says for each mechanism on this listener, on the broker's clock.
     */
    public static Function<SaslSession.Outcomes, SaslSession> sessionsFor(
            BrokerConfig config, String listenerName, ScramCredentials scramCredentials, DelegationTokens tokens,
            LongSupplier monotonicMs, LongSupplier wallClockMs) {
        if (!config.usesSasl(listenerName)) {
            return null;
        }
        List<String> mechanisms = config.get(SecurityKeys.SASL_ENABLED_MECHANISMS);
        PlainUsers users = mechanisms.contains(SaslSession.PLAIN) ? plainUsers(config, listenerName) : null;
        SaslSession.Limits limits = new SaslSession.Limits(config.get(SecurityKeys.SASL_SERVER_MAX_RECEIVE_SIZE),
                config.get(SecurityKeys.CONNECTION_FAILED_AUTHENTICATION_DELAY_MS));
        Map<String, Long> maxReauthMs = new HashMap<>();
        mechanisms.forEach(mechanism -> maxReauthMs.put(mechanism,
                config.connectionsMaxReauthMs(listenerName, mechanism)));
        SaslSession.Lifetimes lifetimes = new SaslSession.Lifetimes(maxReauthMs, monotonicMs, wallClockMs);
        return outcomes -> new SaslSession(mechanisms, users, scramCredentials, tokens, limits, lifetimes, outcomes);
    }

    /**
     * How this broker signs in to another node's listener of this name, as Kafka's brokers do: with the
     * {@code username} and {@code password} options of that listener's PlainLoginModule; null if the listener has
     * no SASL. The config checks have made sure the mechanism there is PLAIN.
     */
    public static PlainLogin loginFor(BrokerConfig config, String listenerName) {
        if (!config.usesSasl(listenerName)) {
            return null;
        }
        Map<String, String> options = plainModule(config, listenerName).options();
        String user = options.get("username");
        String password = options.get("password");
        if (user == null || password == null) {
            throw new ConfigException(jaasKey(listenerName), "(hidden)", "must give the username and password this"
                    + " broker signs in with to the other nodes' " + listenerName + " listener");
        }
        return new PlainLogin(user, password);
    }

    private static PlainUsers plainUsers(BrokerConfig config, String listenerName) {
        try {
            return PlainUsers.from(List.of(plainModule(config, listenerName)));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(jaasKey(listenerName), "(hidden)", e.getMessage());
        }
    }

    private static String jaasKey(String listenerName) {
        return "listener.name." + listenerName.toLowerCase(Locale.ROOT) + ".plain.sasl.jaas.config";
    }

    /** The listener's PlainLoginModule entry, from the per-listener key, else the JAAS file. */
    private static JaasConfig.LoginModule plainModule(BrokerConfig config, String listenerName) {
        String key = jaasKey(listenerName);
        String property = config.plainJaasConfig(listenerName).orElse(null);
        try {
            if (property != null) {
                return PlainUsers.moduleIn(List.of(JaasConfig.parseProperty(property)));
            }
            String file = System.getProperty(JAAS_FILE_PROPERTY);
            if (file != null) {
                Map<String, List<JaasConfig.LoginModule>> sections =
                        JaasConfig.parseFile(Files.readString(Path.of(file), StandardCharsets.UTF_8));
                List<JaasConfig.LoginModule> modules = sections.getOrDefault(
                        listenerName.toLowerCase(Locale.ROOT) + "." + SERVER_SECTION, sections.get(SERVER_SECTION));
                if (modules != null) {
                    return PlainUsers.moduleIn(modules);
                }
            }
        } catch (IllegalArgumentException | IOException e) {
            throw new ConfigException(property != null ? key : JAAS_FILE_PROPERTY,
                    property != null ? "(hidden)" : System.getProperty(JAAS_FILE_PROPERTY), e.getMessage());
        }
        throw new ConfigException(key, null, "must give the PLAIN users of SASL listener " + listenerName
                + " (" + PlainUsers.LOGIN_MODULE + " required user_<name>=\"<password>\";), unless a JAAS file"
                + " named by " + JAAS_FILE_PROPERTY + " has a " + SERVER_SECTION + " section");
    }
}
