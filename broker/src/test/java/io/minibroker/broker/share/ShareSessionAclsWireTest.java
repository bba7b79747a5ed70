package io.minibroker.broker.share;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.share.ShareWire.acquired;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A share session under ACLs on the wire, as Kafka's KafkaApis and share session keep it: a partition whose topic the
 * member may not READ, named by the request that opens the session, is answered TOPIC_AUTHORIZATION_FAILED and still
 * joins the session, so every later fetch answers it refused again, and once READ is granted the same session
 * acquires from it without naming it anew. The broker has an authorizer with {@code allow.everyone.if.no.acl.found},
 * so the anonymous PLAINTEXT principal may do everything but what a DENY takes away.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareSessionAclsWireTest {

    private static final String CLOSED = "closed";
    private static final ResourcePattern CLOSED_TOPIC = new ResourcePattern(ResourceType.TOPIC, CLOSED,
            PatternType.LITERAL);
    /** With an ACL on the topic, nothing on it is allowed by default any more: ALL allowed, READ denied. */
    private static final AclBinding ALLOW_ALL = new AclBinding(CLOSED_TOPIC,
            new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.ALL, AclPermissionType.ALLOW));
    private static final AclBinding DENY_READ = new AclBinding(CLOSED_TOPIC,
            new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.READ, AclPermissionType.DENY));

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest(Map.of(
            "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "allow.everyone.if.no.acl.found", "true"));
    private UUID closedId;

    @BeforeEach
    void start() throws Exception {
        closedId = broker.createTopic(CLOSED);
        broker.initialize("g", closedId);
        try (Admin admin = broker.admin()) {
            admin.createAcls(List.of(ALLOW_ALL, DENY_READ)).all().get();
        }
    }

    /** The error of partition 0 of {@code topicId} in a response, or null when the response leaves it out. */
    private static Short errorOf(ShareFetchResponseView response, UUID topicId) {
        return response.responses().stream().filter(t -> t.topicId().equals(topicId))
                .flatMap(t -> t.partitions().stream()).filter(p -> p.partitionIndex() == 0)
                .map(ShareFetchResponseView.PartitionData::errorCode).findFirst().orElse(null);
    }

    @Test
    void aRefusedPartitionStaysInTheSessionAndIsRefusedOnEveryFetch() throws Exception {
        try (ShareWire member = broker.member("g", "member-a")) {
            ShareFetchResponseView opened = member.fetchOf(0, List.of(broker.topicId, closedId));
            assertThat(opened.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(errorOf(opened, closedId)).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());

            broker.produce(CLOSED, 2);
            for (int i = 0; i < 2; i++) { // fetches naming nothing: the session's partitions
                ShareFetchResponseView again = member.fetchOf(0, List.of());
                assertThat(again.errorCode()).isEqualTo(Errors.NONE.code());
                assertThat(errorOf(again, closedId)).as("fetch %d", i)
                        .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                assertThat(acquired(again)).isEmpty();
            }

            try (Admin admin = broker.admin()) {
                admin.deleteAcls(List.of(DENY_READ.toFilter())).all().get();
            }
            // READ granted: the session's partition is fetched now, from its start (latest: nothing yet), so the
            // answer has nothing to say about it
            assertThat(errorOf(member.fetchOf(0, List.of()), closedId)).isNull();
            broker.produce(CLOSED, 1);
            assertThat(acquired(member.fetchOf(0, List.of()))).containsExactly(List.of(2L, 2L, 1L));
        }
    }

    /** A session with nothing the member may read has nothing to wait for: Kafka answers its fetch at once. */
    @Test
    void aFetchOfOnlyRefusedPartitionsIsAnsweredWithoutWaiting() throws Exception {
        try (ShareWire member = broker.member("g", "member-b")) {
            member.fetchOf(0, List.of(closedId));
            // the manual clock never reaches the wait: a parked fetch would never be answered
            ShareFetchResponseView waited = member.fetchOf(60_000, List.of());
            assertThat(errorOf(waited, closedId)).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
            assertThat(broker.parkedShareFetches()).isZero();
        }
    }
}
