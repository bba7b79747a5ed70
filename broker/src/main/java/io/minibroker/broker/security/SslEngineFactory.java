package io.minibroker.broker.security;

import io.minibroker.broker.config.ConfigException;
import io.minibroker.broker.config.SslKeys;
import io.minibroker.broker.config.SslSettings;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;

/**
 * A listener's TLS, built once at start from its {@code ssl.*} settings as Kafka's DefaultSslEngineFactory builds
 * it: the key store (JKS, PKCS12 or PEM, in a file or for PEM inline) and trust store (the same, or the JDK's
 * when none is given) give an {@link SSLContext} of {@code ssl.protocol}; every engine then gets
 * {@code ssl.enabled.protocols} and {@code ssl.cipher.suites}, a server one {@code ssl.client.auth}, a client one
 * (this broker connecting to another node) {@code ssl.endpoint.identification.algorithm}. Anything unreadable or
 * inconsistent stops the start with a {@link ConfigException} naming the key.
 */
public final class SslEngineFactory {

    private final SSLContext context;
    private final List<String> protocols;
    private final List<String> cipherSuites;
    private final String clientAuth;
    private final String endpointIdentification;
    private final SslPrincipalMapper principalMapper;

    private SslEngineFactory(SSLContext context, SslSettings settings, SslPrincipalMapper principalMapper) {
        this.context = context;
        this.protocols = settings.list(SslKeys.ENABLED_PROTOCOLS);
        this.cipherSuites = settings.list(SslKeys.CIPHER_SUITES);
        this.clientAuth = settings.get(SslKeys.CLIENT_AUTH).toLowerCase(Locale.ROOT);
        this.endpointIdentification = settings.get(SslKeys.ENDPOINT_IDENTIFICATION_ALGORITHM);
        this.principalMapper = principalMapper;
    }

    /**
     * The TLS of a listener this broker serves (it must have a key store) or connects to as a client (a key store
     * is then needed only if that listener asks for client certificates).
     */
    public static SslEngineFactory of(SslSettings settings, boolean serverMode) {
        SslPrincipalMapper mapper;
        try {
            mapper = SslPrincipalMapper.fromRules(settings.get(SslKeys.PRINCIPAL_MAPPING_RULES));
        } catch (IllegalArgumentException e) {
            throw settings.invalid(SslKeys.PRINCIPAL_MAPPING_RULES, e.getMessage());
        }
        KeyStore keyStore = KeyStores.keyStore(settings);
        if (keyStore == null && serverMode) {
            throw settings.invalid(SslKeys.KEYSTORE_LOCATION, "listener " + settings.listenerName()
                    + " speaks TLS and needs a key store (ssl.keystore.location, or for PEM ssl.keystore.key)");
        }
        KeyStore trustStore = KeyStores.trustStore(settings);
        SSLContext context;
        try {
            context = SSLContext.getInstance(settings.get(SslKeys.PROTOCOL));
        } catch (GeneralSecurityException e) {
            throw settings.invalid(SslKeys.PROTOCOL, e.getMessage());
        }
        try {
            context.init(keyManagers(settings, keyStore), trustManagers(settings, trustStore), secureRandom(settings));
        } catch (GeneralSecurityException e) {
            throw settings.invalid(SslKeys.KEYSTORE_LOCATION, "cannot set up TLS: " + e.getMessage());
        }
        SslEngineFactory factory = new SslEngineFactory(context, settings, mapper);
        factory.checkEngine(settings, serverMode);
        return factory;
    }

    /** An engine for a connection accepted on the listener. */
    public SSLEngine newServerEngine() {
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        configure(engine);
        switch (clientAuth) {
            case "required" -> engine.setNeedClientAuth(true);
            case "requested" -> engine.setWantClientAuth(true);
            default -> engine.setNeedClientAuth(false);
        }
        return engine;
    }

    /** An engine for this broker's connection to {@code host:port}, checking the peer's name when configured. */
    public SSLEngine newClientEngine(String host, int port) {
        SSLEngine engine = context.createSSLEngine(host, port);
        engine.setUseClientMode(true);
        configure(engine);
        engine.setSSLParameters(withEndpointIdentification(engine.getSSLParameters()));
        return engine;
    }

