package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.AlterPartitionRequestView;
import io.minibroker.protocol.message.view.AlterPartitionResponseView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An ISR change the controller did not take for a reason a resend mends — a refusal of the whole request, a
 * partition's NOT_CONTROLLER, no answer at all — is sent again 50 ms later, as Kafka's DefaultAlterPartitionManager
 * resends, not at the next ISR check half a lag later. The leader runs on a manual clock against a controller that
 * answers from a script, so each resend happens exactly when the clock reaches it.
 */
class AlterPartitionResendTest {

    private static final long LAG_MS = 1_000;
    private static final long CHECK_MS = LAG_MS / 2;
    private static final long RESEND_MS = 50;
    private static final UUID TOPIC_ID = UUID.randomUUID();
    private static final TopicPartition PARTITION = new TopicPartition("t", 0);

    @TempDir
    Path logDir;

    private final ManualClock manual = new ManualClock();
    private final ScriptedController controller = new ScriptedController();
    private TopicRegistry topics;
    private ReplicaManager replicas;

    @BeforeEach
    void start() throws IOException {
        BrokerClock clock = BrokerClock.manual(manual);
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString(), "node.id", "0")),
                Clock.systemUTC());
        replicas = TestReplicaManagers.nodeZero(topics, controller.port(), LAG_MS, clock);
        // Node 0 leads, node 1 follows and never fetches: after the lag the leader asks for an ISR of [0].
        replicas.apply(new ClusterMetadata(List.of(new BrokerNode(0, "PLAINTEXT", "localhost", 1),
                new BrokerNode(1, "PLAINTEXT", "localhost", 2)), Map.of("t", new TopicImage("t", TOPIC_ID,
                List.of(new PartitionImage(0, 0, 0, List.of(0, 1), List.of(0, 1), List.of())), Map.of()))));
    }

    @AfterEach
    void close() throws IOException {
        replicas.close();
        topics.close();
        controller.close();
    }

    @Test
    void aChangeTheControllerDidNotTakeIsSentAgainAfterTheBackoff() {
        controller.answer(request -> refused(Errors.NOT_CONTROLLER, Errors.NONE));
        controller.answer(null); // the connection closes unanswered
        controller.answer(request -> refused(Errors.NONE, Errors.NOT_CONTROLLER));
        controller.answer(AlterPartitionResendTest::taken);

        manual.advance(3 * CHECK_MS); // node 1 is more than the lag behind at the third check
        assertThat(controller.requests()).as("the first try, refused as a whole").hasSize(1);

        manual.advance(RESEND_MS - 1);
        assertThat(controller.requests()).as("not before the backoff").hasSize(1);
        manual.advance(1);
        assertThat(controller.requests()).as("sent again, no answer").hasSize(2);
        manual.advance(RESEND_MS);
        assertThat(controller.requests()).as("sent again, refused for the partition").hasSize(3);
        assertThat(replicas.inSyncReplicas(PARTITION)).isEqualTo(2);
        manual.advance(RESEND_MS);

        assertThat(controller.requests()).hasSize(4);
        assertThat(controller.requests()).as("the same change each time")
                .allSatisfy(isr -> assertThat(isr).containsExactly(0));
        assertThat(replicas.inSyncReplicas(PARTITION)).isEqualTo(1);
    }

    @Test
    void aChangeRefusedUntilNewMetadataIsNotSentAgain() {
        controller.answer(request -> refused(Errors.NONE, Errors.FENCED_LEADER_EPOCH));

        manual.advance(3 * CHECK_MS);
        manual.advance(CHECK_MS);

        assertThat(controller.requests()).hasSize(1);
        assertThat(replicas.inSyncReplicas(PARTITION)).isEqualTo(2);
    }

    private static Struct refused(Errors topLevel, Errors partition) {
        AlterPartitionResponseView response = new AlterPartitionResponseView().errorCode(topLevel.code());
        response.addTopic().topicId(TOPIC_ID).addPartition().partitionIndex(0).errorCode(partition.code());
        return response.struct();
    }

    private static Struct taken(AlterPartitionRequestView request) {
        AlterPartitionResponseView response = new AlterPartitionResponseView().errorCode(Errors.NONE.code());
        response.addTopic().topicId(TOPIC_ID).addPartition().partitionIndex(0).errorCode(Errors.NONE.code())
                .leaderId(0).leaderEpoch(0).isr(List.of(0)).partitionEpoch(1);
        return response.struct();
    }

    /**
     * A controller that answers each AlterPartition with the next answer scripted ({@code null}: closes the
     * connection without one), and records the ISR each asked for.
     */
    private static final class ScriptedController implements AutoCloseable {

        private final BlockingQueue<Optional<Function<AlterPartitionRequestView, Struct>>> script =
                new LinkedBlockingQueue<>();
        private final List<List<Integer>> requests = new CopyOnWriteArrayList<>();
        private final ScriptedPeer peer = new ScriptedPeer("scripted-controller", request -> {
            AlterPartitionRequestView asked = new AlterPartitionRequestView(request.body());
            Optional<Function<AlterPartitionRequestView, Struct>> next = script.take();
            requests.add(asked.topics().get(0).partitions().get(0).newIsrWithEpochs().stream()
                    .map(AlterPartitionRequestView.BrokerState::brokerId).toList());
            return next.map(answer -> answer.apply(asked));
        });

        int port() {
            return peer.port();
        }

        void answer(Function<AlterPartitionRequestView, Struct> answer) {
            script.add(Optional.ofNullable(answer));
        }

        List<List<Integer>> requests() {
            return requests;
        }

        @Override
        public void close() throws IOException {
            peer.close();
        }
    }
}
