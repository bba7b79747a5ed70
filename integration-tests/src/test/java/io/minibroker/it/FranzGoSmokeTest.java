package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that shares no code with Kafka's Java client, librdkafka or kafkajs, and asks for the newest API
 * versions it knows: franz-go 1.22 (src/test/franz-go/main.go: kadm creates a topic, an idempotent zstd producer,
 * two members of a group under the cooperative-sticky balancer, commits, then the group's lag, end offsets,
 * topic configs and log dirs, and deletes; regex.go: franz-go's own TestConsumeRegex; migrate.go: a classic
 * group upgraded by a KIP-848 member and downgraded again). The test builds the program
 * with the Go toolchain on the PATH (the version go.mod names or newer; CI fetches one and the modules); without Go
 * it is skipped, saying so.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class FranzGoSmokeTest {

    private static final Path PROGRAM_DIR = Path.of("src", "test", "franz-go");

    @TempDir
    Path logDir;

    @Test
    void franzGoProducesConsumesInACooperativeGroupAndAdministers() throws Exception {
        Path program = build();
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"))) {
            String output = Commands.run("", program.toString(), kafka.bootstrapServers());

            assertThat(output.strip())
                    .isEqualTo("consumed=300 lag=0 state=Empty ends=300 cleanup.policy=delete logged=true");
        }
    }

    /**
     * franz-go's TestConsumeRegex on a fresh broker: its one FindCoordinator has __consumer_offsets created, so
     * Metadata lists it, internal, without creating it; then a group consuming by regular expressions that match
     * it by name reads only the topics included, and franz-go says it skipped __consumer_offsets as internal.
     */
    @Test
    void franzGoConsumesByRegexOnAFreshBrokerAndSkipsTheInternalOffsetsTopic() throws Exception {
        Path program = build();
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of())) {
            String output = Commands.run("", program.toString(), "regex", kafka.bootstrapServers());

            assertThat(output.strip()).isEqualTo("topics=regex-include-1,regex-include-2 "
                    + "read=regex-include-1,regex-include-2 skipped_internal=__consumer_offsets");
        }
    }

    /**
     * transact.go: kgo.GroupTransactSession consume-transform-produce, read_committed, its first transaction aborted
     * on purpose: each of the 200 inputs appears once in the output a read_committed consumer reads, and the group's
     * offsets, committed in the transactions (TxnOffsetCommit v6, no AddOffsetsToTxn: transaction version 2), sum to
     * 200.
     */
    @Test
    void franzGoGroupTransactSessionTransformsExactlyOnce() throws Exception {
        Path program = build();
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"))) {
            kafka.controls().requestLog().start();
            String output = Commands.run("", program.toString(), "transact", kafka.bootstrapServers());

            assertThat(output.strip()).isEqualTo("read=200 distinct=200 all=true committed=200");
            // franz-go 1.22 follows the finalized transaction.version: 2 here, partitions added through Produce.
            assertThat(TransactionVersionOnTheWire.used(kafka.controls().requestLog())).isEqualTo(2);
        }
    }

    /**
     * migrate.go: KIP-848's online migration with franz-go members: a classic group of two (cooperative-sticky) is
     * upgraded when a third with the server-side balancer joins, the three share the partitions, none ever held by
     * two; when the third leaves, the group is classic again and the two hold every partition.
     */
    @Test
    void franzGoClassicGroupIsUpgradedByAKip848MemberAndDowngradedWhenItLeaves() throws Exception {
        Path program = build();
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0",
                "group.consumer.heartbeat.interval.ms", "300",
                "group.consumer.min.heartbeat.interval.ms", "300"))) {
            String output = Commands.run("", program.toString(), "migrate", kafka.bootstrapServers());

            assertThat(output.strip()).isEqualTo("consumed=180 types=classic,consumer,classic both_held=0");
        }
    }

    /**
     * sessions.go: franz-go reads 50 partitions without a group in an incremental fetch session (KIP-227), then five
     * records produced meanwhile: every record read, none of its fetches refused for its session, and a later fetch
     * names fewer than the 50 partitions (only those whose offsets moved: the session holds the rest; a fetch outside
     * a session names them all). Not "none": whether a fetch comes while no offset moved depends on the timing of the
     * produces (CI on 2026-11-28 saw fetches of 50, 50, 1 and 4 partitions).
     */
    @Test
    void franzGoFetchesFiftyPartitionsInAnIncrementalSession() throws Exception {
        Path program = build();
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of())) {
            FetchSessionsClientsTest.fill(kafka);
            kafka.controls().requestLog().start();
            int there = FetchSessionsClientsTest.PARTITIONS * FetchSessionsClientsTest.PER_PARTITION;
            String output = Commands.run("", program.toString(), "sessions", kafka.bootstrapServers(),
                    FetchSessionsClientsTest.TOPIC, String.valueOf(FetchSessionsClientsTest.PARTITIONS),
                    String.valueOf(there));

            assertThat(output.strip()).isEqualTo("read=" + (there + 5));
            assertThat(FetchSessionsClientsTest.fetchesOf(kafka.controls().requestLog(), "franz-sessions"))
                    .anySatisfy(fetch -> assertThat(FetchSessionsClientsTest.partitionsNamed(fetch))
                            .isLessThan(FetchSessionsClientsTest.PARTITIONS));
        }
    }

    private static Path build() throws Exception {
        Assumptions.assumeTrue(Commands.onPath("go"), "Go is not installed (see .ci/run); skipping");
        Path program = Path.of("target", "franzsmoke").toAbsolutePath();
        // The first build compiles franz-go and its compression libraries; later ones come from Go's cache.
        Commands.run(PROGRAM_DIR, Duration.ofMinutes(4), "", "go", "build", "-o", program.toString(), ".");
        return program;
    }
}
