package io.minibroker.broker.authz;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.apache.kafka.common.acl.AclOperation.ALTER;
import static org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.CLUSTER_ACTION;
import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.IDEMPOTENT_WRITE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without an authorizer every operation a resource type supports is authorized, as Kafka's
 * AuthHelper.authorizedOperations answers then; a client asking for them gets the full set, not none.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AuthorizedOperationsWithoutAuthorizerTest {

    @TempDir
    Path logDir;

    @Test
    void everySupportedOperationIsAuthorized() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("t", 1, (short) 1))).all().get();
            admin.alterConsumerGroupOffsets("g", Map.of(new TopicPartition("t", 0), new OffsetAndMetadata(0)))
                    .all().get();

            assertThat(admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true))
                    .authorizedOperations().get()).containsExactlyInAnyOrder(CREATE, CLUSTER_ACTION,
                    DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, ALTER, DESCRIBE);
            assertThat(admin.describeTopics(List.of("t"), new DescribeTopicsOptions()
                    .includeAuthorizedOperations(true)).allTopicNames().get().get("t").authorizedOperations())
                    .containsExactlyInAnyOrder(READ, WRITE, CREATE, DESCRIBE, DELETE, ALTER, DESCRIBE_CONFIGS,
                            ALTER_CONFIGS);
            assertThat(admin.describeConsumerGroups(List.of("g"), new DescribeConsumerGroupsOptions()
                    .includeAuthorizedOperations(true)).all().get().get("g").authorizedOperations())
                    .containsExactlyInAnyOrder(READ, DESCRIBE, DELETE, DESCRIBE_CONFIGS, ALTER_CONFIGS);
            assertThat(admin.describeCluster().authorizedOperations().get()).as("not asked for").isNull();
        }
    }
}
