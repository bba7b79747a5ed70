package io.minibroker.broker.security;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static io.minibroker.broker.security.TestCertificates.ALICE;
import static io.minibroker.broker.security.TestCertificates.BROKER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Kafka's rules for a listener's key material: what each store type accepts, and engines as configured. */
class SslEngineFactoryTest {

    private static final TestCertificates CERTIFICATES = TestCertificates.get();

    @TempDir
    Path dir;

    @Test
    void aPemFileHoldingTheKeyAndChainIsAKeyStore() throws Exception {
        Path pem = dir.resolve("broker.pem");
        Files.writeString(pem, CERTIFICATES.privateKeyPem(BROKER) + CERTIFICATES.certificatePem(BROKER));
        SslEngineFactory factory = factory(Map.of("ssl.keystore.type", "PEM", "ssl.keystore.location", pem.toString(),
                "ssl.client.auth", "required", "ssl.enabled.protocols", "TLSv1.3"), true);
        SSLEngine engine = factory.newServerEngine();
        assertThat(engine.getNeedClientAuth()).isTrue();
        assertThat(engine.getEnabledProtocols()).containsExactly("TLSv1.3");
    }

    @Test
    void anEncryptedPemKeyIsReadWithTheKeyPassword() throws Exception {
        assertEncryptedKeyIsRead(encryptedKeyPem(BROKER, "key-secret"));
    }

    /** OpenSSL 3's default encryption, PBES2 with AES-256 and HMAC-SHA256; skipped where openssl is absent. */
    @Test
    void anOpensslEncryptedKeyIsReadWithTheKeyPassword() throws Exception {
        Path plain = Files.writeString(dir.resolve("key.pem"), CERTIFICATES.privateKeyPem(BROKER));
        Process openssl;
        try {
            openssl = new ProcessBuilder("openssl", "pkcs8", "-topk8", "-in", plain.toString(), "-passout",
                    "pass:key-secret").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (java.io.IOException notInstalled) {
            org.junit.jupiter.api.Assumptions.abort("openssl is not installed; skipping");
            return;
        }
        String encrypted = new String(openssl.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(openssl.waitFor()).isZero();
        assertEncryptedKeyIsRead(encrypted);
    }

    private static void assertEncryptedKeyIsRead(String encrypted) {
        Map<String, String> settings = new HashMap<>(Map.of("ssl.keystore.type", "PEM",
                "ssl.keystore.key", encrypted, "ssl.keystore.certificate.chain", CERTIFICATES.certificatePem(BROKER),
                "ssl.key.password", "key-secret"));
        assertThat(factory(settings, true).newServerEngine()).isNotNull();
        settings.put("ssl.key.password", "wrong");
        assertThatThrownBy(() -> factory(settings, true)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("ssl.keystore.key").hasMessageNotContaining("wrong");
    }

    /**
     * The identity's key as an ENCRYPTED PRIVATE KEY (PKCS#8 with PKCS#12's 3DES scheme, {@code openssl pkcs8 -v1
     * PBE-SHA1-3DES}): the JDK cannot write a PBES2 one (openssl's default), which the test above has openssl write.
     */
    private static String encryptedKeyPem(String alias, String password) throws Exception {
        String pem = CERTIFICATES.privateKeyPem(alias);
        byte[] pkcs8 = java.util.Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        String scheme = "PBEWithSHA1AndDESede";
        javax.crypto.SecretKey key = javax.crypto.SecretKeyFactory.getInstance(scheme)
                .generateSecret(new javax.crypto.spec.PBEKeySpec(password.toCharArray()));
        javax.crypto.Cipher cipher = javax.crypto.Cipher.getInstance(scheme);
        byte[] salt = new byte[16];
        new java.security.SecureRandom().nextBytes(salt);
        cipher.init(javax.crypto.Cipher.ENCRYPT_MODE, key, new javax.crypto.spec.PBEParameterSpec(salt, 10_000));
        byte[] encrypted = new javax.crypto.EncryptedPrivateKeyInfo(cipher.getParameters(), cipher.doFinal(pkcs8))
                .getEncoded();
        return "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + java.util.Base64.getMimeEncoder().encodeToString(encrypted)
                + "\n-----END ENCRYPTED PRIVATE KEY-----\n";
    }

    @Test
    void aClientEngineChecksTheHostName() {
        SSLEngine engine = factory(Map.of(), false).newClientEngine("localhost", 9093);
        assertThat(engine.getSSLParameters().getEndpointIdentificationAlgorithm()).isEqualTo("HTTPS");
        SSLEngine unchecked = factory(Map.of("ssl.endpoint.identification.algorithm", ""), false)
                .newClientEngine("localhost", 9093);
        assertThat(unchecked.getSSLParameters().getEndpointIdentificationAlgorithm()).isNull();
    }

    @Test
    void aPemKeyStoreTakesNoStorePassword() {
        Map<String, String> settings = new HashMap<>(CERTIFICATES.brokerSettings("", "PEM"));
        settings.put("ssl.keystore.password", "secret");
        assertThatThrownBy(() -> factory(settings, true)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("ssl.keystore.password").hasMessageNotContaining("secret");
    }

    @Test
    void inlinePemIsOnlyForThePemType() {
        Map<String, String> settings = new HashMap<>(CERTIFICATES.brokerSettings("", "JKS"));
        settings.put("ssl.keystore.key", CERTIFICATES.privateKeyPem(ALICE));
        assertThatThrownBy(() -> factory(settings, true)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("ssl.keystore.key").hasMessageNotContaining("PRIVATE KEY-----");
    }

    @Test
    void anUnknownProtocolOrKeyStoreTypeStopsTheStartNamingTheKey() {
        Map<String, String> protocol = new HashMap<>(CERTIFICATES.brokerSettings("", "JKS"));
        protocol.put("ssl.enabled.protocols", "TLSv0.9");
        assertThatThrownBy(() -> factory(protocol, true)).hasMessageContaining("ssl.enabled.protocols");
        Map<String, String> type = new HashMap<>(CERTIFICATES.brokerSettings("", "JKS"));
        type.put("ssl.keystore.type", "NOPE");
        assertThatThrownBy(() -> factory(type, true)).hasMessageContaining("ssl.keystore.type");
    }

    private static SslEngineFactory factory(Map<String, String> settings, boolean server) {
        Map<String, String> all = new HashMap<>(settings);
        if (!server) {
            all.put("ssl.truststore.type", "PEM");
            all.put("ssl.truststore.certificates", CERTIFICATES.certificatePem(BROKER));
        }
        return SslEngineFactory.of(BrokerConfig.of(all).sslSettings("SSL"), server);
    }
}
