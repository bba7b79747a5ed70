package io.minibroker.it.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.TopContainerResponse;
import com.github.dockerjava.api.model.HealthCheck;
import io.minibroker.it.Clients;
import io.minibroker.testkit.container.MiniKafkaContainer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The image as users of the apache/kafka image expect it: configuration and the JVM's heap from the environment,
 * a user other than root, a health check.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ImageTest {

    @BeforeEach // per test rather than per class, so that Surefire counts each one as skipped, with the reason
    void needsDocker() {
        DockerImages.assumeDocker();
    }

    @Test
    void kafkaEnvironmentVariablesConfigureTheBroker() throws Exception {
        try (MiniKafkaContainer kafka = new MiniKafkaContainer(DockerImages.broker())
                .withEnv("KAFKA_NUM_PARTITIONS", "5")) {
            kafka.start();

            try (KafkaProducer<String, String> producer = Clients.producer(kafka.getBootstrapServers())) {
                producer.send(new ProducerRecord<>("from-the-environment", "v")).get(30, TimeUnit.SECONDS);
            }
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    kafka.getBootstrapServers()))) {
                assertThat(admin.describeTopics(List.of("from-the-environment")).allTopicNames()
                        .get(30, TimeUnit.SECONDS).get("from-the-environment").partitions()).hasSize(5);
            }
        }
    }

    @Test
    void heapOptionsFromTheEnvironmentReachTheBrokersJvmWhichStillStopsCleanlyOnSigterm() throws Exception {
        DockerClient docker = DockerClientFactory.instance().client();
        try (MiniKafkaContainer kafka = new MiniKafkaContainer(DockerImages.broker())
                .withEnv("KAFKA_HEAP_OPTS", "-Xmx123m")) {
            kafka.start();

            List<String> commands = processes(docker, kafka.getContainerId(), "CMD");
            // The variable replaces the default heap (config/jvm-heap.options); the default collector stays.
            assertThat(commands).anyMatch(command -> command.contains("-Xmx123m") && !command.contains("-Xms32m")
                    && command.contains("-XX:+UseSerialGC") && command.contains("io.minibroker.broker.server.Main"));
            try (KafkaProducer<String, String> producer = Clients.producer(kafka.getBootstrapServers())) {
                producer.send(new ProducerRecord<>("heap", "v")).get(30, TimeUnit.SECONDS);
            }

            docker.stopContainerCmd(kafka.getContainerId()).withTimeout(30).exec(); // SIGTERM, then waits
            Long exitCode = docker.inspectContainerCmd(kafka.getContainerId()).exec().getState().getExitCodeLong();
            assertThat(exitCode).isZero();
            assertThat(kafka.getLogs()).contains("Exiting with status 0");
        }
    }

    @Test
    void runsAsAUserOtherThanRootAndBecomesHealthy() throws Exception {
        DockerClient docker = DockerClientFactory.instance().client();
        // The image's own check, run every half second instead of every 30 s (Docker keeps the image's command).
        try (MiniKafkaContainer kafka = new MiniKafkaContainer(DockerImages.broker())
                .withCreateContainerCmdModifier(create -> create.withHealthcheck(new HealthCheck()
                        .withInterval(TimeUnit.MILLISECONDS.toNanos(500))
                        .withStartPeriod(TimeUnit.SECONDS.toNanos(30))))) {
            kafka.start();

            assertThat(kafka.getContainerInfo().getConfig().getUser()).isEqualTo("10001:10001");
            assertThat(processes(docker, kafka.getContainerId(), "UID")).isNotEmpty().allMatch("10001"::equals);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            String status = health(docker, kafka.getContainerId());
            while (!"healthy".equals(status) && System.nanoTime() - deadline < 0) {
                Thread.sleep(100); // polling Docker's view of the container, not synchronising with the test
                status = health(docker, kafka.getContainerId());
            }
            assertThat(status).isEqualTo("healthy");
        }
    }

    private static String health(DockerClient docker, String containerId) {
        return docker.inspectContainerCmd(containerId).exec().getState().getHealth().getStatus();
    }

    /** One column of {@code docker top}, a row per process of the container. */
    private static List<String> processes(DockerClient docker, String containerId, String column) {
        TopContainerResponse top = docker.topContainerCmd(containerId).exec();
        int index = Arrays.asList(top.getTitles()).indexOf(column);
        assertThat(index).as("docker top's columns %s", Arrays.toString(top.getTitles())).isNotNegative();
        return Arrays.stream(top.getProcesses()).map(process -> process[index]).toList();
    }
}
