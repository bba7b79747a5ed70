package io.minibroker.broker.server;

import io.minibroker.broker.config.BrokerConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Starts a broker on a free port and a temporary directory, answers one Metadata request, stops, and exits 0
 * (1 if any of that failed). The Docker image runs it at build time, for two reasons: a broken image fails its
 * build, not its first user; and the run records the classes a start loads into a class-data-sharing archive
 * ({@code -XX:ArchiveClassesAtExit}), which halves the container's start time. bin/minibroker runs it at the first
 * start of a jar for the second reason.
 */
public final class SelfCheck {

    private SelfCheck() {
    }

    public static void main(String[] args) throws Exception {
        Path logDir = Files.createTempDirectory("minibroker-self-check-");
        Map<String, String> config = Map.of("listeners", "PLAINTEXT://localhost:0", "log.dirs", logDir.toString(),
                "offsets.topic.replication.factor", "1");
        List<String> advertised;
        try (Broker broker = Broker.start(BrokerConfig.of(config))) {
            advertised = MetadataRoundTrip.advertisedBrokers("localhost", broker.boundPort("PLAINTEXT"));
        }
        if (advertised.isEmpty()) {
            System.err.println("minibroker self-check: Metadata named no broker");
            System.exit(1);
        }
        System.out.println("minibroker self-check: ok, the broker advertised " + advertised);
    }
}
