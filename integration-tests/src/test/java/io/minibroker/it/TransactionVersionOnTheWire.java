package io.minibroker.it;

import io.minibroker.broker.control.LoggedRequest;
import io.minibroker.broker.control.RequestLog;
import io.minibroker.broker.control.RequestMatch;
import io.minibroker.protocol.message.ApiKey;

import java.util.List;

/**
 * Which transaction version (KIP-890) a client used, read off the requests it sent (the broker's request log, started
 * before the client ran): version 1 adds partitions with AddPartitionsToTxn and produces below v12; version 2 sends
 * no AddPartitionsToTxn and produces at v12 or later, its partitions added by the Produce itself.
 */
final class TransactionVersionOnTheWire {

    /** The first transactional Produce version, from which a client adds partitions implicitly (version 2). */
    private static final short IMPLICIT_ADD_PRODUCE_VERSION = 12;

    private TransactionVersionOnTheWire() {
    }

    /** 1 or 2 as described above; 0 if the requests fit neither (no transaction, or a mix). */
    static int used(RequestLog requests) {
        boolean added = !requests.find(RequestMatch.api(ApiKey.ADD_PARTITIONS_TO_TXN)).isEmpty();
        List<LoggedRequest> produces = requests.find(RequestMatch.api(ApiKey.PRODUCE));
        boolean belowImplicitAdd = produces.stream()
                .allMatch(produce -> produce.facts().version() < IMPLICIT_ADD_PRODUCE_VERSION);
        if (added && !produces.isEmpty() && belowImplicitAdd) {
            return 1;
        }
        if (!added && !produces.isEmpty() && !belowImplicitAdd) {
            return 2;
        }
        return 0;
    }
}
