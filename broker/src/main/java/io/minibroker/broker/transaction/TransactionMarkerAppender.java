package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Writes a transaction marker to partitions this broker leads: the contract between the transaction coordinator and
 * the log. The coordinator calls it directly for partitions of its own node and through WriteTxnMarkers for
 * partitions led elsewhere; the WriteTxnMarkers handler calls it too.
 *
 * <p>For each partition the marker is appended as a control batch, the producer's ongoing transaction on that
 * partition ends (the last stable offset may move, an aborted transaction is indexed), and the partition's answer
 * comes once the marker is as durable as an acks=all produce would be (in a cluster: the high watermark has passed
 * it). Errors per partition are WriteTxnMarkers' (NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION,
 * INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED, ...). After a marker on a {@code __consumer_offsets}
 * partition is appended, every {@link TransactionCompletionListener} registered is told.
 */
public interface TransactionMarkerAppender {

    CompletionStage<Map<TopicPartition, Errors>> append(TransactionMarker marker, Collection<TopicPartition> partitions);
}
