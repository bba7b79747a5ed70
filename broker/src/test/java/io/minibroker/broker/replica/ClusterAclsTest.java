package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.MetadataFetcher;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.CreateAclsRequestView;
import io.minibroker.protocol.message.view.CreateAclsResponseView;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.security.TestCertificates.ALICE;
import static io.minibroker.broker.security.TestCertificates.ALICE_DN;
import static io.minibroker.broker.security.TestCertificates.BROKER;
import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ACLs and SCRAM credentials in a three-node cluster, as Kafka keeps them: changed through any node, forwarded to
 * the controller, which keeps them, and applied by every broker from the image it follows. Node 0 is the
 * controller's; the partitions the tests produce to are led by node 2, so it is node 2 that enforces what was
 * changed through node 0.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterAclsTest {

    private static final int LEADER = 2;

    /**
     * The cluster: TLS between every node and from every client (certificates required), the
     * StandardAuthorizer on, the brokers' certificate a super user. Alice, without WRITE, is refused; once an ACL
     * made through node 0 reaches node 2, her records are produced with acks=all and are on all three nodes.
     */
    @Test
    void aTlsClusterEnforcesAclsMadeThroughAnotherNode() throws Exception {
        Map<String, String> settings = SecuredClusters.tlsEverywhere("PKCS12");
        settings.put("authorizer.class.name", BrokerConfig.STANDARD_AUTHORIZER);
        settings.put("super.users", SecuredClusters.BROKER_PRINCIPAL);
        try (MiniCluster cluster = MiniCluster.start(3, settings)) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three brokers registered");
            Map<String, Object> superUser = SecuredClusters.at(cluster, SecuredClusters.tlsClient("PKCS12", BROKER));
            ledByNode2(cluster, superUser, "guarded");
            try (KafkaProducer<String, String> alice = SecuredClusters.producer(
                    SecuredClusters.at(cluster, SecuredClusters.tlsClient("PKCS12", ALICE)))) {
                assertThatThrownBy(() -> alice.send(new ProducerRecord<>("guarded", 0, null, "refused")).get())
                        .hasCauseInstanceOf(TopicAuthorizationException.class);

                try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, 0, SecuredClusters.tlsClient("PKCS12", BROKER)))) {
                    admin.createAcls(List.of(new AclBinding(
                            new ResourcePattern(ResourceType.TOPIC, "guarded", PatternType.LITERAL),
                            new AccessControlEntry("User:" + ALICE_DN, "*", AclOperation.WRITE,
                                    AclPermissionType.ALLOW)))).all().get();
                }
                await(() -> produces(alice, "guarded", "first"), "alice's WRITE applied by node 2, the leader");
                for (int i = 0; i < 10; i++) {
                    alice.send(new ProducerRecord<>("guarded", 0, null, "v" + i)).get();
                }
            }
            // acks=all answered once every replica in the ISR had them: each node's log holds the 11 records.
            for (int node = 0; node < 3; node++) {
                assertThat(SecuredClusters.logEndOffset(cluster, node, "guarded")).as("node " + node).isEqualTo(11);
                var bytesOut = cluster.node(node).meterRegistry().find("kafka.server.brokertopicmetrics.bytesout")
                        .tag("topic", "guarded").counter();
                assertThat(bytesOut == null ? 0 : bytesOut.count()).as("followers' fetches are not BytesOut, as in"
                        + " Kafka").isZero();
            }
        }
    }

    /**
     * kafka-clients' Admin through node 0: a SCRAM user created there signs in to nodes 1 and 2; an ACL created
     * there lets it produce to node 2 and is listed by every node; both outlive a restart of the controller's
     * node; deleting the ACL refuses the user again.
     */
    @Test
    void aclsAndScramCredentialsMadeThroughOneNodeReachTheOthers() throws Exception {
        Map<String, String> settings = SecuredClusters.saslEverywhere("SASL_PLAINTEXT", "PLAIN,SCRAM-SHA-256");
        settings.put("authorizer.class.name", BrokerConfig.STANDARD_AUTHORIZER);
        settings.put("super.users", "User:broker");
        Map<String, Object> superUser = SecuredClusters.saslClient("SASL_PLAINTEXT", "PLAIN", "broker",
                "broker-secret");
        Map<String, Object> bob = SecuredClusters.saslClient("SASL_PLAINTEXT", "SCRAM-SHA-256", "bob", "bob-secret");
        AclBinding bobWrites = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "sha", PatternType.PREFIXED),
                new AccessControlEntry("User:bob", "*", AclOperation.WRITE, AclPermissionType.ALLOW));
        AclBindingFilter bobsAcls = new AclBindingFilter(ResourcePatternFilter.ANY,
                new AccessControlEntryFilter("User:bob", null, AclOperation.ANY, AclPermissionType.ANY));
        try (MiniCluster cluster = MiniCluster.start(3, settings)) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three brokers registered");
            ledByNode2(cluster, SecuredClusters.at(cluster, superUser), "shared");
            try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, 0, superUser))) {
                admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("bob",
                        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), "bob-secret"))).all().get();
            }
            await(() -> SecuredClusters.signsIn(cluster, 1, bob) && SecuredClusters.signsIn(cluster, 2, bob), "bob's credential on nodes 1 and 2");
            try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, LEADER, superUser))) {
                assertThat(admin.describeUserScramCredentials(List.of("bob")).all().get().get("bob")
                        .credentialInfos()).singleElement().satisfies(info -> {
                            assertThat(info.mechanism()).isEqualTo(ScramMechanism.SCRAM_SHA_256);
                            assertThat(info.iterations()).isEqualTo(8192);
                        });
            }
            try (KafkaProducer<String, String> producer = SecuredClusters.producer(SecuredClusters.at(cluster, bob))) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("shared", 0, null, "refused")).get())
                        .hasCauseInstanceOf(TopicAuthorizationException.class);
                try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, 0, superUser))) {
                    admin.createAcls(List.of(bobWrites)).all().get();
                }
                await(() -> produces(producer, "shared", "allowed"), "bob's WRITE applied by node 2, the leader");
            }

            cluster.stop(MiniCluster.CONTROLLER_ID);
            cluster.restart(MiniCluster.CONTROLLER_ID);
            await(() -> SecuredClusters.signsIn(cluster, MiniCluster.CONTROLLER_ID, bob),
                    "bob's credential kept by the restarted controller and handed to its node again");
            try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, MiniCluster.CONTROLLER_ID, superUser))) {
                await(() -> describe(admin, bobsAcls).contains(bobWrites), "the ACL kept by the restarted controller");
                assertThat(admin.deleteAcls(List.of(bobsAcls)).all().get()).containsExactly(bobWrites);
            }
            try (KafkaProducer<String, String> producer = SecuredClusters.producer(SecuredClusters.at(cluster, bob))) {
                await(() -> refused(producer, "shared"), "the deletion applied by node 2");
            }
        }
    }

    /**
     * The controller checks a forwarded change against the principal that sends it: a client that reaches the
     * controller's listener itself, not a super user, changes nothing.
     */
    @Test
    void theControllerRefusesAclChangesFromAPrincipalThatIsNotASuperUser() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(1, Map.of("authorizer.class.name",
                BrokerConfig.STANDARD_AUTHORIZER, "super.users", "User:admin"));
             RawClient client = new RawClient(cluster.controller().boundPort("CONTROLLER"))) {
            CreateAclsRequestView create = new CreateAclsRequestView();
            create.addCreation().resourceType(ResourceType.TOPIC.code()).resourceName("orders")
                    .resourcePatternType(PatternType.LITERAL.code()).principal("User:ANONYMOUS").host("*")
                    .operation(AclOperation.ALL.code()).permissionType(AclPermissionType.ALLOW.code());
            short version = ApiKey.CREATE_ACLS.highestStableVersion();
            client.send(RawClient.request(ApiKey.CREATE_ACLS, version, 1, create.struct()));
            CreateAclsResponseView response = new CreateAclsResponseView(
                    client.receive(ApiKey.CREATE_ACLS, version).body());
            assertThat(response.results()).singleElement().satisfies(result -> assertThat(result.errorCode())
                    .isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code()));
        }
    }

    /**
     * The controller's Fetch of the metadata, which carries every ACL and SCRAM credential, is served to the nodes'
     * principals only: Kafka's ControllerApis needs CLUSTER_ACTION on the cluster, whatever replica the fetch names.
     */
    @Test
    void theControllerHandsItsMetadataRecordsToSuperUsersOnly() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(1, Map.of("authorizer.class.name",
                BrokerConfig.STANDARD_AUTHORIZER, "super.users", "User:admin"));
             RawClient client = new RawClient(cluster.controller().boundPort("CONTROLLER"))) {
            FetchRequestView fetch = new FetchRequestView().maxWaitMs(0).minBytes(0).maxBytes(Integer.MAX_VALUE);
            fetch.replicaState().replicaId(-1).replicaEpoch(-1);
            fetch.addTopic().topic(MetadataFetcher.METADATA_TOPIC).topicId(TopicIds.METADATA_TOPIC_ID)
                    .addPartition().partition(0).fetchOffset(-1).partitionMaxBytes(Integer.MAX_VALUE);
            short version = ApiKey.FETCH.highestStableVersion();
            client.send(RawClient.request(ApiKey.FETCH, version, 1, fetch.struct()));
            FetchResponseView response = new FetchResponseView(client.receive(ApiKey.FETCH, version).body());
            assertThat(response.errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
            assertThat(response.responses()).isEmpty();
        }
    }

    /**
     * A broker checks a topic named by id against the topic the cluster's image names, even one it holds no replica
     * of (as Kafka's metadata cache knows every topic): a principal denied DESCRIBE learns nothing of it by its id.
     */
    @Test
    void aTopicNamedByIdIsCheckedOnABrokerWithoutAReplicaOfIt() throws Exception {
        // The nodes fetch the metadata as a super user (on the SASL controller listener); the client is ANONYMOUS.
        Map<String, String> settings = new HashMap<>(Map.of(
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:SASL_PLAINTEXT",
                "sasl.enabled.mechanisms", "PLAIN", "sasl.mechanism.controller.protocol", "PLAIN",
                "listener.name.controller.plain.sasl.jaas.config", SecuredClusters.PLAIN_JAAS,
                "authorizer.class.name", BrokerConfig.STANDARD_AUTHORIZER, "super.users", "User:broker",
                "allow.everyone.if.no.acl.found", "true"));
        try (MiniCluster cluster = MiniCluster.start(2, settings);
             Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                     cluster.bootstrapServers()))) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 2, "two brokers registered");
            admin.createTopics(List.of(new NewTopic("hidden", 1, (short) 1))).all().get();
            int withoutReplica = 1 - cluster.leaderOf("hidden", 0);
            try (RawClient client = new RawClient(cluster.node(withoutReplica).boundPort("PLAINTEXT"))) {
                await(() -> metadata(client, "hidden", null).errorCode() == Errors.NONE.code(),
                        "the topic in node " + withoutReplica + "'s image");
                UUID id = metadata(client, "hidden", null).topicId();
                assertThat(metadata(client, null, id).errorCode()).as("described by its id before the ACL")
                        .isEqualTo(Errors.NONE.code());
                admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "hidden",
                        PatternType.LITERAL), new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.DESCRIBE,
                        AclPermissionType.DENY)))).all().get();
                await(() -> metadata(client, null, id).errorCode() == Errors.TOPIC_AUTHORIZATION_FAILED.code(),
                        "the topic refused by its id on node " + withoutReplica);
            }
        }
    }

    /**
     * The brokers follow the controller's image whatever their principal may describe, as Kafka's brokers read the
     * whole metadata log: a topic its principal (here ANONYMOUS, as the clients') is denied DESCRIBE on stays in
     * every broker's image, and so on its leader, through later changes of the image.
     */
    @Test
    void aTopicTheNodesPrincipalMayNotDescribeStaysInTheirImage() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(2, Map.of("authorizer.class.name",
                BrokerConfig.STANDARD_AUTHORIZER, "allow.everyone.if.no.acl.found", "true"));
             Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                     cluster.bootstrapServers()))) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 2, "two brokers registered");
            admin.createTopics(List.of(new NewTopic("kept", 1, (short) 1))).all().get();
            int leader = cluster.leaderOf("kept", 0);
            try (RawClient client = new RawClient(cluster.node(leader).boundPort("PLAINTEXT"))) {
                await(() -> metadata(client, "kept", null).errorCode() == Errors.NONE.code(), "kept led here");
                UUID id = metadata(client, "kept", null).topicId();
                admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "kept",
                        PatternType.LITERAL), new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.DESCRIBE,
                        AclPermissionType.DENY)))).all().get();
                await(() -> metadata(client, "kept", null).errorCode() == Errors.TOPIC_AUTHORIZATION_FAILED.code(),
                        "the ACL applied by the leader");
                admin.createTopics(List.of(new NewTopic("later", 1, (short) 1))).all().get();
                await(() -> metadata(client, "later", null).errorCode() == Errors.NONE.code(),
                        "a later image applied by the leader");
                assertThat(metadata(client, null, id).errorCode()).as("refused by its id, not unknown")
                        .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
            }
        }
    }

    /** The one topic a v12 Metadata request names, by name or by id, as the node answers it. */
    private static MetadataResponseView.MetadataResponseTopic metadata(RawClient client, String name,
                                                                       UUID id) {
        MetadataRequestView request = new MetadataRequestView();
        request.addTopic().name(name).topicId(id == null ? new UUID(0, 0) : id);
        short version = 12;
        try {
            client.send(RawClient.request(ApiKey.METADATA, version, 1, request.struct()));
            return new MetadataResponseView(client.receive(ApiKey.METADATA, version).body()).topics().get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates a topic of three replicas and moves its leadership to node 2. */
    private static void ledByNode2(MiniCluster cluster, Map<String, Object> superUser, String topic) throws Exception {
        SecuredClusters.createReplicatedTopic(superUser, topic);
        cluster.moveLeader(topic, 0, LEADER);
        try (Admin admin = Admin.create(superUser)) {
            await(() -> SecuredClusters.leader(admin, topic) == LEADER, topic + " led by node 2");
        }
    }

    /** {@code client} bootstrapped at one node only. */
    /**
     * Whether a record is acknowledged; false if it is refused for want of rights (on the topic, or the idempotent
     * producer's on the cluster, which a principal with WRITE on no topic lacks), whether the send fails or throws.
     */
    private static boolean produces(KafkaProducer<String, String> producer, String topic, String value) {
        try {
            producer.send(new ProducerRecord<>(topic, 0, null, value)).get();
            return true;
        } catch (ExecutionException | KafkaException e) {
            if (!refusedForRights(e)) {
                throw new AssertionError("refused for another reason than the ACLs", e);
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static boolean refused(KafkaProducer<String, String> producer, String topic) {
        return !produces(producer, topic, "after-deletion");
    }

    private static boolean refusedForRights(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof AuthorizationException) {
                return true;
            }
        }
        return false;
    }

    private static List<AclBinding> describe(Admin admin, AclBindingFilter filter) {
        try {
            return List.copyOf(admin.describeAcls(filter).values().get());
        } catch (ExecutionException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
