package io.minibroker.broker.api;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class DiskBoundHandlerTest {

    @Test
    void theHandlerRunsOnTheDiskExecutorAndItsAnswerComesBack() {
        Queue<Runnable> disk = new ArrayDeque<>();
        Struct response = ApiKey.CREATE_TOPICS.response().newMessage();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        ApiHandler slow = (context, request) -> {
            ranOn.set(Thread.currentThread());
            return CompletableFuture.completedFuture(response);
        };

        CompletionStage<Struct> answer = DiskBoundHandler.on(disk::add).apply(slow).handle(null, null);

        assertThat(answer.toCompletableFuture()).as("the calling thread does not wait for the disk").isNotDone();
        assertThat(ranOn).hasValue(null);
        Thread diskThread = new Thread(disk.poll(), "disk-io");
        diskThread.start();
        assertThat(answer.toCompletableFuture().join()).isSameAs(response);
        assertThat(ranOn).hasValue(diskThread);
    }
}
