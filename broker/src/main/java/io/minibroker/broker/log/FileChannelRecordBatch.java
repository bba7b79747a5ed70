package io.minibroker.broker.log;

/**
 * One whole batch of a {@link LogReadResult} as its header tells it, without its records (Kafka's
 * FileChannelRecordBatch, whose header is all a share fetch looks at): where it lies in the read, its offsets, and
 * what makes it a transaction's.
 *
 * @param position      bytes from the start of the read to the batch, for {@link LogReadResult#slice}
 * @param sizeInBytes   the whole batch, its log overhead included
 * @param producerId    the producer that wrote it, -1 for none
 * @param isTransactional whether it belongs to a transaction
 * @param isControl     whether it is a control batch (a transaction marker)
 */
public record FileChannelRecordBatch(int position, int sizeInBytes, long baseOffset, long lastOffset,
                                     long producerId, boolean isTransactional, boolean isControl) {

    /** The position right after the batch in the read. */
    public int end() {
        return position + sizeInBytes;
    }
}
