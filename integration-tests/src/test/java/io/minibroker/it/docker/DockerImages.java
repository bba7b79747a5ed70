package io.minibroker.it.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The images the Docker tests run, built from this checkout: the broker from the repository's Dockerfile and
 * a small client image. Both build on {@code MINIBROKER_BASE_IMAGE} (default {@code eclipse-temurin:17-jre});
 * CI points it at the local base that {@code ../shared/ci/docker-up.sh} makes, as no registry is reachable.
 */
final class DockerImages {

    private static final String BASE_IMAGE =
            System.getenv().getOrDefault("MINIBROKER_BASE_IMAGE", "eclipse-temurin:17-jre");
    /** Surefire runs in the module's directory; the Dockerfile and the jar are relative to the repository. */
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final int PULL_TIMEOUT_SECONDS = 60;

    /** Whether the engine has or could get the base image; asked once per test run. */
    private static Boolean baseImageAvailable;

    private DockerImages() {
    }

    /**
     * Skips the calling test, with the reason, on a machine without a Docker engine, or whose engine has no way
     * to the base image (not present and no registry to pull it from).
     */
    static void assumeDocker() {
        Assumptions.assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "no Docker engine here: the Docker tests are skipped (CI starts one with ../shared/ci/docker-up.sh)");
        Assumptions.assumeTrue(baseImageAvailable(), "base image " + BASE_IMAGE + " is neither here nor pullable: "
                + "the Docker tests are skipped (set MINIBROKER_BASE_IMAGE to a local image with Java 17)");
    }

    private static synchronized boolean baseImageAvailable() {
        if (baseImageAvailable == null) {
            DockerClient docker = DockerClientFactory.instance().client();
            baseImageAvailable = isPresent(docker) || pulled(docker);
        }
        return baseImageAvailable;
    }

    private static boolean isPresent(DockerClient docker) {
        try {
            docker.inspectImageCmd(BASE_IMAGE).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    private static boolean pulled(DockerClient docker) {
        try {
            return docker.pullImageCmd(BASE_IMAGE).start().awaitCompletion(PULL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (RuntimeException e) {
            return false; // no registry reachable, or the image does not exist there
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The broker's image, as the repository's Dockerfile builds it from the jar Maven just packaged: its
     * {@code prebuilt} stage, the one a builder without a registry can make (the default stage compiles in a Maven
     * image). The context holds just the files that stage copies.
     */
    static ImageFromDockerfile broker() {
        ImageFromDockerfile image = new ImageFromDockerfile("minibroker-it", false)
                .withFileFromPath("Dockerfile", REPOSITORY.resolve("Dockerfile"));
        for (String file : List.of("server/target/minibroker.jar", "config/server.properties",
                "config/jvm-heap.options", "config/jvm-performance.options", "docker/data/README")) {
            image.withFileFromPath(file, REPOSITORY.resolve(file));
        }
        return image.withTarget("prebuilt").withBuildArg("BASE_IMAGE", BASE_IMAGE);
    }

    /** A container that runs {@link NetworkProbe} with kafka-clients, from the jars of this test's classpath. */
    static ImageFromDockerfile probe() {
        return new ImageFromDockerfile("minibroker-it-probe", false)
                .withFileFromPath("lib/kafka-clients.jar", jarOf(KafkaProducer.class))
                .withFileFromPath("lib/slf4j-api.jar", jarOf(org.slf4j.Logger.class))
                .withFileFromPath("classes/io/minibroker/it/docker/NetworkProbe.class",
                        classFile(NetworkProbe.class))
                .withDockerfileFromBuilder(dockerfile -> dockerfile
                        .from(BASE_IMAGE)
                        .copy("lib", "/opt/probe/lib")
                        .copy("classes", "/opt/probe/classes")
                        .entryPoint("java", "-cp", "/opt/probe/classes:/opt/probe/lib/*", NetworkProbe.class.getName()));
    }

    private static Path jarOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path classFile(Class<?> type) {
        return jarOf(type).resolve(type.getName().replace('.', '/') + ".class");
    }
}
