package io.minibroker.broker.server;

import io.minibroker.broker.config.BrokerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a broker's security state comes from, by mode. */
class SecurityApisTest {

    @TempDir
    Path logDir;

    @Test
    void aClusterBrokerGivenASecretKeyFollowsTheControllersTokens() throws Exception {
        Map<String, String> broker = new HashMap<>(Map.of("node.id", "1", "process.roles", "broker",
                "controller.quorum.voters", "0@localhost:9093", "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://localhost:9094", "log.dirs", logDir.toString()));
        assertThat(SecurityApis.open(BrokerConfig.of(broker)).tokens().enabled()).as("no key: tokens off").isFalse();

        broker.put("delegation.token.secret.key", "token-secret");
        SecurityApis security = SecurityApis.open(BrokerConfig.of(broker));
        assertThat(security.tokens().enabled()).isTrue();
        assertThat(security.tokens().all()).as("a copy, empty until an image fills it").isEmpty();
    }
}
