package io.minibroker.broker.security;

import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Key and trust material in PEM, as Kafka's {@code ssl.keystore.type=PEM} and {@code ssl.truststore.type=PEM} take
 * it (in a file, or inline in {@code ssl.keystore.key}, {@code ssl.keystore.certificate.chain} and
 * {@code ssl.truststore.certificates}): X.509 certificates, and one private key in PKCS#8, encrypted
 * ({@code ENCRYPTED PRIVATE KEY}, with {@code ssl.key.password}) or not. Turned into in-memory key stores, which the
 * JDK's key and trust managers take.
 */
final class PemKeyStore {

    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "DSA", "Ed25519", "Ed448");
    /** The alias of the one entry of a key store built from PEM. */
    static final String KEY_ALIAS = "kafka";

    private PemKeyStore() {
    }

    /** A key store with one entry: the private key and its certificate chain; protected by {@code keyPassword}. */
    static KeyStore keyStore(String keyPem, String certificatesPem, char[] keyPassword)
            throws GeneralSecurityException {
        List<byte[]> keys = blocks(keyPem, "PRIVATE KEY");
        List<byte[]> encrypted = blocks(keyPem, "ENCRYPTED PRIVATE KEY");
        if (keys.size() + encrypted.size() != 1) {
            throw new GeneralSecurityException("expected one PRIVATE KEY or ENCRYPTED PRIVATE KEY block in PKCS#8,"
                    + " found " + (keys.size() + encrypted.size()));
        }
        byte[] pkcs8 = keys.isEmpty() ? decrypt(encrypted.get(0), keyPassword) : keys.get(0);
        List<Certificate> chain = certificates(certificatesPem);
        if (chain.isEmpty()) {
            throw new GeneralSecurityException("no CERTIFICATE block for the private key");
        }
        KeyStore store = emptyStore();
        store.setKeyEntry(KEY_ALIAS, privateKey(pkcs8), keyPassword == null ? new char[0] : keyPassword,
                chain.toArray(Certificate[]::new));
        return store;
    }

    /** A trust store holding these certificates. */
    static KeyStore trustStore(String certificatesPem) throws GeneralSecurityException {
        List<Certificate> certificates = certificates(certificatesPem);
        if (certificates.isEmpty()) {
            throw new GeneralSecurityException("no CERTIFICATE block");
        }
        KeyStore store = emptyStore();
        for (int i = 0; i < certificates.size(); i++) {
            store.setCertificateEntry("kafka" + i, certificates.get(i));
        }
        return store;
    }

    private static KeyStore emptyStore() throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, null);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException(e); // loading nothing reads nothing
        }
        return store;
    }

    private static List<Certificate> certificates(String pem) throws GeneralSecurityException {
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        List<Certificate> certificates = new ArrayList<>();
        for (byte[] der : blocks(pem, "CERTIFICATE")) {
            certificates.add(factory.generateCertificate(new ByteArrayInputStream(der)));
        }
        return certificates;
    }

    /** The key in whichever algorithm its encoding is of. */
    private static PrivateKey privateKey(byte[] pkcs8) throws GeneralSecurityException {
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            } catch (GeneralSecurityException notThisAlgorithm) {
                // try the next one
            }
        }
        throw new GeneralSecurityException("the private key is none of " + KEY_ALGORITHMS);
    }

    private static byte[] decrypt(byte[] der, char[] password) throws GeneralSecurityException {
        if (password == null) {
            throw new GeneralSecurityException("the private key is encrypted and ssl.key.password is not set");
        }
        EncryptedPrivateKeyInfo info;
        try {
            info = new EncryptedPrivateKeyInfo(der);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException("not an encrypted PKCS#8 key: " + e.getMessage(), e);
        }
        String algorithm = info.getAlgName();
        SecretKeyFactory factory;
        try {
            factory = SecretKeyFactory.getInstance(algorithm);
        } catch (GeneralSecurityException pbes2) {
            // PBES2 names itself by OID; its parameters name the real scheme (PBEWithHmacSHA256AndAES_256 ...).
            algorithm = info.getAlgParameters().toString();
            factory = SecretKeyFactory.getInstance(algorithm);
        }
        Cipher cipher = Cipher.getInstance(algorithm);
        cipher.init(Cipher.DECRYPT_MODE, factory.generateSecret(new PBEKeySpec(password)), info.getAlgParameters());
        return info.getKeySpec(cipher).getEncoded();
    }

    private static List<byte[]> blocks(String pem, String type) {
        List<byte[]> blocks = new ArrayList<>();
        Matcher matcher = BLOCK.matcher(pem);
        while (matcher.find()) {
            if (matcher.group(1).equals(type)) {
                blocks.add(Base64.getMimeDecoder().decode(matcher.group(2)));
            }
        }
        return blocks;
    }
}
