package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.FindCoordinatorRequestView;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The group side's hook: told of each marker that counts on a {@code __consumer_offsets} partition, before the
 * WriteTxnMarkers answer, and of nothing else; a listener that fails turns that partition's answer into
 * UNKNOWN_SERVER_ERROR.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransactionCompletionListenerTest {

    private static final String OFFSETS = "__consumer_offsets";
    private static final long PRODUCER = 4242;

    @TempDir
    Path logDir;

    private record Completion(TopicPartition partition, long producerId, TransactionResult result) {
    }

    private static short errorOf(WriteTxnMarkersResponseView response, int topic) {
        return response.markers().get(0).topics().get(topic).partitions().get(0).errorCode();
    }

    /** Has the single node create {@code __consumer_offsets}, as a group's first FindCoordinator does. */
    private static void createOffsetsTopic(TxnWire wire) throws IOException {
        FindCoordinatorRequestView find = new FindCoordinatorRequestView().keyType((byte) 0)
                .coordinatorKeys(List.of("group"));
        wire.call(ApiKey.FIND_COORDINATOR, (short) 4, find.struct());
        await(() -> {
            try {
                return errorOf(wire.writeMarker(1, (short) 0, 0, false, OFFSETS), 0) == 0;
            } catch (IOException e) {
                return false;
            }
        }, "__consumer_offsets to be created");
    }

    @Test
    void toldOfMarkersThatCountOnOffsetsPartitionsOnly() throws Exception {
        List<Completion> told = new CopyOnWriteArrayList<>();
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             TxnWire wire = new TxnWire(broker.boundPort("PLAINTEXT"))) {
            wire.createTopic("data");
            createOffsetsTopic(wire);
            broker.transactionMarkers().addCompletionListener(
                    (partition, producerId, result) -> told.add(new Completion(partition, producerId, result)));

            WriteTxnMarkersResponseView written = wire.writeMarker(PRODUCER, (short) 2, 0, true, "data", OFFSETS);
            assertThat(errorOf(written, 0)).isZero();
            assertThat(errorOf(written, 1)).isZero();
            assertThat(told).containsExactly(
                    new Completion(new TopicPartition(OFFSETS, 0), PRODUCER, TransactionResult.COMMIT));

            told.clear();
            assertThat(errorOf(wire.writeMarker(PRODUCER, (short) 1, 0, false, OFFSETS), 0))
                    .isEqualTo(Errors.INVALID_PRODUCER_EPOCH.code());
            assertThat(told).as("a refused marker changes nothing").isEmpty();

            broker.transactionMarkers().addCompletionListener((partition, producerId, result) -> {
                throw new IllegalStateException("a broken listener");
            });
            assertThat(errorOf(wire.writeMarker(PRODUCER, (short) 2, 0, false, OFFSETS), 0))
                    .isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
            assertThat(told).containsExactly(
                    new Completion(new TopicPartition(OFFSETS, 0), PRODUCER, TransactionResult.ABORT));
        }
    }
}
