package io.minibroker.broker.security;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * Kafka's SCRAM mechanisms (RFC 5802, RFC 7677), by their SASL names and the type numbers the SCRAM credential APIs
 * use, with the iteration bounds Kafka accepts.
 */
public enum ScramMechanism {
    SCRAM_SHA_256("SCRAM-SHA-256", (byte) 1, "SHA-256", "HmacSHA256"),
    SCRAM_SHA_512("SCRAM-SHA-512", (byte) 2, "SHA-512", "HmacSHA512");

    /** Kafka's bounds on a credential's iteration count. */
    public static final int MIN_ITERATIONS = 4096;
    public static final int MAX_ITERATIONS = 16384;
    private static final int SALT_BYTES = 24;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String saslName;
    private final byte type;
    private final String hashAlgorithm;
    private final String macAlgorithm;

    ScramMechanism(String saslName, byte type, String hashAlgorithm, String macAlgorithm) {
        this.saslName = saslName;
        this.type = type;
        this.hashAlgorithm = hashAlgorithm;
        this.macAlgorithm = macAlgorithm;
    }

    public String saslName() {
        return saslName;
    }

    public byte type() {
        return type;
    }

    /** The mechanism of this SASL name, or null. */
    public static ScramMechanism bySaslName(String name) {
        for (ScramMechanism mechanism : values()) {
            if (mechanism.saslName.equals(name)) {
                return mechanism;
            }
        }
        return null;
    }

    /** The mechanism of this credential type, or null. */
    public static ScramMechanism byType(byte type) {
        for (ScramMechanism mechanism : values()) {
            if (mechanism.type == type) {
                return mechanism;
            }
        }
        return null;
    }

    byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance(macAlgorithm);
            mac.init(new SecretKeySpec(key, macAlgorithm));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(macAlgorithm + " is part of every Java runtime", e);
        }
    }

    byte[] hmac(byte[] key, String data) {
        return hmac(key, data.getBytes(StandardCharsets.UTF_8));
    }

    byte[] hash(byte[] data) {
        try {
            return MessageDigest.getInstance(hashAlgorithm).digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(hashAlgorithm + " is part of every Java runtime", e);
        }
    }

    /**
     * What the server keeps of a password it is given in clear (a delegation token's HMAC, as Kafka's
     * ScramFormatter makes it): a fresh random salt and RFC 5802's Hi(password, salt, iterations).
     */
    public ScramCredential credentialOf(String password, int iterations) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        byte[] key = password.getBytes(StandardCharsets.UTF_8);
        byte[] previous = hmac(key, ByteBuffer.allocate(salt.length + 4).put(salt).putInt(1).array());
        byte[] salted = previous.clone();
        for (int i = 1; i < iterations; i++) {
            previous = hmac(key, previous);
            for (int b = 0; b < salted.length; b++) {
                salted[b] ^= previous[b];
            }
        }
        return credential(salt, salted, iterations);
    }

    /** What the server keeps of a password: its stored key and server key, from the salted password. */
    public ScramCredential credential(byte[] salt, byte[] saltedPassword, int iterations) {
        byte[] storedKey = hash(hmac(saltedPassword, "Client Key"));
        byte[] serverKey = hmac(saltedPassword, "Server Key");
        return new ScramCredential(salt, storedKey, serverKey, iterations);
    }
}