    /** Wraps a connected socket to {@code host:port} in TLS as a client; the handshake happens on first use. */
    public SSLSocket clientSocket(Socket connected, String host, int port) throws IOException {
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(connected, host, port, true);
        socket.setUseClientMode(true);
        SSLParameters parameters = withEndpointIdentification(socket.getSSLParameters());
        parameters.setProtocols(protocols.toArray(String[]::new));
        if (!cipherSuites.isEmpty()) {
            parameters.setCipherSuites(cipherSuites.toArray(String[]::new));
        }
        socket.setSSLParameters(parameters);
        return socket;
    }

    /**
     * The principal of a connection whose handshake finished: its client certificate's distinguished name mapped
     * by {@code ssl.principal.mapping.rules}, or ANONYMOUS when it sent none; IllegalArgumentException when no
     * rule maps the name (Kafka refuses that connection's authentication).
     */
    public KafkaPrincipal principalOf(SSLSession session) {
        Principal peer;
        try {
            peer = session.getPeerPrincipal();
        } catch (SSLPeerUnverifiedException noCertificate) {
            return KafkaPrincipal.ANONYMOUS;
        }
        return KafkaPrincipal.user(principalMapper.name(peer.getName()));
    }

    private void configure(SSLEngine engine) {
        engine.setEnabledProtocols(protocols.toArray(String[]::new));
        if (!cipherSuites.isEmpty()) {
            engine.setEnabledCipherSuites(cipherSuites.toArray(String[]::new));
        }
    }

    private SSLParameters withEndpointIdentification(SSLParameters parameters) {
        if (endpointIdentification != null && !endpointIdentification.isEmpty()) {
            parameters.setEndpointIdentificationAlgorithm(endpointIdentification.toUpperCase(Locale.ROOT));
        }
        return parameters;
    }

    /** Protocols and suites the JDK does not know fail here, at start, rather than on the first connection. */
    private void checkEngine(SslSettings settings, boolean serverMode) {
        try {
            SSLEngine engine = context.createSSLEngine();
            engine.setEnabledProtocols(protocols.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            throw settings.invalid(SslKeys.ENABLED_PROTOCOLS, e.getMessage());
        }
        try {
            if (serverMode) {
                newServerEngine();
            } else {
                newClientEngine("localhost", 0);
            }
        } catch (IllegalArgumentException e) {
            throw settings.invalid(SslKeys.CIPHER_SUITES, e.getMessage());
        }
    }

    private static KeyManager[] keyManagers(SslSettings settings, KeyStore keyStore) throws GeneralSecurityException {
        if (keyStore == null) {
            return null;
        }
        KeyManagerFactory factory;
        try {
            factory = KeyManagerFactory.getInstance(settings.get(SslKeys.KEYMANAGER_ALGORITHM));
        } catch (GeneralSecurityException e) {
            throw settings.invalid(SslKeys.KEYMANAGER_ALGORITHM, e.getMessage());
        }
        try {
            factory.init(keyStore, KeyStores.keyPassword(settings));
        } catch (GeneralSecurityException e) {
            throw settings.invalid(SslKeys.KEY_PASSWORD, "cannot read the private key: " + e.getMessage());
        }
        return factory.getKeyManagers();
    }

    private static TrustManager[] trustManagers(SslSettings settings, KeyStore trustStore)
            throws GeneralSecurityException {
        TrustManagerFactory factory;
        try {
            factory = TrustManagerFactory.getInstance(settings.get(SslKeys.TRUSTMANAGER_ALGORITHM));
        } catch (GeneralSecurityException e) {
            throw settings.invalid(SslKeys.TRUSTMANAGER_ALGORITHM, e.getMessage());
        }
        factory.init(trustStore); // null: the JDK's own trusted authorities, as Kafka without a trust store
        return factory.getTrustManagers();
    }

    private static SecureRandom secureRandom(SslSettings settings) {
        String implementation = settings.get(SslKeys.SECURE_RANDOM_IMPLEMENTATION);
        if (implementation == null) {
            return null;
        }
        try {
            return SecureRandom.getInstance(implementation);
        } catch (GeneralSecurityException e) {
            throw settings.invalid(SslKeys.SECURE_RANDOM_IMPLEMENTATION, e.getMessage());
        }
    }
}
