package io.minibroker.broker.authz;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A broker with ACLs on a SASL PLAIN listener for the ACL tests: {@code admin} is the super user, {@code alice},
 * {@code bob} and {@code carol} are users with no rights until a test grants them; and kafka-clients for each.
 * Started by a test ({@link #start}) or, registered as an extension ({@link #perTest}), before each test on a fresh
 * directory.
 */
final class SecuredBroker implements AutoCloseable, BeforeEachCallback, AfterEachCallback {

    static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"admin\" password=\"admin-secret\" user_admin=\"admin-secret\""
            + " user_alice=\"alice-secret\" user_bob=\"bob-secret\" user_carol=\"carol-secret\";";

    private final Map<String, String> settings;
    private final String[] topics;
    private Path logDir;
    private Broker broker;

    private SecuredBroker(Map<String, String> overrides, String... topics) {
        this.settings = settings();
        this.settings.putAll(overrides);
        this.topics = topics;
    }

    /** A broker for each test, with {@code overrides} over {@link #settings()} and single-partition topics. */
    static SecuredBroker perTest(Map<String, String> overrides, String... topics) {
        return new SecuredBroker(overrides, topics);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        logDir = Files.createTempDirectory("secured-broker");
        broker = TestBrokers.start(logDir, settings);
        if (topics.length > 0) {
            createTopics(topics);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        close();
        try (Stream<Path> files = Files.walk(logDir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    /** A broker started now on {@code logDir}; the caller closes it. */
    static SecuredBroker start(Path logDir) throws Exception {
        SecuredBroker secured = new SecuredBroker(Map.of());
        secured.logDir = logDir;
        secured.broker = TestBrokers.start(logDir, secured.settings);
        return secured;
    }

    static Map<String, String> settings() {
        return new HashMap<>(Map.of(
                "listeners", "SASL_PLAINTEXT://localhost:0",
                "sasl.enabled.mechanisms", "PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config", JAAS,
                "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "super.users", "User:admin"));
    }

    /** Stops the broker and starts it again on the same directory. */
    void restart() throws Exception {
        restart(() -> { });
    }

    /** Stops the broker, runs {@code whileDown} (clients it closes cannot say goodbye), and starts it again. */
    void restart(Runnable whileDown) throws Exception {
        broker.close();
        whileDown.run();
        broker = TestBrokers.start(logDir, settings);
    }

    Map<String, Object> client(String user) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("SASL_PLAINTEXT"));
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        config.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"" + user + "\" password=\"" + user + "-secret\";");
        return config;
    }

    Admin admin(String user) {
        return Admin.create(client(user));
    }

    KafkaProducer<String, String> producer(String user, Map<String, Object> extra) {
        Map<String, Object> config = client(user);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        config.putAll(extra);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    KafkaConsumer<String, String> consumer(String user, String group, Map<String, Object> extra) {
        Map<String, Object> config = client(user);
        if (group != null) {
            config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.putAll(extra);
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    /** Creates single-partition topics as the super user. */
    void createTopics(String... names) throws Exception {
        try (Admin admin = admin("admin")) {
            admin.createTopics(Arrays.stream(names).map(n -> new NewTopic(n, 1, (short) 1)).toList()).all().get();
        }
    }

    /** Grants (ALLOWs) {@code operations} on a literal resource to {@code User:<user>}, as the super user. */
    void allow(String user, ResourceType type, String name, AclOperation... operations) throws Exception {
        add(new ResourcePattern(type, name, PatternType.LITERAL), user, AclPermissionType.ALLOW, operations);
    }

    void add(ResourcePattern pattern, String user, AclPermissionType permission, AclOperation... operations)
            throws Exception {
        List<AclBinding> bindings = Arrays.stream(operations).map(op -> new AclBinding(pattern,
                new AccessControlEntry("User:" + user, "*", op, permission))).toList();
        try (Admin admin = admin("admin")) {
            admin.createAcls(bindings).all().get();
        }
    }

    @Override
    public void close() {
        broker.close();
    }
}
