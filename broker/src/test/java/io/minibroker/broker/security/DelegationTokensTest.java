package io.minibroker.broker.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The node's delegation tokens as held: what a change keeps, what a restart reads back. */
class DelegationTokensTest {

    private static final DelegationToken TOKEN = new DelegationToken("token-1", KafkaPrincipal.user("alice"),
            KafkaPrincipal.user("alice"), List.of(KafkaPrincipal.user("bob")), 1_000, 11_000, 5_000);

    @TempDir
    Path dir;

    @Test
    void aRenewalKeepsTheTokensHmacAndScramCredentials() throws Exception {
        DelegationTokens tokens = DelegationTokens.open(dir, "secret");
        DelegationTokens.Held created = tokens.put(TOKEN);

        DelegationTokens.Held renewed = tokens.put(TOKEN.withExpiryTimestamp(9_000));

        assertThat(renewed.token().expiryTimestamp()).isEqualTo(9_000);
        assertThat(renewed.hmac()).isEqualTo(created.hmac());
        for (ScramMechanism mechanism : ScramMechanism.values()) {
            assertThat(renewed.credentials().get(mechanism)).as("not derived again (a fresh salt each time)")
                    .isSameAs(created.credentials().get(mechanism));
        }
        assertThat(tokens.byHmac(created.hmac())).get().isSameAs(renewed);
    }

    @Test
    void aRestartReadsTheTokensBackWithTheirHmacs() throws Exception {
        DelegationTokens.Held created = DelegationTokens.open(dir, "secret").put(TOKEN);

        DelegationTokens reopened = DelegationTokens.open(dir, "secret");

        assertThat(reopened.byId(TOKEN.tokenId())).get().satisfies(held -> {
            assertThat(held.token()).isEqualTo(TOKEN);
            assertThat(held.hmac()).isEqualTo(created.hmac());
        });
    }
}
