package io.minibroker.broker.security;

import io.minibroker.broker.config.SslKeys;
import io.minibroker.broker.config.SslSettings;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Locale;

/** Where the key and trust stores come from, and their passwords, by Kafka's rules for each store type. */
final class KeyStores {

    private KeyStores() {
    }

    /** The listener's key store, or null if none is configured. */
    static KeyStore keyStore(SslSettings settings) {
        String type = settings.get(SslKeys.KEYSTORE_TYPE);
        String location = settings.get(SslKeys.KEYSTORE_LOCATION);
        String key = settings.get(SslKeys.KEYSTORE_KEY);
        boolean pem = type.equalsIgnoreCase("PEM");
        if (!pem && (key != null || settings.get(SslKeys.KEYSTORE_CERTIFICATE_CHAIN) != null)) {
            throw settings.invalid(SslKeys.KEYSTORE_KEY, "ssl.keystore.key and ssl.keystore.certificate.chain"
                    + " are only for ssl.keystore.type PEM, not " + type);
        }
        if (location == null && key == null) {
            return null;
        }
        if (pem) {
            if (settings.get(SslKeys.KEYSTORE_PASSWORD) != null) {
                throw settings.invalid(SslKeys.KEYSTORE_PASSWORD, "a PEM key store has no password; only"
                        + " ssl.key.password may be given, for an encrypted private key");
            }
            if (location != null && key != null) {
                throw settings.invalid(SslKeys.KEYSTORE_KEY, "give either ssl.keystore.location or ssl.keystore.key");
            }
            String keyPem = key != null ? key : read(settings, SslKeys.KEYSTORE_LOCATION);
            String chain = key != null ? settings.get(SslKeys.KEYSTORE_CERTIFICATE_CHAIN) : keyPem;
            if (chain == null) {
                throw settings.invalid(SslKeys.KEYSTORE_CERTIFICATE_CHAIN, "must be set with ssl.keystore.key");
            }
            try {
                return PemKeyStore.keyStore(keyPem, chain, keyPassword(settings));
            } catch (GeneralSecurityException e) {
                throw settings.invalid(key != null ? SslKeys.KEYSTORE_KEY : SslKeys.KEYSTORE_LOCATION,
                        "not a usable PEM private key and certificate chain: " + e.getMessage());
            }
        }
        if (settings.get(SslKeys.KEYSTORE_PASSWORD) == null) {
            throw settings.invalid(SslKeys.KEYSTORE_PASSWORD, "a key store is given (" + location
                    + ") but not its password");
        }
        return load(settings, SslKeys.KEYSTORE_TYPE, SslKeys.KEYSTORE_LOCATION, SslKeys.KEYSTORE_PASSWORD);
    }

    /** The listener's trust store, or null for the JDK's trusted authorities. */
    static KeyStore trustStore(SslSettings settings) {
        String type = settings.get(SslKeys.TRUSTSTORE_TYPE);
        String location = settings.get(SslKeys.TRUSTSTORE_LOCATION);
        String certificates = settings.get(SslKeys.TRUSTSTORE_CERTIFICATES);
        boolean pem = type.equalsIgnoreCase("PEM");
        if (!pem && certificates != null) {
            throw settings.invalid(SslKeys.TRUSTSTORE_CERTIFICATES, "only for ssl.truststore.type PEM, not " + type);
        }
        if (location == null && certificates == null) {
            return null;
        }
        if (pem) {
            if (settings.get(SslKeys.TRUSTSTORE_PASSWORD) != null) {
                throw settings.invalid(SslKeys.TRUSTSTORE_PASSWORD, "a PEM trust store has no password");
            }
            if (location != null && certificates != null) {
                throw settings.invalid(SslKeys.TRUSTSTORE_CERTIFICATES,
                        "give either ssl.truststore.location or ssl.truststore.certificates");
            }
            try {
                return PemKeyStore.trustStore(certificates != null ? certificates
                        : read(settings, SslKeys.TRUSTSTORE_LOCATION));
            } catch (GeneralSecurityException e) {
                throw settings.invalid(certificates != null ? SslKeys.TRUSTSTORE_CERTIFICATES
                        : SslKeys.TRUSTSTORE_LOCATION, "not usable PEM certificates: " + e.getMessage());
            }
        }
        return load(settings, SslKeys.TRUSTSTORE_TYPE, SslKeys.TRUSTSTORE_LOCATION, SslKeys.TRUSTSTORE_PASSWORD);
    }

    /** {@code ssl.key.password}, else (for JKS and PKCS12) the key store's password, as in Kafka. */
    static char[] keyPassword(SslSettings settings) {
        String password = settings.get(SslKeys.KEY_PASSWORD);
        if (password == null && !settings.get(SslKeys.KEYSTORE_TYPE).equalsIgnoreCase("PEM")) {
            password = settings.get(SslKeys.KEYSTORE_PASSWORD);
        }
        return password == null ? null : password.toCharArray();
    }

    private static KeyStore load(SslSettings settings, String typeKey, String locationKey, String passwordKey) {
        KeyStore store;
        try {
            store = KeyStore.getInstance(settings.get(typeKey).toUpperCase(Locale.ROOT));
        } catch (GeneralSecurityException e) {
            throw settings.invalid(typeKey, "not a key store type of this JDK, nor PEM");
        }
        String password = settings.get(passwordKey);
        try (InputStream in = Files.newInputStream(Path.of(settings.get(locationKey)))) {
            store.load(in, password == null ? null : password.toCharArray());
        } catch (IOException | GeneralSecurityException e) {
            throw settings.invalid(locationKey, "cannot load it as " + settings.get(typeKey)
                    + " with the password given: " + e.getMessage());
        }
        return store;
    }

    private static String read(SslSettings settings, String locationKey) {
        try {
            return Files.readString(Path.of(settings.get(locationKey)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw settings.invalid(locationKey, "cannot read it: " + e);
        }
    }
}
