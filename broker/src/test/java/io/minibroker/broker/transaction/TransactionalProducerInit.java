package io.minibroker.broker.transaction;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.InitProducerIdRequestView;
import io.minibroker.protocol.message.view.InitProducerIdResponseView;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import static io.minibroker.broker.server.Eventually.await;

/**
 * How the raw-wire tests start a transactional producer, as a client does: FindCoordinator for its transactional id
 * (the first creates the transaction state topic) until a coordinator is named, then InitProducerId there, asked again
 * while the coordinator is still loading, moving or ending the id's last transaction. Again for the same id, it bumps
 * the epoch (fencing the instance before). Shared by the transaction and group tests' clients.
 */
public final class TransactionalProducerInit {

    private static final short FIND_COORDINATOR_VERSION = 4;
    private static final short INIT_PRODUCER_ID_VERSION = 3;

    /** One request and its answer on a test's connection. */
    @FunctionalInterface
    public interface Caller {
        Struct call(ApiKey api, short version, Struct body) throws IOException;
    }

    /** The producer id and epoch InitProducerId gave. */
    public record Initialized(long producerId, short epoch) {
    }

    private TransactionalProducerInit() {
    }

    /**
     * FindCoordinator, then InitProducerId with {@code transactionTimeoutMs}, on the connection {@code caller} sends
     * on, which must reach the id's coordinator.
     *
     * @throws AssertionError if InitProducerId answers an error a client would not retry
     */
    public static Initialized init(Caller caller, String transactionalId, int transactionTimeoutMs) {
        await(() -> findCoordinator(caller, transactionalId) >= 0, "a coordinator for " + transactionalId);
        InitProducerIdResponseView[] answer = new InitProducerIdResponseView[1];
        await(() -> {
            InitProducerIdRequestView request = new InitProducerIdRequestView().transactionalId(transactionalId)
                    .transactionTimeoutMs(transactionTimeoutMs).producerId(-1).producerEpoch((short) -1);
            try {
                answer[0] = new InitProducerIdResponseView(
                        caller.call(ApiKey.INIT_PRODUCER_ID, INIT_PRODUCER_ID_VERSION, request.struct()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Errors error = Errors.forCode(answer[0].errorCode());
            if (error != Errors.NONE && error != Errors.COORDINATOR_LOAD_IN_PROGRESS
                    && error != Errors.COORDINATOR_NOT_AVAILABLE && error != Errors.NOT_COORDINATOR
                    && error != Errors.CONCURRENT_TRANSACTIONS) {
                throw new AssertionError("InitProducerId for " + transactionalId + ": " + error);
            }
            return error == Errors.NONE;
        }, "InitProducerId for " + transactionalId);
        return new Initialized(answer[0].producerId(), answer[0].producerEpoch());
    }

    /** FindCoordinator for a transactional id: the coordinator's node id, or -1 while there is none yet. */
    public static int findCoordinator(Caller caller, String transactionalId) {
        Struct request = ApiKey.FIND_COORDINATOR.request().newMessage().set("KeyType", (byte) 1)
                .set("CoordinatorKeys", List.of(transactionalId));
        Struct answer;
        try {
            answer = caller.call(ApiKey.FIND_COORDINATOR, FIND_COORDINATOR_VERSION, request)
                    .getStructs("Coordinators").get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return answer.getInt16("ErrorCode") == 0 ? answer.getInt32("NodeId") : -1;
    }
}
