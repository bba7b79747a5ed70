package io.minibroker.broker.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A security key the broker does not implement stops the start, naming the key; its off value does not, nor does one
 * it implements (re-authentication's, since session 20).
 */
class UnofferedSecurityKeysTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "sasl.kerberos.service.name | kafka | Kerberos (GSSAPI)",
            "listener.name.sasl_plaintext.gssapi.sasl.kerberos.service.name | kafka | Kerberos (GSSAPI)",
            "sasl.oauthbearer.jwks.endpoint.url | https://idp/keys | OAUTHBEARER",
            "listener.name.sasl_plaintext.oauthbearer.sasl.login.callback.handler.class | x.Handler | OAUTHBEARER",
            "sasl.server.callback.handler.class | x.Handler | custom SASL callback handlers",
            "listener.name.sasl_plaintext.plain.sasl.server.callback.handler.class | x.Handler | custom SASL callback handlers",
            "principal.builder.class | x.Builder | custom principal builders",
    })
    void aSecurityKeyTheBrokerDoesNotImplementStopsTheStart(String key, String value, String feature) {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of(key, value)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(key)
                .hasMessageContaining("implements no " + feature);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "connections.max.reauth.ms | 0",
            "listener.name.sasl_plaintext.plain.connections.max.reauth.ms | 0",
            "connections.max.reauth.ms | 3600000",
            "listener.name.sasl_ssl.scram-sha-256.connections.max.reauth.ms | 60000",
            "principal.builder.class | org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder",
            "sasl.mechanism.inter.broker.protocol | PLAIN",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config | x required user_a=\"a\";",
    })
    void theirOffValuesAndTheOfferedSecurityKeysStart(String key, String value) {
        assertThat(BrokerConfig.of(Map.of(key, value))).isNotNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "ssl.provider | SunJSSE",
            "ssl.engine.factory.class | x.Factory",
            "listener.name.external.ssl.keystore.passwd | secret",
            "ssl.client.auth | sometimes",
    })
    void anSslKeyTheBrokerDoesNotImplementOrABadValueStopsTheStart(String key, String value) {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of(key, value)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(key);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "ssl.client.auth | required",
            "ssl.principal.mapping.rules | DEFAULT",
            "listener.name.external.ssl.truststore.location | /etc/kafka/trust.jks",
    })
    void theOfferedSslKeysAreTakenOnAPlaintextBroker(String key, String value) {
        BrokerConfig config = BrokerConfig.of(Map.of(key, value));
        assertThat(config.unknownKeys()).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void aListenersPrefixedSslKeyOverridesTheGlobalOneForThatListenerOnly() {
        BrokerConfig config = BrokerConfig.of(Map.of("ssl.client.auth", "requested",
                "listener.name.external.ssl.client.auth", "required"));
        assertThat(config.sslSettings("EXTERNAL").get(SslKeys.CLIENT_AUTH)).isEqualTo("required");
        assertThat(config.sslSettings("EXTERNAL").nameOf(SslKeys.CLIENT_AUTH))
                .isEqualTo("listener.name.external.ssl.client.auth");
        assertThat(config.sslSettings("INTERNAL").get(SslKeys.CLIENT_AUTH)).isEqualTo("requested");
        assertThat(config.sslSettings("INTERNAL").get(SslKeys.ENABLED_PROTOCOLS)).isEqualTo("TLSv1.2,TLSv1.3");
    }

    @org.junit.jupiter.api.Test
    void connectionsMaxReauthMsIsLookedUpForTheMechanismThenTheListenerThenTheBroker() {
        BrokerConfig config = BrokerConfig.of(Map.of("connections.max.reauth.ms", "1000",
                "listener.name.sasl_ssl.connections.max.reauth.ms", "2000",
                "listener.name.sasl_ssl.scram-sha-256.connections.max.reauth.ms", "3000"));
        assertThat(config.connectionsMaxReauthMs("SASL_SSL", "SCRAM-SHA-256")).isEqualTo(3000);
        assertThat(config.connectionsMaxReauthMs("SASL_SSL", "PLAIN")).isEqualTo(2000);
        assertThat(config.connectionsMaxReauthMs("SASL_PLAINTEXT", "SCRAM-SHA-256")).isEqualTo(1000);
        assertThat(BrokerConfig.of(Map.of()).connectionsMaxReauthMs("SASL_PLAINTEXT", "PLAIN"))
                .as("Kafka's default: no re-authentication").isZero();
    }
}
