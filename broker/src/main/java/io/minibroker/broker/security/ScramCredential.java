package io.minibroker.broker.security;

import java.util.Arrays;

/**
 * What the server keeps of one user's password for one SCRAM mechanism (RFC 5802): never the password itself. Equal
 * to another with the same bytes, so that an image's credentials compare by value with the last ones applied.
 */
public record ScramCredential(byte[] salt, byte[] storedKey, byte[] serverKey, int iterations) {

    @Override
    public boolean equals(Object other) {
        return other instanceof ScramCredential that && iterations == that.iterations
                && Arrays.equals(salt, that.salt) && Arrays.equals(storedKey, that.storedKey)
                && Arrays.equals(serverKey, that.serverKey);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * Arrays.hashCode(salt) + Arrays.hashCode(storedKey)) + Arrays.hashCode(serverKey))
                + iterations;
    }
}
