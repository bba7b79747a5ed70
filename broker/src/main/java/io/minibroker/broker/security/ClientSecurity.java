package io.minibroker.broker.security;

import io.minibroker.broker.config.BrokerConfig;

import java.util.function.LongSupplier;

/**
 * How this broker connects, as a client, to another node's listener (the controller's, a leader's inter-broker
 * one), as Kafka's brokers do with that listener's own settings: TLS with the listener's key store, trust store
 * and endpoint identification when it is SSL or SASL_SSL (null otherwise), then SASL/PLAIN with the listener's
 * login when it is SASL_PLAINTEXT or SASL_SSL (null otherwise), re-authenticating on the broker's clock
 * ({@code monotonicMs}) before the session the other node gave it ends (KIP-368).
 */
public record ClientSecurity(SslEngineFactory tls, PlainLogin login, LongSupplier monotonicMs) {

    /** A PLAINTEXT listener. */
    public static final ClientSecurity NONE = new ClientSecurity(null, null, null);

    /** How to connect to the other nodes' listener of this name; {@code monotonicMs} is the broker's clock. */
    public static ClientSecurity forListener(BrokerConfig config, String listenerName, LongSupplier monotonicMs) {
        SslEngineFactory tls = config.usesTls(listenerName)
                ? SslEngineFactory.of(config.sslSettings(listenerName), false) : null;
        return new ClientSecurity(tls, SaslListeners.loginFor(config, listenerName), monotonicMs);
    }
}
