package io.minibroker.broker.network;

/**
 * What bounds the connections of all listeners together: their number ({@link ConnectionQuotas}) and the bytes of
 * partial requests they hold ({@code queued.max.request.bytes}, and a smaller budget before authentication).
 */
public record ConnectionLimits(ConnectionQuotas quotas, MemoryBudget requestBytes,
                               MemoryBudget unauthenticatedRequestBytes) {
}
