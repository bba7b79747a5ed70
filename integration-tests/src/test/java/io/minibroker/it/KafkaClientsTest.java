package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.server.Broker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reference Java client, unmodified, against the broker. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KafkaClientsTest {

    @TempDir
    Path logDir;

    private static Admin admin(Broker broker) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT"),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000));
    }

    @Test
    void anAdminClientNegotiatesVersionsAndDescribesTheCluster() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of("node.id", "5", "cluster.id", "clients-test")).broker();
             Admin admin = admin(broker)) {
            DescribeClusterResult cluster = admin.describeCluster();

            assertThat(cluster.clusterId().get()).isEqualTo("clients-test");
            Collection<Node> nodes = cluster.nodes().get();
            assertThat(nodes).singleElement().satisfies(node -> {
                assertThat(node.id()).isEqualTo(5);
                assertThat(node.port()).isEqualTo(broker.boundPort("PLAINTEXT"));
            });
            assertThat(cluster.controller().get().id()).isEqualTo(5);
        }
    }

    @Test
    void topicsAreCreatedDescribedListedAndDeleted() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            CreateTopicsResult created = admin.createTopics(List.of(
                    new NewTopic("orders", 3, (short) 1).configs(Map.of("retention.ms", "3600000")),
                    new NewTopic("audit.log", java.util.Optional.empty(), java.util.Optional.empty())));
            created.all().get();

            assertThat(created.numPartitions("orders").get()).isEqualTo(3);
            assertThat(created.config("orders").get().get("retention.ms").value()).isEqualTo("3600000");
            assertThat(created.numPartitions("audit.log").get()).as("num.partitions default").isEqualTo(1);
            assertThat(admin.listTopics().names().get()).containsExactlyInAnyOrder("orders", "audit.log");
            TopicDescription orders = admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
            assertThat(orders.partitions()).hasSize(3).allSatisfy(p -> {
                assertThat(p.leader().id()).isEqualTo(1);
                assertThat(p.isr()).extracting(Node::id).containsExactly(1);
            });
            assertThat(orders.topicId()).isEqualTo(created.topicId("orders").get()).isNotEqualTo(Uuid.ZERO_UUID);
            assertThat(logDir.resolve("orders-2")).isDirectory();
            assertThat(Files.readString(logDir.resolve("orders-2/partition.metadata")))
                    .isEqualTo("version: 0\ntopic_id: " + orders.topicId());

            admin.deleteTopics(List.of("orders")).all().get();

            assertThat(admin.listTopics().names().get()).containsExactly("audit.log");
            assertThat(logDir.resolve("orders-0")).doesNotExist();
        }
    }

    @Test
    void creationErrorsAreKafkasAndValidateOnlyCreatesNothing() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            admin.createTopics(List.of(new NewTopic("exists", 1, (short) 1))).all().get();

            assertThat(causeOf(() -> admin.createTopics(List.of(new NewTopic("exists", 1, (short) 1))).all().get()))
                    .isInstanceOf(TopicExistsException.class);
            assertThat(causeOf(() -> admin.createTopics(List.of(new NewTopic("bad name!", 1, (short) 1))).all().get()))
                    .isInstanceOf(InvalidTopicException.class);
            admin.createTopics(List.of(new NewTopic("a.b", 1, (short) 1))).all().get();
            assertThat(causeOf(() -> admin.createTopics(List.of(new NewTopic("a_b", 1, (short) 1))).all().get()))
                    .as("differs from a.b only by '.' versus '_'").isInstanceOf(InvalidTopicException.class);
            assertThat(causeOf(() -> admin.createTopics(List.of(new NewTopic("three", 1, (short) 3))).all().get()))
                    .isInstanceOf(InvalidReplicationFactorException.class);
            assertThat(causeOf(() -> admin.createTopics(List.of(new NewTopic("cfg", 1, (short) 1)
                    .configs(Map.of("no.such.config", "1")))).all().get()))
                    .isInstanceOf(InvalidConfigurationException.class);
            assertThat(causeOf(() -> admin.createTopics(List.of(new NewTopic("gapped", Map.of(
                    0, List.of(1), 2, List.of(1))))).all().get()))
                    .isInstanceOf(InvalidReplicaAssignmentException.class)
                    .hasMessageContaining("partitions should be a consecutive 0-based integer sequence");
            admin.createTopics(List.of(new NewTopic("dry", 2, (short) 1)), new CreateTopicsOptions().validateOnly(true))
                    .all().get();
            assertThat(admin.listTopics().names().get()).doesNotContain("dry", "three", "cfg", "gapped");
            assertThat(causeOf(() -> admin.deleteTopics(List.of("never")).all().get()))
                    .isInstanceOf(UnknownTopicOrPartitionException.class);
        }
    }

    @Test
    void partitionsCanBeAddedButNeverRemoved() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            admin.createTopics(List.of(new NewTopic("growing", 1, (short) 1))).all().get();

            admin.createPartitions(Map.of("growing", NewPartitions.increaseTo(3))).all().get();

            assertThat(admin.describeTopics(List.of("growing")).allTopicNames().get().get("growing").partitions())
                    .hasSize(3);
            assertThat(logDir.resolve("growing-2")).isDirectory();
            assertThat(causeOf(() -> admin.createPartitions(Map.of("growing", NewPartitions.increaseTo(2))).all().get()))
                    .isInstanceOf(InvalidPartitionsException.class);
            assertThat(causeOf(() -> admin.createPartitions(Map.of("absent", NewPartitions.increaseTo(2))).all().get()))
                    .isInstanceOf(UnknownTopicOrPartitionException.class);
        }
    }

    /**
     * Kafka's controller builds at most 10,000 partitions for one request and refuses a bigger one whole, before
     * creating any of it; a validate-only request counts too.
     */
    @Test
    void aRequestForMoreThanTenThousandPartitionsIsRefusedWhole() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            CreateTopicsResult tooMany = admin.createTopics(List.of(new NewTopic("big", 6_000, (short) 1),
                    new NewTopic("small", 4_001, (short) 1)));
            assertThat(causeOf(() -> tooMany.values().get("big").get())).isInstanceOf(PolicyViolationException.class)
                    .hasMessage("Excessively large number of partitions per request.");
            assertThat(causeOf(() -> tooMany.values().get("small").get())).isInstanceOf(PolicyViolationException.class);
            assertThat(causeOf(() -> admin.createTopics(List.of(new NewTopic("huge", Integer.MAX_VALUE, (short) 1)))
                    .all().get())).isInstanceOf(PolicyViolationException.class);
            admin.createTopics(List.of(new NewTopic("limit", 10_000, (short) 1)),
                    new CreateTopicsOptions().validateOnly(true)).all().get();
            assertThat(admin.listTopics().names().get()).doesNotContain("big", "small", "huge", "limit");

            admin.createTopics(List.of(new NewTopic("growing", 1, (short) 1))).all().get();
            assertThat(causeOf(() -> admin.createPartitions(Map.of("growing", NewPartitions.increaseTo(10_002)))
                    .all().get())).isInstanceOf(PolicyViolationException.class)
                    .hasMessage("Unable to perform excessively large batch operation.");
            assertThat(admin.describeTopics(List.of("growing")).allTopicNames().get().get("growing").partitions())
                    .hasSize(1);
        }
    }

    /** kafka-log-dirs.sh and admin UIs read partition sizes per log directory through DescribeLogDirs. */
    @Test
    void logDirsAreDescribedWithEachPartitionsSize() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of("node.id", "4")).broker(); Admin admin = admin(broker)) {
            admin.createTopics(List.of(new NewTopic("sized", 2, (short) 1), new NewTopic("other", 1, (short) 1)))
                    .all().get();
            try (KafkaProducer<String, String> producer = Clients.producer("localhost:" + broker.boundPort("PLAINTEXT"))) {
                for (int i = 0; i < 5; i++) {
                    producer.send(new ProducerRecord<>("sized", 1, "k" + i, "value-" + i)).get();
                }
            }

            Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(4)).allDescriptions().get().get(4);

            String dir = logDir.toAbsolutePath().normalize().toString();
            assertThat(dirs).containsOnlyKeys(dir);
            LogDirDescription description = dirs.get(dir);
            assertThat(description.error()).isNull();
            assertThat(description.replicaInfos()).containsKeys(new TopicPartition("sized", 0),
                    new TopicPartition("sized", 1), new TopicPartition("other", 0));
            assertThat(description.replicaInfos().get(new TopicPartition("sized", 0)).size()).isZero();
            assertThat(description.replicaInfos().get(new TopicPartition("sized", 1)).size())
                    .isEqualTo(Files.size(logDir.resolve("sized-1").resolve("00000000000000000000.log")))
                    .isPositive();
            assertThat(description.totalBytes().orElse(-1)).isPositive();
            assertThat(description.usableBytes().orElse(-1)).isPositive();

            TopicPartitionReplica replica = new TopicPartitionReplica("sized", 1, 4);
            assertThat(admin.describeReplicaLogDirs(List.of(replica)).all().get().get(replica).getCurrentReplicaLogDir())
                    .isEqualTo(dir);
        }
    }

    /** kafka-transactions.sh describe-producers: an idempotent producer's epoch, last sequence and timestamp. */
    @Test
    void producersOfAPartitionAreDescribedAlsoAfterARestart() throws Exception {
        TopicPartition tp = new TopicPartition("produced", 0);
        long t0 = System.currentTimeMillis();
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            admin.createTopics(List.of(new NewTopic("produced", 1, (short) 1))).all().get();
            try (KafkaProducer<String, String> producer = Clients.producer("localhost:" + broker.boundPort("PLAINTEXT"))) {
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>("produced", 0, t0 + i, "k", "v" + i)).get();
                }
            }
            assertDescribedProducer(admin, tp, t0 + 2);
        }
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            assertDescribedProducer(admin, tp, t0 + 2); // the table rebuilt from the log
        }
    }

    private static void assertDescribedProducer(Admin admin, TopicPartition tp, long lastTimestamp) throws Exception {
        List<ProducerState> producers = admin.describeProducers(List.of(tp)).partitionResult(tp).get()
                .activeProducers();
        assertThat(producers).singleElement().satisfies(state -> {
            assertThat(state.producerId()).isNotNegative();
            assertThat(state.producerEpoch()).isZero();
            assertThat(state.lastSequence()).isEqualTo(2);
            assertThat(state.lastTimestamp()).isEqualTo(lastTimestamp);
            assertThat(state.coordinatorEpoch()).isEmpty();
            assertThat(state.currentTransactionStartOffset()).isEmpty();
        });
    }

    /**
     * A transactional producer commits through the coordinator, and the admin tools see its transaction: listed
     * with its producer id, described CompleteCommit; an id never used is TRANSACTIONAL_ID_NOT_FOUND.
     */
    @Test
    void aTransactionalProducerCommitsAndTheAdminToolsSeeIt() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            String bootstrap = "localhost:" + broker.boundPort("PLAINTEXT");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, "payments-1",
                    ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000,
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("payments", "k", "v")).get();
                producer.commitTransaction();
            }
            assertThat(admin.listTransactions().all().get()).singleElement()
                    .satisfies(listing -> assertThat(listing.transactionalId()).isEqualTo("payments-1"));
            assertThat(admin.describeTransactions(List.of("payments-1")).description("payments-1").get().state())
                    .isEqualTo(org.apache.kafka.clients.admin.TransactionState.COMPLETE_COMMIT);
            assertThat(causeOf(() -> admin.describeTransactions(List.of("payments-2")).all().get()))
                    .isInstanceOf(TransactionalIdNotFoundException.class);
        }
    }

    /** With no authorizer, Kafka answers the ACL APIs SECURITY_DISABLED; tools then know there are no ACLs. */
    @Test
    void aclApisAnswerThatNoAuthorizerIsConfigured() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            assertThat(causeOf(() -> admin.describeAcls(AclBindingFilter.ANY).values().get()))
                    .isInstanceOf(SecurityDisabledException.class).hasMessage("No Authorizer is configured.");
            AclBinding binding = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "t", PatternType.LITERAL),
                    new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW));
            assertThat(causeOf(() -> admin.createAcls(List.of(binding)).all().get()))
                    .isInstanceOf(SecurityDisabledException.class);
            assertThat(causeOf(() -> admin.deleteAcls(List.of(AclBindingFilter.ANY)).all().get()))
                    .isInstanceOf(SecurityDisabledException.class);
        }
    }

    @Test
    void deleteRecordsMovesTheLowWatermark() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker);
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT"),
                     ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                     ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("trimmed", "r" + i)).get();
            }
            TopicPartition tp = new TopicPartition("trimmed", 0);

            admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(4))).all().get();
            long low = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(6))).lowWatermarks().get(tp).get()
                    .lowWatermark();

            assertThat(low).isEqualTo(6);
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT"),
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
                assertThat(consumer.beginningOffsets(List.of(tp))).containsEntry(tp, 6L);
            }
            assertThat(causeOf(() -> admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(11))).all().get()))
                    .isInstanceOf(OffsetOutOfRangeException.class);
        }
    }

    @Test
    void topicConfigsAreDescribedAndChangedIncrementally() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of("num.partitions", "2")).broker(); Admin admin = admin(broker)) {
            admin.createTopics(List.of(new NewTopic("configured", 1, (short) 1)
                    .configs(Map.of("retention.ms", "3600000")))).all().get();
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "configured");

            Config before = admin.describeConfigs(List.of(topic)).all().get().get(topic);
            assertThat(before.get("retention.ms").value()).isEqualTo("3600000");
            assertThat(before.get("retention.ms").source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
            assertThat(before.get("segment.bytes").source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);

            admin.incrementalAlterConfigs(Map.of(topic, List.of(
                    new AlterConfigOp(new ConfigEntry("retention.ms", ""), AlterConfigOp.OpType.DELETE),
                    new AlterConfigOp(new ConfigEntry("max.message.bytes", "5000"), AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.APPEND))))
                    .all().get();

            Config after = admin.describeConfigs(List.of(topic)).all().get().get(topic);
            assertThat(after.get("retention.ms").value()).isEqualTo(Long.toString(168 * 3_600_000L));
            assertThat(after.get("max.message.bytes").value()).isEqualTo("5000");
            assertThat(after.get("cleanup.policy").value()).isEqualTo("delete,compact");
            assertThat(causeOf(() -> admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                    new ConfigEntry("no.such", "1"), AlterConfigOp.OpType.SET)))).all().get()))
                    .isInstanceOf(InvalidConfigurationException.class);

            ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, "1");
            Config brokerConfig = admin.describeConfigs(List.of(node)).all().get().get(node);
            assertThat(brokerConfig.get("num.partitions").value()).isEqualTo("2");
            assertThat(brokerConfig.get("num.partitions").source()).isEqualTo(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
        }
    }

    @Test
    void aTopicsCompressionTypeIsTheCodecItStoresWhateverTheProducerUsed() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            String bootstrap = "localhost:" + broker.boundPort("PLAINTEXT");
            admin.createTopics(List.of(new NewTopic("zstd-stored", 1, (short) 1)
                    .configs(Map.of("compression.type", "zstd")))).all().get();
            assertThat(causeOf(() -> admin.createTopics(List.of(new NewTopic("brotli", 1, (short) 1)
                    .configs(Map.of("compression.type", "brotli")))).all().get()))
                    .isInstanceOf(InvalidConfigurationException.class);
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "zstd-stored");
            assertThat(admin.describeConfigs(List.of(topic)).all().get().get(topic).get("compression.type").value())
                    .isEqualTo("zstd");

            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4",
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
                for (int i = 0; i < 5; i++) {
                    producer.send(new ProducerRecord<>("zstd-stored", "k" + i, "v" + i)).get();
                }
            }

            assertThat(Clients.readValues(bootstrap, "zstd-stored", 5)).containsExactly("v0", "v1", "v2", "v3", "v4");
            // Kafka's own reader of the segment file: every batch valid, and in zstd, not the producer's lz4.
            byte[] segment = Files.readAllBytes(logDir.resolve("zstd-stored-0").resolve("00000000000000000000.log"));
            List<org.apache.kafka.common.record.internal.RecordBatch> batches = new ArrayList<>();
            MemoryRecords.readableRecords(ByteBuffer.wrap(segment)).batches().forEach(batches::add);
            assertThat(batches).hasSize(5).allSatisfy(batch -> {
                batch.ensureValid();
                assertThat(batch.compressionType()).isEqualTo(CompressionType.ZSTD);
            });
        }
    }

    @Test
    void kafkasOtherTopicConfigsAreAcceptedDescribedAndTheTimestampBoundsEnforced() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            String bootstrap = "localhost:" + broker.boundPort("PLAINTEXT");
            // What Kafka Streams, Connect and Schema Registry users set on compacted topics.
            admin.createTopics(List.of(new NewTopic("tuned", 1, (short) 1).configs(Map.of(
                    "cleanup.policy", "compact", "delete.retention.ms", "100", "min.compaction.lag.ms", "0",
                    "min.cleanable.dirty.ratio", "0.01", "segment.jitter.ms", "10")))).all().get();
            ConfigResource tuned = new ConfigResource(ConfigResource.Type.TOPIC, "tuned");
            Config described = admin.describeConfigs(List.of(tuned)).all().get().get(tuned);
            assertThat(described.get("min.cleanable.dirty.ratio").value()).isEqualTo("0.01");
            assertThat(described.get("max.compaction.lag.ms").value()).isEqualTo(Long.toString(Long.MAX_VALUE));
            assertThat(described.get("message.timestamp.after.max.ms").value()).isEqualTo("3600000");
            for (String replicas : List.of("0:1", "1:1")) { // a list config, as Kafka types it: APPEND works
                admin.incrementalAlterConfigs(Map.of(tuned, List.of(new AlterConfigOp(
                        new ConfigEntry("leader.replication.throttled.replicas", replicas),
                        AlterConfigOp.OpType.APPEND)))).all().get();
            }
            assertThat(admin.describeConfigs(List.of(tuned)).all().get().get(tuned)
                    .get("leader.replication.throttled.replicas").value()).isEqualTo("0:1,1:1");
            assertThat(causeOf(() -> admin.incrementalAlterConfigs(Map.of(tuned, List.of(
                    new AlterConfigOp(new ConfigEntry("min.compaction.lag.ms", "10"), AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry("max.compaction.lag.ms", "5"), AlterConfigOp.OpType.SET))))
                    .all().get())).as("min.compaction.lag.ms above max.compaction.lag.ms")
                    .isInstanceOf(InvalidConfigurationException.class);
            assertThat(causeOf(() -> admin.incrementalAlterConfigs(Map.of(tuned, List.of(new AlterConfigOp(
                    new ConfigEntry("retention.ms", null), AlterConfigOp.OpType.SET)))).all().get()))
                    .as("a null value outside DELETE, as Kafka's ConfigAdminManager refuses it")
                    .isInstanceOf(InvalidRequestException.class);
            assertThat(causeOf(() -> admin.createTopics(List.of(new NewTopic("tiered", 1, (short) 1)
                    .configs(Map.of("remote.storage.enable", "true")))).all().get()))
                    .isInstanceOf(InvalidConfigurationException.class);

            try (KafkaProducer<String, String> producer = Clients.producer(bootstrap)) {
                long twoHoursAhead = System.currentTimeMillis() + 7_200_000;
                assertThat(causeOf(() -> producer.send(new ProducerRecord<>("tuned", 0, twoHoursAhead, "k", "v")).get()))
                        .isInstanceOf(InvalidTimestampException.class);
                producer.send(new ProducerRecord<>("tuned", 0, System.currentTimeMillis(), "k", "now")).get();
            }
        }
    }

    @Test
    void aBatchWithABadRecordFailsThatRecordWithItsReasonAndTheOthersAsPartOfTheBatch() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            String bootstrap = "localhost:" + broker.boundPort("PLAINTEXT");
            admin.createTopics(List.of(new NewTopic("keyed", 1, (short) 1)
                    .configs(Map.of("cleanup.policy", "compact")))).all().get();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.LINGER_MS_CONFIG, 60_000, // one batch: sent by the flush below
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
                producer.partitionsFor("keyed"); // metadata first, so the three sends join one batch
                var keyed = producer.send(new ProducerRecord<>("keyed", 0, "k1", "v1"));
                var keyless = producer.send(new ProducerRecord<>("keyed", 0, null, "v2"));
                var alsoKeyed = producer.send(new ProducerRecord<>("keyed", 0, "k3", "v3"));
                producer.flush();

                assertThat(causeOf(keyless::get)).isInstanceOf(InvalidRecordException.class)
                        .hasMessage("Compacted topic cannot accept message without key in topic partition keyed-0");
                for (var collateral : List.of(keyed, alsoKeyed)) {
                    assertThat(causeOf(collateral::get)).isExactlyInstanceOf(KafkaException.class).hasMessage(
                            "Failed to append record because it was part of a batch which had one more more invalid records");
                }
                var next = producer.send(new ProducerRecord<>("keyed", 0, "k4", "v4"));
                producer.flush();
                assertThat(next.get().offset()).as("nothing of the refused batch was stored").isZero();
            }
        }
    }

    @Test
    void topicsAndTheirIdsSurviveARestartOnTheSameDirectory() throws Exception {
        Uuid id;
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            id = admin.createTopics(List.of(new NewTopic("kept", 2, (short) 1))).topicId("kept").get();
        }
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker(); Admin admin = admin(broker)) {
            TopicDescription kept = admin.describeTopics(List.of("kept")).allTopicNames().get().get("kept");

            assertThat(kept.topicId()).isEqualTo(id);
            assertThat(kept.partitions()).hasSize(2);
            assertThat(admin.listTopics().names().get()).isEqualTo(Set.of("kept"));
        }
    }

    /** The cause of the failure, or null if the call succeeded. */
    private static Throwable causeOf(ThrowingCall call) throws InterruptedException {
        try {
            call.run();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    @FunctionalInterface
    private interface ThrowingCall {
        void run() throws InterruptedException, ExecutionException;
    }
}
