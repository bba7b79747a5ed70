package io.minibroker.broker.transaction;

import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** ListTransactions' checks of its filters, which Kafka makes whether or not any transaction matches. */
class ListTransactionsHandlerTest {

    private final BrokerClock clock = BrokerClock.manual(new ManualClock());
    private final BackoffTimer backoffs = new BackoffTimer(clock);
    private final TransactionCoordinator coordinator = new TransactionCoordinator(new InMemoryTransactionLog(1),
            new FakeMarkerAppender(), () -> 1, new TransactionConfig(900_000, 1, 10_000, 3_600_000, (short) 2),
            clock, backoffs);
    private final ListTransactionsHandler handler = new ListTransactionsHandler(coordinator);

    @AfterEach
    void stop() throws InterruptedException {
        coordinator.close();
        backoffs.close();
    }

    @Test
    void stateFiltersThatNameNoStateAreListedBackAsUnknown() throws Exception {
        Struct request = ApiKey.LIST_TRANSACTIONS.request().newMessage()
                .set("StateFilters", List.of("Ongoing", "Running", "CompleteAbort", "ongoing"));

        Struct response = list(request, 1);

        assertThat(response.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(response.<String>getList("UnknownStateFilters")).containsExactly("Running", "ongoing");
        assertThat(response.getStructs("TransactionStates")).isEmpty();
    }

    @Test
    void anUnparsableTransactionalIdPatternIsInvalidRegularExpression() throws Exception {
        assertThat(list(ApiKey.LIST_TRANSACTIONS.request().newMessage().set("TransactionalIdPattern", "pay(ments"), 2)
                .getInt16("ErrorCode")).isEqualTo(Errors.INVALID_REGULAR_EXPRESSION.code());
        assertThat(list(ApiKey.LIST_TRANSACTIONS.request().newMessage().set("TransactionalIdPattern", "pay.*"), 2)
                .getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
    }

    /** Java's regular expressions take these; RE2/J, which Kafka 4.3.1 compiles the pattern with, refuses them. */
    @Test
    void backreferencesAndLookaroundAreInvalidRegularExpressionsAsInKafka() throws Exception {
        for (String pattern : List.of("(pay)\\1", "pay(?=ments)", "(?<!re)funds")) {
            assertThat(list(ApiKey.LIST_TRANSACTIONS.request().newMessage().set("TransactionalIdPattern", pattern), 2)
                    .getInt16("ErrorCode")).as(pattern).isEqualTo(Errors.INVALID_REGULAR_EXPRESSION.code());
        }
    }

    private Struct list(Struct body, int version) throws Exception {
        return handler.handle(TestContexts.on("PLAINTEXT"), new Request(new RequestHeader(
                ApiKey.LIST_TRANSACTIONS.id(), (short) version, 1, "test"), ApiKey.LIST_TRANSACTIONS, body))
                .toCompletableFuture().get();
    }
}
