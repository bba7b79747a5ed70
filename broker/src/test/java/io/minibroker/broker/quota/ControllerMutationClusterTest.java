package io.minibroker.broker.quota;

import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.ThrottlingQuotaExceededException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code controller_mutation_rate} in a three-node cluster: a broker forwards CreateTopics in an Envelope with the
 * client's principal, and its header with the client id, so the controller counts the topic against the client's
 * quota, as Kafka's ControllerApis does; a client id without the quota, through the same broker, is not throttled.
 * Rate 1 with 2 windows (a burst of 2): 21 partitions take the bucket to -19, so the next topic is refused.
 */
@Timeout(120)
class ControllerMutationClusterTest {

    private static Admin admin(MiniCluster cluster, String clientId) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                AdminClientConfig.CLIENT_ID_CONFIG, clientId));
    }

    @Test
    void theControllerThrottlesTheClientWhoseChangesABrokerForwards() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(3, Map.of("controller.quota.window.num", "2"));
             Admin other = admin(cluster, "other"); Admin mutator = admin(cluster, "mutator")) {
            other.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "mutator")),
                    List.of(new ClientQuotaAlteration.Op(QuotaConfig.CONTROLLER_MUTATION_RATE, 1.0))))).all().get();
            CreateTopicsOptions noRetry = new CreateTopicsOptions().retryOnQuotaViolation(false);

            mutator.createTopics(List.of(new NewTopic("a", 21, (short) 1)), noRetry).all().get();
            assertThatThrownBy(() -> mutator.createTopics(List.of(new NewTopic("b", 1, (short) 1)), noRetry).all()
                    .get()).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ThrottlingQuotaExceededException.class)
                    .satisfies(e -> assertThat(((ThrottlingQuotaExceededException) e.getCause()).throttleTimeMs())
                            .as("the time the bucket needs").isPositive());
            other.createTopics(List.of(new NewTopic("c", 30, (short) 1)), noRetry).all().get();
            assertThat(other.listTopics().names().get()).contains("a", "c").doesNotContain("b");
        }
    }
}
