package io.minibroker.broker.transaction;

import io.minibroker.broker.api.TestContexts;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AddPartitionsToTxnRequestView;
import io.minibroker.protocol.message.view.AddPartitionsToTxnResponseView;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The partitions a client's AddPartitionsToTxn (v0-3) may not add are answered before the coordinator is asked (none
 * here), as Kafka's KafkaApis answers them.
 */
class AddPartitionsToTxnHandlerTest {

    @Test
    void aClientMayNotAddAnInternalTopicsPartitionAndTheOthersAreNotAttempted() {
        AddPartitionsToTxnHandler handler = new AddPartitionsToTxnHandler(null, (topic, partition) -> true);
        AddPartitionsToTxnRequestView request = new AddPartitionsToTxnRequestView().v3AndBelowTransactionalId("tx")
                .v3AndBelowProducerId(1).v3AndBelowProducerEpoch((short) 0);
        request.addV3AndBelowTopic().name("__consumer_offsets").partitions(List.of(0));
        request.addV3AndBelowTopic().name("orders").partitions(List.of(0));

        AddPartitionsToTxnResponseView response = new AddPartitionsToTxnResponseView(handler.handle(
                TestContexts.on("PLAINTEXT"), new Request(new RequestHeader(ApiKey.ADD_PARTITIONS_TO_TXN.id(),
                        (short) 3, 1, "test"), ApiKey.ADD_PARTITIONS_TO_TXN, request.struct()))
                .toCompletableFuture().join());

        Map<String, Errors> byTopic = new HashMap<>();
        response.resultsByTopicV3AndBelow().forEach(topic -> byTopic.put(topic.name(),
                Errors.forCode(topic.resultsByPartition().get(0).partitionErrorCode())));
        assertThat(byTopic).isEqualTo(Map.of("__consumer_offsets", Errors.TOPIC_AUTHORIZATION_FAILED,
                "orders", Errors.OPERATION_NOT_ATTEMPTED));
    }
}
