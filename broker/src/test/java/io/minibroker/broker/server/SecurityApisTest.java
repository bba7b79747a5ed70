package io.minibroker.broker.server;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.minibroker.broker.config.BrokerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a broker's security state comes from, by mode. */
class SecurityApisTest {

    private final Logger logger = (Logger) LoggerFactory.getLogger(SecurityApis.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    @TempDir
    Path logDir;

    @BeforeEach
    void watch() {
        logged.start();
        logger.addAppender(logged);
    }

    @AfterEach
    void stopWatching() {
        logger.detachAppender(logged);
    }

    @Test
    void aClusterBrokerOffersNoTokensAndSaysSoWhenGivenASecretKey() throws Exception {
        Map<String, String> broker = new HashMap<>(Map.of("node.id", "1", "process.roles", "broker",
                "controller.quorum.voters", "0@localhost:9093", "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://localhost:9094", "log.dirs", logDir.toString()));
        SecurityApis.open(BrokerConfig.of(broker));
        assertThat(logged.list).as("no key, nothing to say").isEmpty();

        broker.put("delegation.token.secret.key", "token-secret");
        SecurityApis security = SecurityApis.open(BrokerConfig.of(broker));

        assertThat(security.tokens().enabled()).isFalse();
        assertThat(logged.list).singleElement().satisfies(event -> assertThat(event.getFormattedMessage())
                .isEqualTo("Ignoring delegation.token.secret.key: delegation tokens are offered on a single node"
                        + " only, not in a cluster"));
    }
}
