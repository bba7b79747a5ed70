package io.minibroker.broker.security;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Kafka's ssl.principal.mapping.rules: the first rule that matches the whole name wins, DEFAULT keeps it. */
class SslPrincipalMapperTest {

    @Test
    void defaultKeepsTheDistinguishedName() {
        assertThat(SslPrincipalMapper.fromRules("DEFAULT").name("CN=alice,O=x")).isEqualTo("CN=alice,O=x");
        assertThat(SslPrincipalMapper.fromRules(null).name("CN=alice,O=x")).isEqualTo("CN=alice,O=x");
    }

    @Test
    void emptyEntriesAreSkippedAndABlankValueIsNoRulesAsInKafka() {
        assertThat(SslPrincipalMapper.fromRules(",DEFAULT").name("CN=alice,O=x")).isEqualTo("CN=alice,O=x");
        SslPrincipalMapper mapper = SslPrincipalMapper.fromRules("RULE:^CN=(.*?),O=x$/$1/, ,DEFAULT,");
        assertThat(mapper.name("CN=alice,O=x")).isEqualTo("alice");
        assertThat(mapper.name("CN=bob,O=y")).isEqualTo("CN=bob,O=y");
        assertThatThrownBy(() -> SslPrincipalMapper.fromRules(" ").name("CN=alice,O=x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("No rules apply");
    }

    @Test
    void aReferenceToAGroupThePatternLacksIsLiteralAsInKafka() {
        SslPrincipalMapper mapper = SslPrincipalMapper.fromRules("RULE:^CN=(.*?),OU=(.*?),O=(.*)$/$1@$4$2/");
        assertThat(mapper.name("CN=bob,OU=eng,O=Org")).isEqualTo("bob@$4eng");
        // $12 with three groups is group 1 then the digit 2; $0 is the whole name; \$2 was literal already.
        assertThat(SslPrincipalMapper.fromRules("RULE:^CN=(.*?),OU=(.*?),O=(.*)$/$12 $0 \\$2/")
                .name("CN=bob,OU=eng,O=Org")).isEqualTo("bob2 CN=bob,OU=eng,O=Org $2");
        // Without groups Kafka escapes nothing and its mapping fails: the certificate is refused, not a crash.
        assertThatThrownBy(() -> SslPrincipalMapper.fromRules("RULE:^CN=alice$/$1/").name("CN=alice"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rulesApplyInOrderWithCaseChangesAndCommasInPatterns() {
        SslPrincipalMapper mapper = SslPrincipalMapper.fromRules(
                "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L,\nRULE:^CN=(.*?),OU=(.*?),O=(.*?)$/$1@$2/U, DEFAULT");
        assertThat(mapper.name("CN=Kafka-Svc,OU=ServiceUsers,O=Org")).isEqualTo("kafka-svc");
        assertThat(mapper.name("CN=bob,OU=eng,O=Org")).isEqualTo("BOB@ENG");
        assertThat(mapper.name("CN=root")).isEqualTo("CN=root");
    }

    @Test
    void aNameNoRuleMatchesIsRefused() {
        SslPrincipalMapper mapper = SslPrincipalMapper.fromRules("RULE:^CN=(.*),OU=admins$/$1/");
        assertThat(mapper.name("CN=eve,OU=admins")).isEqualTo("eve");
        assertThatThrownBy(() -> mapper.name("CN=eve,OU=users")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void textThatIsNoRuleIsRefused() {
        assertThatThrownBy(() -> SslPrincipalMapper.fromRules("RULE:^CN=(.*)$/$1/X"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SslPrincipalMapper.fromRules("NONSENSE"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
