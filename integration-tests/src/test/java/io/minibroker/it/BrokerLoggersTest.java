package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code kafka-configs --entity-type broker-loggers} against a broker with the server's Logback backend, as Kafka
 * 4.3.1 answers it: DescribeConfigs of BROKER_LOGGER lists the loggers, IncrementalAlterConfigs sets and clears a
 * level, with Kafka's errors.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BrokerLoggersTest {

    private static final String LOGGER = "io.minibroker.broker.produce";

    @Test
    void aLoggersLevelIsDescribedSetAndClearedWithKafkasErrors() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            LoggerFactory.getLogger(LOGGER);
            ConfigResource loggers = new ConfigResource(ConfigResource.Type.BROKER_LOGGER,
                    Integer.toString(nodeId(admin)));
            Config before = admin.describeConfigs(List.of(loggers)).all().get().get(loggers);
            assertThat(before.get("root")).isNotNull();
            assertThat(before.get(LOGGER).source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG);
            String inherited = before.get(LOGGER).value();

            alter(admin, loggers, LOGGER, "TRACE", AlterConfigOp.OpType.SET);
            assertThat(admin.describeConfigs(List.of(loggers)).all().get().get(loggers).get(LOGGER).value())
                    .isEqualTo("TRACE");
            alter(admin, loggers, LOGGER, null, AlterConfigOp.OpType.DELETE);
            assertThat(admin.describeConfigs(List.of(loggers)).all().get().get(loggers).get(LOGGER).value())
                    .isEqualTo(inherited);

            assertThatThrownBy(() -> alter(admin, loggers, "no.such.logger", "INFO", AlterConfigOp.OpType.SET))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidConfigurationException.class)
                    .hasMessage("Logger no.such.logger does not exist!");
            assertThatThrownBy(() -> alter(admin, loggers, LOGGER, "LOUD", AlterConfigOp.OpType.SET))
                    .cause().isInstanceOf(InvalidConfigurationException.class).hasMessage("Cannot set the log level of "
                            + LOGGER + " to LOUD as it is not a supported log level. Valid log levels are DEBUG, "
                            + "ERROR, FATAL, INFO, TRACE, WARN");
            assertThatThrownBy(() -> alter(admin, loggers, "root", null, AlterConfigOp.OpType.DELETE))
                    .cause().isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Removing the log level of the root logger is not allowed");
        }
    }

    private static int nodeId(Admin admin) throws Exception {
        return admin.describeCluster().nodes().get().iterator().next().id();
    }

    private static void alter(Admin admin, ConfigResource resource, String logger, String level,
                              AlterConfigOp.OpType op) throws Exception {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(logger, level), op))))
                .all().get();
    }
}
