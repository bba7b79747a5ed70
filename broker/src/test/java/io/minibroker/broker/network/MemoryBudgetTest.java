package io.minibroker.broker.network;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryBudgetTest {

    @Test
    void grantsUpToTheLimitAndWakesWaitersOnRelease() {
        MemoryBudget budget = new MemoryBudget(100);
        AtomicInteger woken = new AtomicInteger();
        assertTrue(budget.tryReserve(60, woken::incrementAndGet));
        assertTrue(budget.tryReserve(40, woken::incrementAndGet));
        assertFalse(budget.tryReserve(1, woken::incrementAndGet));
        assertEquals(100, budget.reserved());
        assertEquals(0, woken.get());

        budget.release(40);
        assertEquals(1, woken.get());
        assertEquals(60, budget.reserved());
        budget.release(10);
        assertEquals(1, woken.get(), "woken once per wait");
    }

    @Test
    void aCancelledWaiterIsNotWoken() {
        MemoryBudget budget = new MemoryBudget(10);
        AtomicInteger woken = new AtomicInteger();
        Runnable waiter = woken::incrementAndGet;
        assertTrue(budget.tryReserve(10, waiter));
        assertFalse(budget.tryReserve(5, waiter));
        budget.cancel(waiter);
        budget.release(10);
        assertEquals(0, woken.get());
        assertEquals(0, budget.reserved());
    }
}
