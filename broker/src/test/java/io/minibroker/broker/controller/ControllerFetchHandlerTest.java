package io.minibroker.broker.controller;

import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.authz.AclBinding;
import io.minibroker.broker.authz.AclOperation;
import io.minibroker.broker.authz.AclPermissionType;
import io.minibroker.broker.authz.PatternType;
import io.minibroker.broker.authz.ResourceType;
import io.minibroker.broker.cluster.MetadataFetcher;
import io.minibroker.broker.cluster.SecurityRecords;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller's answers to a broker's Fetch of {@code __cluster_metadata}: the ACLs and credentials travel only
 * to a broker whose digest of them is not the controller's, never with the parked fetch that follows the version.
 */
class ControllerFetchHandlerTest {

    private static final AclBinding ACL = new AclBinding(ResourceType.TOPIC, "orders", PatternType.LITERAL,
            "User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW);
    private static final long NOTHING_HELD = -1;

    private final ManualClock clock = new ManualClock();
    private final ImageVersion version = new ImageVersion(clock);
    private volatile SecurityRecords.Snapshot security = SecurityRecords.Snapshot.EMPTY;
    private final ControllerFetchHandler handler = new ControllerFetchHandler(version, () -> security,
            new MetadataFollowers(() -> 0));

    @AfterEach
    void close() throws InterruptedException {
        version.close();
    }

    @Test
    void theSecurityRecordsComeOnlyWhenTheBrokersDigestIsNotTheControllers() {
        security = new SecurityRecords.Snapshot(List.of(ACL), Map.of());

        FetchResponseView.PartitionData first = securityFetch(NOTHING_HELD);
        assertThat(first.highWatermark()).isNotNegative();
        assertThat(SecurityRecords.decode(first.records()).acls()).containsExactly(ACL);

        version.changed(); // a topic's change: the ACLs are as they were
        FetchResponseView.PartitionData unchanged = securityFetch(first.highWatermark());
        assertThat(unchanged.highWatermark()).isEqualTo(first.highWatermark());
        assertThat(unchanged.records().readableBytes()).isZero();

        security = SecurityRecords.Snapshot.EMPTY; // the ACL deleted
        FetchResponseView.PartitionData emptied = securityFetch(first.highWatermark());
        assertThat(emptied.highWatermark()).isNotEqualTo(first.highWatermark()).isNotNegative();
        assertThat(SecurityRecords.decode(emptied.records())).isEqualTo(SecurityRecords.Snapshot.EMPTY);
    }

    @Test
    void aGroupConfigChangeAloneIsSent() {
        security = new SecurityRecords.Snapshot(List.of(ACL), Map.of());
        long digest = securityFetch(NOTHING_HELD).highWatermark();

        security = new SecurityRecords.Snapshot(List.of(ACL), Map.of(),
                Map.of("workers", Map.of("share.delivery.count.limit", "3")), Map.of());
        FetchResponseView.PartitionData changed = securityFetch(digest);
        assertThat(changed.highWatermark()).isNotEqualTo(digest);
        SecurityRecords.Snapshot received = SecurityRecords.decode(changed.records());
        assertThat(received.acls()).containsExactly(ACL);
        assertThat(received.groupConfigs()).isEqualTo(Map.of("workers", Map.of("share.delivery.count.limit", "3")));
    }

    @Test
    void equalSetsHaveEqualDigestsWhateverTheirCollections() {
        security = new SecurityRecords.Snapshot(List.of(ACL), Map.of());
        long digest = securityFetch(NOTHING_HELD).highWatermark();

        security = new SecurityRecords.Snapshot(List.of(ACL), Map.of()); // replaced by an equal set
        FetchResponseView.PartitionData again = securityFetch(digest);
        assertThat(again.highWatermark()).isEqualTo(digest);
        assertThat(again.records().readableBytes()).isZero();
    }

    @Test
    void theParkedFetchAnswersTheVersionWithoutRecords() {
        security = new SecurityRecords.Snapshot(List.of(ACL), Map.of());
        FetchRequestView parked = fetch(NOTHING_HELD, 0);
        parked.replicaState().replicaId(1).replicaEpoch(-1);

        FetchResponseView.PartitionData answer = partition(send(parked));
        assertThat(answer.highWatermark()).isEqualTo(version.current());
        assertThat(answer.records().readableBytes()).isZero();
    }

    private FetchResponseView.PartitionData securityFetch(long held) {
        FetchRequestView request = fetch(held, Integer.MAX_VALUE);
        request.replicaState().replicaId(-1).replicaEpoch(-1);
        return partition(send(request));
    }

    private static FetchRequestView fetch(long offset, int partitionMaxBytes) {
        FetchRequestView request = new FetchRequestView().maxWaitMs(0).minBytes(0).maxBytes(Integer.MAX_VALUE);
        request.addTopic().topic(MetadataFetcher.METADATA_TOPIC).addPartition().partition(0).fetchOffset(offset)
                .partitionMaxBytes(partitionMaxBytes);
        return request;
    }

    private CompletableFuture<FetchResponseView> send(FetchRequestView request) {
        short v = ApiKey.FETCH.highestVersion();
        return handler.handle(TestContexts.on("CONTROLLER"),
                new Request(new RequestHeader(ApiKey.FETCH.id(), v, 1, "broker"), ApiKey.FETCH, request.struct()))
                .toCompletableFuture().thenApply(FetchResponseView::new);
    }

    private static FetchResponseView.PartitionData partition(CompletableFuture<FetchResponseView> answer) {
        assertThat(answer).as("answered at once").isDone();
        return answer.join().responses().get(0).partitions().get(0);
    }
}
