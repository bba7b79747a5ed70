package io.minibroker.broker.security;

/**
 * The client a broker forwarded a request for, as an Envelope names it (Kafka's KafkaPrincipal with its
 * tokenAuthenticated flag): who it is, and whether it signed in with a delegation token, which the controller needs
 * because a token must not beget tokens and only the broker saw how the client signed in.
 */
public record ForwardedPrincipal(KafkaPrincipal principal, boolean tokenAuthenticated) {
}
