package io.minibroker.broker.cluster;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeTopicPartitionsRequestView;
import io.minibroker.protocol.message.view.DescribeTopicPartitionsResponseView;
import io.minibroker.protocol.message.view.DescribeTopicPartitionsResponseView.DescribeTopicPartitionsResponseTopic;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * DescribeTopicPartitions (KIP-966; what kafka-clients' {@code Admin.describeTopics} and {@code kafka-topics.sh
 * --describe} use when a broker offers it), answered from the same image as Metadata, as Kafka 4.3.1's
 * DescribeTopicPartitionsRequestHandler answers (checked against one):
 * <ul>
 *   <li>no topics named means every topic the principal may describe, the others left out; named topics it may not
 *       describe are answered TOPIC_AUTHORIZATION_FAILED after the rest, with a zero id;</li>
 *   <li>topics in name order, from the cursor's topic and partition; at most {@code ResponsePartitionLimit}
 *       partitions (taken between 1 and 2000, Kafka's {@code max.request.partition.size.limit} default), and where
 *       the limit cuts a topic or ends before the next one, NextCursor names where to go on;</li>
 *   <li>a named topic that does not exist is UNKNOWN_TOPIC_OR_PARTITION (INVALID_TOPIC_EXCEPTION for an illegal
 *       name), but when all topics are asked for, as the cursor's topic may since have been deleted;</li>
 *   <li>a cursor naming a topic the request does not is INVALID_REQUEST on every topic named;</li>
 *   <li>no eligible leader replicas: this broker never elects from outside the ISR, so the ELR lists are empty.</li>
 * </ul>
 * The topics' authorized operations are filled in by the authorization step, as for Metadata.
 */
public final class DescribeTopicPartitionsHandler implements ApiHandler {

    /** Kafka's {@code max.request.partition.size.limit} default: the most partitions one answer carries. */
    private static final int MAX_PARTITIONS = 2000;
    private static final int NO_LEADER = -1;

    private final Supplier<ClusterMetadata> image;

    /** @param image the topics as this broker knows them now, and the brokers clients may reach */
    public DescribeTopicPartitionsHandler(Supplier<ClusterMetadata> image) {
        this.image = image;
    }

    /** A single node's topics as an image ({@link SingleNodeImage}: built again only when they change). */
    public static Supplier<ClusterMetadata> singleNode(LocalNode node, TopicRegistry topics) {
        return new SingleNodeImage(node, topics);
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DescribeTopicPartitionsRequestView asked = new DescribeTopicPartitionsRequestView(request.body());
        DescribeTopicPartitionsResponseView response = new DescribeTopicPartitionsResponseView();
        ClusterMetadata now = image.get();
        DescribeTopicPartitionsRequestView.Cursor cursor = asked.cursor();
        boolean allTopics = asked.topics().isEmpty();
        TreeSet<String> names = new TreeSet<>();
        if (allTopics) {
            now.topics().keySet().stream().filter(name -> cursor == null || name.compareTo(cursor.topicName()) >= 0)
                    .forEach(names::add);
        } else {
            asked.topics().stream().map(DescribeTopicPartitionsRequestView.TopicRequest::name)
                    .filter(name -> cursor == null || name.compareTo(cursor.topicName()) >= 0).forEach(names::add);
            if (cursor != null && !names.contains(cursor.topicName())) {
                // Kafka's InvalidRequestException, answered on every topic named.
                asked.topics().forEach(topic -> refused(response, topic.name(), Errors.INVALID_REQUEST));
                return CompletableFuture.completedFuture(response.struct());
            }
        }
        List<String> unauthorized = new ArrayList<>();
        names.removeIf(name -> {
            boolean refused = !context.topicRights().mayDescribe(name);
            if (refused && !allTopics) {
                unauthorized.add(name);
            }
            return refused;
        });
        IntPredicate reachable = now.reachableOn(context.listenerName());
        int remaining = Math.max(1, Math.min(MAX_PARTITIONS, asked.responsePartitionLimit()));
        for (String name : names) {
            if (remaining == 0) {
                response.nextCursor(new DescribeTopicPartitionsResponseView.Cursor().topicName(name).partitionIndex(0));
                break;
            }
            Optional<TopicImage> topic = now.topic(name);
            if (topic.isEmpty()) {
                if (!allTopics) {
                    refused(response, name, TopicRegistry.invalidName(name) != null ? Errors.INVALID_TOPIC_EXCEPTION
                            : Errors.UNKNOWN_TOPIC_OR_PARTITION).isInternal(InternalTopics.isInternal(name));
                }
                continue;
            }
            int first = cursor != null && name.equals(cursor.topicName()) ? cursor.partitionIndex() : 0;
            int next = describe(topic.get(), first, remaining, reachable, response.addTopic());
            if (next >= 0) {
                response.nextCursor(new DescribeTopicPartitionsResponseView.Cursor().topicName(name)
                        .partitionIndex(next));
                break;
            }
            remaining -= Math.max(0, topic.get().partitions().size() - first);
        }
        unauthorized.forEach(name -> refused(response, name, Errors.TOPIC_AUTHORIZATION_FAILED));
        return CompletableFuture.completedFuture(response.struct());
    }

    /**
     * Writes the topic's partitions from {@code first}, at most {@code limit} of them; returns the index of the first
     * one left out, or -1 when none is.
     */
    private static int describe(TopicImage topic, int first, int limit, IntPredicate reachable,
                                DescribeTopicPartitionsResponseTopic result) {
        result.name(topic.name()).topicId(topic.id()).errorCode(Errors.NONE.code())
                .isInternal(InternalTopics.isInternal(topic.name())).partitions(new ArrayList<>());
        int written = 0;
        for (PartitionImage partition : topic.partitions()) {
            if (partition.index() < first) {
                continue;
            }
            if (written == limit) {
                return partition.index();
            }
            boolean led = partition.leader() >= 0 && reachable.test(partition.leader());
            result.addPartition().partitionIndex(partition.index())
                    .errorCode(led ? Errors.NONE.code() : Errors.LEADER_NOT_AVAILABLE.code())
                    .leaderId(led ? partition.leader() : NO_LEADER).leaderEpoch(partition.leaderEpoch())
                    .replicaNodes(partition.replicas()).isrNodes(partition.isr())
                    .eligibleLeaderReplicas(List.of()).lastKnownElr(List.of())
                    .offlineReplicas(partition.offlineReplicas());
            written++;
        }
        return -1;
    }

    private static DescribeTopicPartitionsResponseTopic refused(DescribeTopicPartitionsResponseView response,
                                                                String name, Errors error) {
        return response.addTopic().name(name).topicId(TopicIds.ZERO).errorCode(error.code()).partitions(new ArrayList<>());
    }
}
