package io.minibroker.broker.api;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
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

        CompletionStage<Struct> answer = DiskBoundHandler.on(disk::add).apply(slow)
                .handle(TestContexts.on("PLAINTEXT"), null);

        assertThat(answer.toCompletableFuture()).as("the calling thread does not wait for the disk").isNotDone();
        assertThat(ranOn).hasValue(null);
        Thread diskThread = new Thread(disk.poll(), "disk-io");
        diskThread.start();
        assertThat(answer.toCompletableFuture().join()).isSameAs(response);
        assertThat(ranOn).hasValue(diskThread);
    }

    @Test
    void theDiskThreadsTimeIsTheRequestsHandlerTime() {
        Queue<Runnable> disk = new ArrayDeque<>();
        ManualClock clock = new ManualClock();
        HandlerTime time = HandlerTime.counted(() -> TimeUnit.MILLISECONDS.toNanos(clock.nowMs()));
        RequestContext context = new RequestContext("PLAINTEXT", null, null, null, TopicRights.ALL, Runnable::run,
                time);
        ApiHandler slow = (ignored, request) -> {
            clock.advance(30); // the handler's disk work, on the broker's clock
            return CompletableFuture.completedFuture(ApiKey.CREATE_TOPICS.response().newMessage());
        };

        CompletionStage<Struct> answer = time.measure(() -> DiskBoundHandler.on(disk::add).apply(slow)
                .handle(context, null));
        clock.advance(1000); // while the request waits for the disk thread: not its handler's time
        disk.poll().run();

        assertThat(answer.toCompletableFuture()).isDone();
        assertThat(time.nanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(30));
    }
}
