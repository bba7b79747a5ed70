package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Records the markers asked for; answers at once (every partition NONE) unless held, when each call waits for the
 * test to {@link #release} it. {@link #onAppend}, if set, runs within each call first (on the caller's thread).
 */
final class FakeMarkerAppender implements TransactionMarkerAppender {

    record Call(TransactionMarker marker, List<TopicPartition> partitions,
                CompletableFuture<Map<TopicPartition, Errors>> answer) {
    }

    final List<Call> calls = new ArrayList<>();
    volatile boolean hold;
    volatile Runnable onAppend;

    @Override
    public synchronized CompletionStage<Map<TopicPartition, Errors>> append(TransactionMarker marker,
                                                                            Collection<TopicPartition> partitions) {
        Runnable first = onAppend;
        if (first != null) {
            first.run();
        }
        CompletableFuture<Map<TopicPartition, Errors>> answer = new CompletableFuture<>();
        calls.add(new Call(marker, List.copyOf(partitions), answer));
        if (!hold) {
            answer.complete(allNone(partitions));
        }
        return answer;
    }

    synchronized void release(Map<TopicPartition, Errors> errors) {
        for (Call call : calls) {
            if (!call.answer().isDone()) {
                Map<TopicPartition, Errors> result = new java.util.HashMap<>(allNone(call.partitions()));
                result.putAll(errors);
                result.keySet().retainAll(call.partitions());
                call.answer().complete(result);
            }
        }
    }

    synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    private static Map<TopicPartition, Errors> allNone(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Errors> result = new java.util.HashMap<>();
        partitions.forEach(partition -> result.put(partition, Errors.NONE));
        return result;
    }
}
