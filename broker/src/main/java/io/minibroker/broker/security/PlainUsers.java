package io.minibroker.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The users SASL/PLAIN accepts on a listener, as Kafka's PLAIN server reads them: the {@code user_<name>="<password>"}
 * options of the {@code PlainLoginModule} entry of the listener's JAAS configuration.
 */
public final class PlainUsers {

    /** The login module Kafka's PLAIN mechanism is configured through. */
    public static final String LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";

    private static final String USER_PREFIX = "user_";

    private final Map<String, byte[]> passwords;

    private PlainUsers(Map<String, byte[]> passwords) {
        this.passwords = passwords;
    }

    /**
     * The users of the {@link #LOGIN_MODULE} entry among these modules; IllegalArgumentException if there is no
     * such entry or it names no user.
     */
    public static PlainUsers from(List<JaasConfig.LoginModule> modules) {
        JaasConfig.LoginModule plain = moduleIn(modules);
        Map<String, byte[]> passwords = new HashMap<>();
        plain.options().forEach((name, value) -> {
            if (name.startsWith(USER_PREFIX) && name.length() > USER_PREFIX.length()) {
                passwords.put(name.substring(USER_PREFIX.length()), value.getBytes(StandardCharsets.UTF_8));
            }
        });
        if (passwords.isEmpty()) {
            throw new IllegalArgumentException("the " + LOGIN_MODULE + " entry names no user_<name>=\"<password>\"");
        }
        return new PlainUsers(passwords);
    }

    /** The {@link #LOGIN_MODULE} entry among these modules; IllegalArgumentException if there is none. */
    static JaasConfig.LoginModule moduleIn(List<JaasConfig.LoginModule> modules) {
        return modules.stream().filter(m -> m.className().equals(LOGIN_MODULE)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no " + LOGIN_MODULE + " entry"));
    }

    /** Whether {@code password} is that user's; compared in constant time, so a timing says nothing of it. */
    public boolean accepts(String user, String password) {
        byte[] expected = passwords.get(user);
        byte[] given = password.getBytes(StandardCharsets.UTF_8);
        return expected != null && MessageDigest.isEqual(expected, given);
    }
}
