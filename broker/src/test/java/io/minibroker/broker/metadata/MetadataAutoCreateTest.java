package io.minibroker.broker.metadata;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.message.view.MetadataResponseView.MetadataResponseTopic;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A single node's Metadata auto-creation: a topic it cannot create is unknown, as a Kafka broker answers while its
 * controller refuses the creation, not the creation's own error; and a topic asked twice is answered once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MetadataAutoCreateTest {

    @TempDir
    Path logDir;

    @Test
    void aFailedCreationLeavesTheTopicUnknownAndEachTopicIsAnsweredOnce() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of("auto.create.topics.enable", "true",
                "default.replication.factor", "3"));
             RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            try (Admin admin = TestBrokers.admin(broker)) {
                admin.createTopics(List.of(new NewTopic("a.b", 1, (short) 1))).all().get();
            }
            MetadataRequestView request = new MetadataRequestView().allowAutoTopicCreation(true);
            request.addTopic().name("three-replicas");
            request.addTopic().name("a_b");
            request.addTopic().name("bad name");
            request.addTopic().name("a.b");
            request.addTopic().name("a.b");
            client.send(RawClient.request(ApiKey.METADATA, (short) 12, 1, request.struct()));
            MetadataResponseView answer = new MetadataResponseView(client.receive(ApiKey.METADATA, (short) 12).body());

            assertThat(answer.topics()).extracting(MetadataResponseTopic::name, MetadataResponseTopic::errorCode)
                    .containsExactly(
                            tuple("three-replicas", Errors.UNKNOWN_TOPIC_OR_PARTITION.code()),
                            tuple("a_b", Errors.UNKNOWN_TOPIC_OR_PARTITION.code()),
                            tuple("bad name", Errors.INVALID_TOPIC_EXCEPTION.code()),
                            tuple("a.b", Errors.NONE.code()));
        }
    }
}
