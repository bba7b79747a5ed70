package io.minibroker.broker.security;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** JAAS configurations as Kafka's brokers are given them: a sasl.jaas.config value, and a JAAS file. */
class JaasConfigTest {

    @Test
    void aPropertyValueGivesItsModuleAndOptionsQuotedOrNot() {
        JaasConfig.LoginModule module = JaasConfig.parseProperty(
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=admin"
                        + " password=\"admin-secret\" user_admin=\"admin-secret\" user_alice=\"a \\\"quoted\\\" {;=}\";");

        assertThat(module.className()).isEqualTo(PlainUsers.LOGIN_MODULE);
        assertThat(module.flag()).isEqualTo("required");
        assertThat(module.options()).containsExactly(Map.entry("username", "admin"),
                Map.entry("password", "admin-secret"), Map.entry("user_admin", "admin-secret"),
                Map.entry("user_alice", "a \"quoted\" {;=}"));
    }

    @Test
    void aFileGivesItsSectionsAndSkipsComments() {
        Map<String, List<JaasConfig.LoginModule>> sections = JaasConfig.parseFile("""
                // the broker's users
                KafkaServer {
                    org.apache.kafka.common.security.plain.PlainLoginModule required
                    user_alice="alice-secret"; /* more to come */
                };
                Client { com.example.Other optional; };
                """);

        assertThat(sections).containsOnlyKeys("KafkaServer", "Client");
        assertThat(sections.get("KafkaServer").get(0).options()).containsExactly(Map.entry("user_alice", "alice-secret"));
        assertThat(sections.get("Client").get(0).options()).isEmpty();
    }

    @Test
    void malformedConfigurationsAreRefusedSayingWhy() {
        assertThatThrownBy(() -> JaasConfig.parseProperty("")).hasMessageContaining("one login module, not 0");
        assertThatThrownBy(() -> JaasConfig.parseProperty("A required; B required;"))
                .hasMessageContaining("one login module, not 2");
        assertThatThrownBy(() -> JaasConfig.parseProperty("A mandatory;")).hasMessageContaining("control flag");
        assertThatThrownBy(() -> JaasConfig.parseProperty("Module required user_bob:\"bob-s3cret\";"))
                .as("a password is never echoed").hasMessageNotContaining("s3cret").hasMessageContaining("token 4");
        assertThatThrownBy(() -> JaasConfig.parseProperty("Module required user_a=\"x\""))
                .hasMessageContaining("ends early");
        assertThatThrownBy(() -> JaasConfig.parseProperty("Module required user_a=\"x;"))
                .hasMessageContaining("unclosed quote");
        assertThatThrownBy(() -> JaasConfig.parseProperty("Module required =x;")).hasMessageContaining("option name");
        assertThatThrownBy(() -> JaasConfig.parseFile("KafkaServer { Module required; }"))
                .hasMessageContaining("ends early");
    }

    @Test
    void plainUsersComeFromThePlainModulesUserOptions() {
        PlainUsers users = PlainUsers.from(List.of(JaasConfig.parseProperty(
                PlainUsers.LOGIN_MODULE + " required username=admin password=admin-pw user_admin=admin-pw"
                        + " user_alice=alice-pw;")));

        assertThat(users.accepts("alice", "alice-pw")).isTrue();
        assertThat(users.accepts("admin", "admin-pw")).isTrue();
        assertThat(users.accepts("alice", "admin-pw")).isFalse();
        assertThat(users.accepts("username", "admin")).as("username= is the broker's own login, not a user").isFalse();
        assertThatThrownBy(() -> PlainUsers.from(List.of(JaasConfig.parseProperty(
                PlainUsers.LOGIN_MODULE + " required;")))).hasMessageContaining("names no user");
        assertThatThrownBy(() -> PlainUsers.from(List.of(JaasConfig.parseProperty(
                "other.Module required user_a=b;")))).hasMessageContaining("no " + PlainUsers.LOGIN_MODULE);
    }
}
