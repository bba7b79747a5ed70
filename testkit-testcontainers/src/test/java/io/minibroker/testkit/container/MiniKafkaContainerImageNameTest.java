package io.minibroker.testkit.container;

import org.junit.jupiter.api.Test;
import org.testcontainers.utility.DockerImageName;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Which image names the container takes. Nothing here needs a Docker engine: a container is only constructed
 * (asking for its image's name would resolve, and so pull, the image).
 */
class MiniKafkaContainerImageNameTest {

    @Test
    void takesTheDefaultNameWithAnyTag() {
        assertThatCode(() -> new MiniKafkaContainer("minibroker:0.1.0").close()).doesNotThrowAnyException();
        assertThatCode(() -> new MiniKafkaContainer(MiniKafkaContainer.DEFAULT_IMAGE_NAME.withTag("dev")).close())
                .doesNotThrowAnyException();
    }

    @Test
    void refusesAnotherImageThatIsNotDeclaredASubstitute() {
        assertThatThrownBy(() -> new MiniKafkaContainer("registry.example/mirror/minibroker:1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("minibroker");
        assertThatThrownBy(() -> new MiniKafkaContainer("apache/kafka:4.1.0"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void takesAnImageDeclaredASubstitute() {
        DockerImageName mirrored = DockerImageName.parse("registry.example/mirror/minibroker:1")
                .asCompatibleSubstituteFor("minibroker");
        assertThatCode(() -> new MiniKafkaContainer(mirrored).close()).doesNotThrowAnyException();
        DockerImageName renamed = DockerImageName.parse("my-broker:2")
                .asCompatibleSubstituteFor(MiniKafkaContainer.DEFAULT_IMAGE_NAME);
        assertThatCode(() -> new MiniKafkaContainer(renamed).close()).doesNotThrowAnyException();
    }
}
