package io.minibroker.protocol.record;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Heap for decompressed records, bounded in total over every thread that uses it: each buffer's arrays are counted
 * as they are allocated (the old one with the new while a buffer grows) and given back as they are freed. A buffer
 * that cannot grow within the budget fails with CORRUPT_MESSAGE instead of exhausting the heap, so that batches
 * that inflate to huge sizes, sent concurrently on many connections, cannot together take more than the budget,
 * whatever the limit of one batch.
 */
public final class InflationBudget extends AbstractByteBufAllocator {

    private final long limit;
    private final AtomicLong inUse = new AtomicLong();

    public InflationBudget(long limit) {
        super(false);
        this.limit = limit;
    }

    public long inUse() {
        return inUse.get();
    }

    public long limit() {
        return limit;
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return new BudgetedBuf(initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return new BudgetedBuf(initialCapacity, maxCapacity); // decompressed records stay on the heap
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    private void take(int bytes) {
        long after = inUse.addAndGet(bytes);
        if (after > limit) {
            inUse.addAndGet(-bytes);
            throw new ProtocolException(Errors.CORRUPT_MESSAGE, "decompressing needs " + bytes
                    + " more bytes, and batches being validated already hold " + (after - bytes) + " of the "
                    + limit + " bytes they may share");
        }
    }

    /** Not static: the budget is reached from the array allocation of the superclass's constructor. */
    private final class BudgetedBuf extends UnpooledHeapByteBuf {
        BudgetedBuf(int initialCapacity, int maxCapacity) {
            super(InflationBudget.this, initialCapacity, maxCapacity);
        }

        @Override
        protected byte[] allocateArray(int capacity) {
            take(capacity);
            return new byte[capacity];
        }

        @Override
        protected void freeArray(byte[] array) {
            inUse.addAndGet(-array.length);
        }
    }
}
