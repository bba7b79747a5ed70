package io.minibroker.broker.security;

/** What the server keeps of one user's password for one SCRAM mechanism (RFC 5802): never the password itself. */
public record ScramCredential(byte[] salt, byte[] storedKey, byte[] serverKey, int iterations) {
}
