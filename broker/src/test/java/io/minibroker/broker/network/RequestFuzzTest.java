package io.minibroker.broker.network;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Well-formed requests with random field values ({@link RequestFuzzer}), for every API and version a single node
 * offers: each gets its answer, whatever its values (Kafka answers a request it can decode with an error code),
 * never a closed connection, a handler's exception or a hang; and the broker serves a plain request afterwards.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RequestFuzzTest {

    @TempDir
    Path logDir;

    @Test
    void everyApiAndVersionAnswersRandomFieldsWithoutAHandlerFailing() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0",
                "offsets.topic.num.partitions", "2", "num.partitions", "2"));
             RequestFuzzer fuzzer = new RequestFuzzer()) {
            int port = broker.boundPort("PLAINTEXT");

            fuzzer.fuzz(port);

            assertThat(fuzzer.unanswered()).as("requests not answered, of %d sent, seed %d", fuzzer.sent(),
                    RequestFuzzer.SEED).isEmpty();
            assertThat(fuzzer.errorsLogged()).isEmpty();
            assertThat(RequestFuzzer.answers(port)).isTrue();
        }
    }
}
