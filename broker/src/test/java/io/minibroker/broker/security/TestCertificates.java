package io.minibroker.broker.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Key material for TLS tests, made once per test JVM with the JDK alone: the JDK's keytool makes each identity's
 * self-signed key pair (the broker's, for {@code localhost} and {@code 127.0.0.1}; client users'), and the
 * KeyStore API writes them out as PKCS12, JKS and PEM, and the trust stores that trust them. Self-signed
 * certificates trusted one by one stand in for a CA: what is tested is the broker's reading and checking, not a
 * chain's validation, which is the JDK's.
 */
public final class TestCertificates {

    public static final String PASSWORD = "test-secret";
    /** The broker's identity: every node of a test cluster shares it (its names are localhost's). */
    public static final String BROKER = "broker";
    /** A client user whose certificate the broker trusts; its DN is {@value #ALICE_DN}. */
    public static final String ALICE = "alice";
    public static final String ALICE_DN = "CN=alice,OU=clients,O=minibroker";
    /** A client whose self-signed certificate nobody trusts. */
    public static final String MALLORY = "mallory";

    private static TestCertificates instance;

    private final Path dir;
    private final Map<String, KeyStore> identities = new HashMap<>();

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** The shared material, made on first use. */
    public static synchronized TestCertificates get() {
        if (instance == null) {
            try {
                TestCertificates made = new TestCertificates(Files.createTempDirectory("minibroker-tls-"));
                made.generate(BROKER, "CN=localhost,OU=brokers,O=minibroker", "dns:localhost,ip:127.0.0.1");
                made.generate(ALICE, ALICE_DN, null);
                made.generate(MALLORY, "CN=mallory,O=elsewhere", null);
                instance = made;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException | GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
        return instance;
    }

    private void generate(String alias, String dn, String subjectAlternativeNames)
            throws IOException, InterruptedException, GeneralSecurityException {
        Path store = dir.resolve(alias + ".p12");
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", alias, "-keyalg", "RSA", "-keysize", "2048", "-validity", "30",
                "-dname", dn, "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD));
        if (subjectAlternativeNames != null) {
            command.addAll(List.of("-ext", "SAN=" + subjectAlternativeNames));
        }
        Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (keytool.waitFor() != 0) {
            throw new IOException("keytool failed: " + output);
        }
        KeyStore loaded = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            loaded.load(in, PASSWORD.toCharArray());
        }
        identities.put(alias, loaded);
    }

    /** The identity's key store file in this type (PKCS12 or JKS), protected by {@link #PASSWORD}. */
    public Path keyStore(String alias, String type) {
        Path file = dir.resolve(alias + "-key." + type.toLowerCase());
        if (!Files.exists(file)) {
            try {
                KeyStore source = identities.get(alias);
                KeyStore target = emptyStore(type);
                target.setKeyEntry(alias, source.getKey(alias, PASSWORD.toCharArray()), PASSWORD.toCharArray(),
                        source.getCertificateChain(alias));
                write(target, file);
            } catch (IOException | GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
        return file;
    }

    /** A trust store file of this type (PKCS12 or JKS) holding these identities' certificates. */
    public Path trustStore(String type, String... aliases) {
        Path file = dir.resolve(String.join("+", aliases) + "-trust." + type.toLowerCase());
        if (!Files.exists(file)) {
            try {
                KeyStore target = emptyStore(type);
                for (String alias : aliases) {
                    target.setCertificateEntry(alias, certificate(alias));
                }
                write(target, file);
            } catch (IOException | GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
        return file;
    }

    /** The identity's certificate in PEM. */
    public String certificatePem(String alias) {
        try {
            return pem("CERTIFICATE", certificate(alias).getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The identity's private key in unencrypted PKCS#8 PEM. */
    public String privateKeyPem(String alias) {
        try {
            Key key = identities.get(alias).getKey(alias, PASSWORD.toCharArray());
            return pem("PRIVATE KEY", key.getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The identity's certificate in a PEM file, as librdkafka's {@code ssl.ca.location} takes it. */
    public Path certificateFile(String alias) {
        return pemFile(alias + "-cert.pem", certificatePem(alias));
    }

    /** The identity's private key in a PEM file, as librdkafka's {@code ssl.key.location} takes it. */
    public Path privateKeyFile(String alias) {
        return pemFile(alias + "-key.pem", privateKeyPem(alias));
    }

    private Path pemFile(String name, String pem) {
        Path file = dir.resolve(name);
        try {
            Files.writeString(file, pem);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    private Certificate certificate(String alias) throws GeneralSecurityException {
        return identities.get(alias).getCertificate(alias);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    private static KeyStore emptyStore(String type) throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(type);
        store.load(null, null);
        return store;
    }

    private static void write(KeyStore store, Path file) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, PASSWORD.toCharArray());
        }
    }

    /**
     * A broker's {@code ssl.*} settings for a key store of this type (JKS, PKCS12, or PEM inline), trusting the
     * broker's and alice's certificates; {@code prefix} is "" or {@code listener.name.<listener>.}.
     */
    public Map<String, String> brokerSettings(String prefix, String type) {
        Map<String, String> settings = new HashMap<>();
        if (type.equals("PEM")) {
            settings.put(prefix + "ssl.keystore.type", "PEM");
            settings.put(prefix + "ssl.keystore.key", privateKeyPem(BROKER));
            settings.put(prefix + "ssl.keystore.certificate.chain", certificatePem(BROKER));
            settings.put(prefix + "ssl.truststore.type", "PEM");
            settings.put(prefix + "ssl.truststore.certificates", certificatePem(BROKER) + certificatePem(ALICE));
        } else {
            settings.put(prefix + "ssl.keystore.type", type);
            settings.put(prefix + "ssl.keystore.location", keyStore(BROKER, type).toString());
            settings.put(prefix + "ssl.keystore.password", PASSWORD);
            settings.put(prefix + "ssl.key.password", PASSWORD);
            settings.put(prefix + "ssl.truststore.type", type);
            settings.put(prefix + "ssl.truststore.location", trustStore(type, BROKER, ALICE).toString());
            settings.put(prefix + "ssl.truststore.password", PASSWORD);
        }
        return settings;
    }

    /** A kafka-clients config's TLS part: trusting the broker, and with this identity's certificate unless null. */
    public Map<String, Object> clientSettings(String type, String identity) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("ssl.truststore.type", type);
        if (type.equals("PEM")) {
            settings.put("ssl.truststore.certificates", certificatePem(BROKER));
        } else {
            settings.put("ssl.truststore.location", trustStore(type, BROKER).toString());
            settings.put("ssl.truststore.password", PASSWORD);
        }
        if (identity != null) {
            settings.put("ssl.keystore.type", type);
            if (type.equals("PEM")) {
                settings.put("ssl.keystore.key", privateKeyPem(identity));
                settings.put("ssl.keystore.certificate.chain", certificatePem(identity));
            } else {
                settings.put("ssl.keystore.location", keyStore(identity, type).toString());
                settings.put("ssl.keystore.password", PASSWORD);
                settings.put("ssl.key.password", PASSWORD);
            }
        }
        return settings;
    }
}
