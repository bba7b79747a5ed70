package io.minibroker.broker.authz;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListConfigResourcesOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.apache.kafka.common.acl.AclOperation.ALTER;
import static org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The admin APIs' ACLs as an Admin client meets them: CreateTopics needs CREATE on the topic (here prefixed) or the
 * cluster, DeleteTopics DELETE (a describable topic that does not exist is UNKNOWN_TOPIC_OR_PARTITION), CreatePartitions
 * ALTER, the config APIs DESCRIBE_CONFIGS / ALTER_CONFIGS on the topic or, for the broker, the cluster; DescribeLogDirs,
 * DescribeClientQuotas and DescribeUserScramCredentials need DESCRIBE (DESCRIBE_CONFIGS) on the cluster, ElectLeaders
 * and AlterUserScramCredentials ALTER on it; AlterPartitionReassignments ALTER and ListPartitionReassignments DESCRIBE on
 * it; DescribeCluster needs nothing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AdminAclsTest {

    private static final String CLUSTER = "kafka-cluster";

    @RegisterExtension
    final SecuredBroker broker = SecuredBroker.perTest(Map.of("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256"), "victim");

    @Test
    void creatingTopicsNeedsCreateOnTheTopicOrTheCluster() throws Exception {
        broker.add(new ResourcePattern(ResourceType.TOPIC, "team-", PatternType.PREFIXED), "alice",
                org.apache.kafka.common.acl.AclPermissionType.ALLOW, CREATE);
        try (Admin alice = broker.admin("alice")) {
            CreateTopicsResult created = alice.createTopics(List.of(new NewTopic("team-a", 1, (short) 1)));
            created.all().get();
            assertThatThrownBy(() -> created.config("team-a").get()).as("created, but no DESCRIBE_CONFIGS on it")
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> alice.createTopics(List.of(new NewTopic("other", 1, (short) 1))).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        broker.allow("alice", ResourceType.CLUSTER, CLUSTER, CREATE);
        try (Admin alice = broker.admin("alice")) {
            alice.createTopics(List.of(new NewTopic("other", 1, (short) 1))).all().get();
        }
    }

    @Test
    void deletingTopicsNeedsDelete() throws Exception {
        broker.allow("alice", ResourceType.TOPIC, "victim", DESCRIBE);
        broker.allow("alice", ResourceType.TOPIC, "ghost", DESCRIBE);
        try (Admin alice = broker.admin("alice")) {
            assertThatThrownBy(() -> alice.deleteTopics(List.of("victim")).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> alice.deleteTopics(List.of("ghost")).all().get())
                    .as("describable and absent: the absence may be told")
                    .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
        }
        try (Admin bob = broker.admin("bob")) {
            assertThatThrownBy(() -> bob.deleteTopics(List.of("ghost")).all().get())
                    .as("not describable: absent or not, the same refusal")
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        broker.allow("alice", ResourceType.TOPIC, "victim", DELETE);
        try (Admin alice = broker.admin("alice")) {
            alice.deleteTopics(List.of("victim")).all().get();
        }
    }

    @Test
    void creatingPartitionsNeedsAlter() throws Exception {
        broker.allow("alice", ResourceType.TOPIC, "victim", DESCRIBE);
        try (Admin alice = broker.admin("alice")) {
            assertThatThrownBy(() -> alice.createPartitions(Map.of("victim", NewPartitions.increaseTo(2))).all()
                    .get()).hasCauseInstanceOf(TopicAuthorizationException.class);
            broker.allow("alice", ResourceType.TOPIC, "victim", ALTER);
            alice.createPartitions(Map.of("victim", NewPartitions.increaseTo(2))).all().get();
        }
    }

    @Test
    void configsNeedDescribeConfigsAndAlterConfigsOnTheirResource() throws Exception {
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "victim");
        ConfigResource brokerResource = new ConfigResource(ConfigResource.Type.BROKER, "1");
        AlterConfigOp retention = new AlterConfigOp(new ConfigEntry("retention.ms", "1000"),
                AlterConfigOp.OpType.SET);
        try (Admin alice = broker.admin("alice")) {
            assertThatThrownBy(() -> alice.describeConfigs(List.of(topic)).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> alice.describeConfigs(List.of(brokerResource)).all().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            broker.allow("alice", ResourceType.TOPIC, "victim", DESCRIBE_CONFIGS);
            broker.allow("alice", ResourceType.CLUSTER, CLUSTER, DESCRIBE_CONFIGS);
            assertThat(alice.describeConfigs(List.of(topic, brokerResource)).all().get()).hasSize(2);
            assertThatThrownBy(() -> alice.incrementalAlterConfigs(Map.of(topic, List.of(retention))).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            broker.allow("alice", ResourceType.TOPIC, "victim", ALTER_CONFIGS);
            alice.incrementalAlterConfigs(Map.of(topic, List.of(retention))).all().get();
            assertThat(alice.describeConfigs(List.of(topic)).all().get().get(topic).get("retention.ms").value())
                    .isEqualTo("1000");
        }
    }

    @Test
    void clusterApisNeedTheirRightOnTheCluster() throws Exception {
        UserScramCredentialUpsertion carol = new UserScramCredentialUpsertion("carol",
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), "carol-secret");
        try (Admin bob = broker.admin("bob")) {
            assertThat(bob.describeCluster().nodes().get()).as("DescribeCluster needs no right").hasSize(1);
            assertThatThrownBy(() -> bob.describeLogDirs(List.of(1)).allDescriptions().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThatThrownBy(() -> bob.electLeaders(ElectionType.PREFERRED,
                    Set.of(new TopicPartition("victim", 0))).all().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThatThrownBy(() -> bob.describeClientQuotas(ClientQuotaFilter.all()).entities().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThatThrownBy(() -> bob.alterReplicaLogDirs(Map.of(new TopicPartitionReplica("victim", 0, 1),
                    "/anywhere")).all().get()).as("ALTER on the cluster comes before the path's check")
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThatThrownBy(() -> bob.listConfigResources(Set.of(), new ListConfigResourcesOptions()).all().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            ClientQuotaAlteration quota = new ClientQuotaAlteration(new ClientQuotaEntity(Map.of("user", "carol")),
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1024.0)));
            assertThatThrownBy(() -> bob.alterClientQuotas(List.of(quota)).all().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class)
                    .cause().hasMessage("Cluster authorization failed.");
            assertThatThrownBy(() -> bob.describeUserScramCredentials().all().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThatThrownBy(() -> bob.alterUserScramCredentials(List.of(carol)).all().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);

            broker.allow("bob", ResourceType.CLUSTER, CLUSTER, DESCRIBE, ALTER, DESCRIBE_CONFIGS);
            assertThat(bob.describeLogDirs(List.of(1)).allDescriptions().get()).containsKey(1);
            String logDir = bob.describeLogDirs(List.of(1)).allDescriptions().get().get(1).keySet().iterator().next();
            bob.alterReplicaLogDirs(Map.of(new TopicPartitionReplica("victim", 0, 1), logDir)).all().get();
            assertThatThrownBy(() -> bob.electLeaders(ElectionType.PREFERRED,
                    Set.of(new TopicPartition("victim", 0))).all().get())
                    .as("allowed: the one node already leads").hasCauseInstanceOf(ElectionNotNeededException.class);
            bob.describeClientQuotas(ClientQuotaFilter.all()).entities().get();
            assertThat(bob.listConfigResources(Set.of(ConfigResource.Type.BROKER), new ListConfigResourcesOptions())
                    .all().get()).containsExactly(new ConfigResource(ConfigResource.Type.BROKER, "1"));
            assertThatThrownBy(() -> bob.alterClientQuotas(List.of(quota)).all().get())
                    .as("DESCRIBE_CONFIGS and ALTER are not ALTER_CONFIGS")
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            broker.allow("bob", ResourceType.CLUSTER, CLUSTER, ALTER_CONFIGS);
            bob.alterClientQuotas(List.of(quota)).all().get();
            assertThat(bob.describeClientQuotas(ClientQuotaFilter.all()).entities().get())
                    .containsEntry(quota.entity(), Map.of("producer_byte_rate", 1024.0));
            bob.alterUserScramCredentials(List.of(carol)).all().get();
            assertThat(bob.describeUserScramCredentials().all().get()).containsKey("carol");
        }
    }

    @Test
    void partitionReassignmentsNeedAlterAndDescribeOnTheCluster() throws Exception {
        TopicPartition victim = new TopicPartition("victim", 0);
        try (Admin bob = broker.admin("bob")) {
            assertThatThrownBy(() -> bob.alterPartitionReassignments(Map.of(victim,
                    Optional.of(new NewPartitionReassignment(List.of(1))))).all().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThatThrownBy(() -> bob.listPartitionReassignments().reassignments().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThatThrownBy(() -> bob.listPartitionReassignments(Set.of(victim)).reassignments().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);

            broker.allow("bob", ResourceType.CLUSTER, CLUSTER, DESCRIBE);
            assertThat(bob.listPartitionReassignments().reassignments().get()).isEmpty();
            assertThatThrownBy(() -> bob.alterPartitionReassignments(Map.of(victim, Optional.empty())).all().get())
                    .as("DESCRIBE is not ALTER").hasCauseInstanceOf(ClusterAuthorizationException.class);

            broker.allow("bob", ResourceType.CLUSTER, CLUSTER, ALTER);
            assertThatThrownBy(() -> bob.alterPartitionReassignments(Map.of(victim, Optional.empty())).all().get())
                    .as("allowed: nothing to cancel").hasCauseInstanceOf(NoReassignmentInProgressException.class);
        }
    }

    @Test
    void featuresQuorumAndTopicPartitionsNeedKafkasRights() throws Exception {
        try (Admin bob = broker.admin("bob")) {
            assertThatThrownBy(() -> bob.updateFeatures(Map.of("transaction.version",
                    new FeatureUpdate((short) 1, FeatureUpdate.UpgradeType.SAFE_DOWNGRADE)),
                    new UpdateFeaturesOptions().validateOnly(true)).all().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThatThrownBy(() -> bob.describeMetadataQuorum().quorumInfo().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThatThrownBy(() -> bob.describeTopics(List.of("victim")).allTopicNames().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);

            broker.allow("bob", ResourceType.CLUSTER, CLUSTER, DESCRIBE, ALTER);
            broker.allow("bob", ResourceType.TOPIC, "victim", DESCRIBE);
            bob.updateFeatures(Map.of("transaction.version", new FeatureUpdate((short) 1,
                    FeatureUpdate.UpgradeType.SAFE_DOWNGRADE)), new UpdateFeaturesOptions().validateOnly(true))
                    .all().get();
            assertThat(bob.describeMetadataQuorum().quorumInfo().get().leaderId()).isEqualTo(1);
            assertThat(bob.describeTopics(List.of("victim")).allTopicNames().get()).containsKey("victim");
        }
    }

    @Test
    void authorizedOperationsAreTheOnesGranted() throws Exception {
        broker.allow("alice", ResourceType.CLUSTER, CLUSTER, DESCRIBE, ALTER_CONFIGS);
        broker.allow("alice", ResourceType.TOPIC, "victim", READ);
        try (Admin alice = broker.admin("alice")) {
            assertThat(alice.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true))
                    .authorizedOperations().get()).containsExactlyInAnyOrder(DESCRIBE, ALTER_CONFIGS,
                    DESCRIBE_CONFIGS);
            assertThat(alice.describeTopics(List.of("victim"), new DescribeTopicsOptions()
                    .includeAuthorizedOperations(true)).allTopicNames().get().get("victim").authorizedOperations())
                    .containsExactlyInAnyOrder(READ, DESCRIBE);
        }
        try (Admin bob = broker.admin("bob")) {
            assertThat(bob.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true))
                    .authorizedOperations().get()).as("no DESCRIBE on the cluster: none told").isEmpty();
        }
    }
}
