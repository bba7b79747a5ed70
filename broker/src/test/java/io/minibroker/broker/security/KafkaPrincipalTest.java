package io.minibroker.broker.security;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaPrincipalTest {

    @Test
    void parsesTypeAndNameAtTheFirstColonAsKafka() {
        assertThat(KafkaPrincipal.parse("User:alice")).isEqualTo(KafkaPrincipal.user("alice"));
        assertThat(KafkaPrincipal.parse("Group:a:b")).isEqualTo(new KafkaPrincipal("Group", "a:b"));
        assertThat(KafkaPrincipal.parse("User:")).isEqualTo(KafkaPrincipal.user(""));
        assertThatThrownBy(() -> KafkaPrincipal.parse("alice")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected a string in format principalType:principalName but got alice");
    }
}
