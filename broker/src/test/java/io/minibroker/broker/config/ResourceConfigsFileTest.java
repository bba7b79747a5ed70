package io.minibroker.broker.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The file of config overrides by resource name: what it reads back, and a damaged file named with its line. */
class ResourceConfigsFileTest {

    @TempDir
    Path dir;

    @Test
    void whatIsWrittenIsReadBack() throws Exception {
        Path file = dir.resolve("configs");
        Map<String, Map<String, String>> all = Map.of("", Map.of("log.retention.ms", "1000"),
                "1", Map.of("sasl.jaas.config", "a b=c%"));
        ResourceConfigsFile.write(file, all);
        assertThat(ResourceConfigsFile.read(file)).isEqualTo(all);
    }

    @Test
    void aLineWithoutNameValuePairsOrWithABadEscapeIsRefusedNamingTheFileAndLineNotItsText() throws Exception {
        Path file = dir.resolve("configs");
        Files.writeString(file, "1 log.retention.ms=1000\n2 password-without-equals\n");
        assertThatThrownBy(() -> ResourceConfigsFile.read(file)).isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot read " + file + ", line 2: config 1 has no '='");

        Files.writeString(file, "%zz log.retention.ms=1000\n");
        assertThatThrownBy(() -> ResourceConfigsFile.read(file)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("cannot read " + file + ", line 1: not URL-encoded");
    }
}
