package io.minibroker.protocol.schema;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorCodesTest {

    @Test
    void findsEveryPartitionsErrorCodeInAProduceResponse() {
        Struct response = ApiKey.PRODUCE.response().newMessage();
        Struct topic = response.addElement("Responses").set("Name", "t");
        topic.addElement("PartitionResponses").set("Index", 0).set("ErrorCode", Errors.NONE.code());
        topic.addElement("PartitionResponses").set("Index", 1).set("ErrorCode", Errors.NOT_LEADER_OR_FOLLOWER.code());

        assertThat(codes(response, (short) 9)).containsExactly((int) Errors.NONE.code(),
                (int) Errors.NOT_LEADER_OR_FOLLOWER.code());
    }

    @Test
    void aTopLevelErrorCodeCountsOnlyInTheVersionsThatHaveIt() {
        // FindCoordinator v0-3 answer one coordinator with a top-level ErrorCode; v4+ a list of coordinators.
        Struct v3 = ApiKey.FIND_COORDINATOR.response().newMessage().set("ErrorCode", Errors.COORDINATOR_NOT_AVAILABLE.code());
        assertThat(codes(v3, (short) 3)).containsExactly((int) Errors.COORDINATOR_NOT_AVAILABLE.code());

        Struct v4 = ApiKey.FIND_COORDINATOR.response().newMessage();
        v4.addElement("Coordinators").set("Key", "g").set("ErrorCode", Errors.NONE.code());
        assertThat(codes(v4, (short) 4)).as("no phantom top-level code").containsExactly((int) Errors.NONE.code());
    }

    private static List<Integer> codes(Struct message, short version) {
        List<Integer> codes = new ArrayList<>();
        ErrorCodes.forEach(message, version, codes::add);
        return codes;
    }
}
