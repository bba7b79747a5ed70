package io.minibroker.broker.security;

import io.minibroker.protocol.error.ProtocolException;
import org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An Envelope's RequestPrincipal byte for byte as kafka-clients' DefaultKafkaPrincipalBuilder serializes it, and
 * Kafka's bytes read back; bytes of another version or cut short refused.
 */
class KafkaPrincipalSerdeTest {

    private final DefaultKafkaPrincipalBuilder kafka = new DefaultKafkaPrincipalBuilder(null, null);

    private static org.apache.kafka.common.security.auth.KafkaPrincipal kafkaPrincipal(String type, String name,
                                                                                      boolean token) {
        org.apache.kafka.common.security.auth.KafkaPrincipal principal =
                new org.apache.kafka.common.security.auth.KafkaPrincipal(type, name);
        principal.tokenAuthenticated(token);
        return principal;
    }

    @Test
    void theBytesAreKafkasAndKafkasReadBack() {
        for (boolean token : new boolean[]{false, true}) {
            byte[] kafkaBytes = kafka.serialize(kafkaPrincipal("User", "alice:ü", token));
            assertThat(KafkaPrincipalSerde.serialize(KafkaPrincipal.user("alice:ü"), token)).isEqualTo(kafkaBytes);
            assertThat(KafkaPrincipalSerde.deserialize(kafkaBytes))
                    .isEqualTo(new ForwardedPrincipal(KafkaPrincipal.user("alice:ü"), token));
            var readByKafka = kafka.deserialize(KafkaPrincipalSerde.serialize(new KafkaPrincipal("Group", "ops"), token));
            assertThat(readByKafka).isEqualTo(kafkaPrincipal("Group", "ops", token));
            assertThat(readByKafka.tokenAuthenticated()).isEqualTo(token);
        }
    }

    @Test
    void anotherVersionOrTooFewBytesAreRefused() {
        byte[] bytes = KafkaPrincipalSerde.serialize(KafkaPrincipal.ANONYMOUS, false);
        bytes[1] = 1;
        assertThatThrownBy(() -> KafkaPrincipalSerde.deserialize(bytes)).isInstanceOf(ProtocolException.class);
        assertThatThrownBy(() -> KafkaPrincipalSerde.deserialize(new byte[]{0, 0, 9}))
                .isInstanceOf(ProtocolException.class);
    }
}
