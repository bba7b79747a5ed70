package io.minibroker.broker.produce;

import io.minibroker.protocol.message.view.ProduceRequestView;
import io.minibroker.protocol.message.view.ProduceRequestView.PartitionProduceData;
import io.minibroker.protocol.message.view.ProduceRequestView.TopicProduceData;
import io.minibroker.protocol.record.RecordBatch;
import io.netty.buffer.ByteBuf;

/**
 * Kafka's hasTransactionalRecords: whether a produce carries transactional batches (any partition's first batch),
 * which only a request naming a transactional id its principal may write may carry.
 */
public final class TransactionalRecords {

    private TransactionalRecords() {
    }

    public static boolean in(ProduceRequestView body) {
        for (TopicProduceData topicData : body.topicData()) {
            for (PartitionProduceData partitionData : topicData.partitionData()) {
                ByteBuf records = partitionData.records();
                if (records != null && RecordBatch.isTransactional(records)) {
                    return true;
                }
            }
        }
        return false;
    }
}
