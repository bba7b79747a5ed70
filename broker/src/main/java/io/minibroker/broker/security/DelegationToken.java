package io.minibroker.broker.security;

import java.util.List;

/**
 * One delegation token (KIP-48), Kafka's TokenInformation: its id, who it stands for (the owner, whom a client
 * signing in with it becomes), who asked for it, who besides the owner may renew or expire it, and its times — issued,
 * the latest it may be renewed to, and when it expires unless renewed. Its HMAC, the password a client signs in with,
 * is not part of it: it follows from the id and the broker's secret key ({@link DelegationTokens#hmac}).
 */
public record DelegationToken(String tokenId, KafkaPrincipal owner, KafkaPrincipal requester,
                              List<KafkaPrincipal> renewers, long issueTimestamp, long maxTimestamp,
                              long expiryTimestamp) {

    public DelegationToken {
        renewers = List.copyOf(renewers);
    }

    /**
     * Whether this principal owns the token or is one of its renewers: who may renew and expire it (Kafka's
     * controller's allowedToRenew).
     */
    public boolean allowedToRenew(KafkaPrincipal principal) {
        return owner.equals(principal) || renewers.contains(principal);
    }

    /**
     * Whether this principal owns the token, asked for it or may renew it: whom a description lists it for. Kafka's
     * TokenInformation.ownerOrRenewer, which despite its name counts the requester too.
     */
    public boolean ownerOrRenewer(KafkaPrincipal principal) {
        return requester.equals(principal) || allowedToRenew(principal);
    }

    /** Whether the token is past its expiry or its maximum lifetime at {@code nowMs}, Kafka's test. */
    public boolean expiredAt(long nowMs) {
        return maxTimestamp < nowMs || expiryTimestamp < nowMs;
    }

    public DelegationToken withExpiryTimestamp(long expiry) {
        return new DelegationToken(tokenId, owner, requester, renewers, issueTimestamp, maxTimestamp, expiry);
    }
}
