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

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A broker with ACLs on a SASL PLAIN listener for the ACL tests: {@code admin} is the super user, {@code alice},
 * {@code bob} and {@code carol} are users with no rights until a test grants them; and kafka-clients for each.
 */
final class SecuredBroker implements AutoCloseable {

    static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"admin\" password=\"admin-secret\" user_admin=\"admin-secret\""
            + " user_alice=\"alice-secret\" user_bob=\"bob-secret\" user_carol=\"carol-secret\";";

    private final Path logDir;
    private final Map<String, String> settings;
    private Broker broker;

    private SecuredBroker(Path logDir, Map<String, String> settings, Broker broker) {
        this.logDir = logDir;
        this.settings = settings;
        this.broker = broker;
    }

    static SecuredBroker start(Path logDir) throws Exception {
        return start(logDir, Map.of());
    }

    /** With {@code overrides} over {@link #settings()}, on every start. */
    static SecuredBroker start(Path logDir, Map<String, String> overrides) throws Exception {
        Map<String, String> settings = settings();
        settings.putAll(overrides);
        return new SecuredBroker(logDir, settings, TestBrokers.start(logDir, settings));
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
        broker.close();
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
