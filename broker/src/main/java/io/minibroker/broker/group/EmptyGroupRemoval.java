package io.minibroker.broker.group;

import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.broker.log.LogException;
import io.minibroker.protocol.error.Errors;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import static java.util.concurrent.CompletableFuture.completedFuture;

/**
 * Removes a consumer or streams group once it is empty, what DeleteGroups (and for a consumer group, a classic join
 * taking its id) does, on the coordinator's thread: with the group coordinated here (else the coordinator's error),
 * present (else {@code absent}) and without members (else {@code withMembers}), its writes are made under its lock
 * and it is forgotten; the answer is NONE once they count, else the write's error. A write refused at once leaves the
 * group as it is.
 *
 * @param <G> the kind of group, guarded by its own monitor
 */
final class EmptyGroupRemoval<G> {

    private final CoordinatorThread thread;
    private final ClassicGroups classicGroups;
    private final Function<String, G> lookup;
    private final Predicate<G> isDead;
    private final Predicate<G> hasMembers;
    private final Consumer<G> forget;

    EmptyGroupRemoval(CoordinatorThread thread, ClassicGroups classicGroups, Function<String, G> lookup,
                      Predicate<G> isDead, Predicate<G> hasMembers, Consumer<G> forget) {
        this.thread = thread;
        this.classicGroups = classicGroups;
        this.lookup = lookup;
        this.isDead = isDead;
        this.hasMembers = hasMembers;
        this.forget = forget;
    }

    CompletableFuture<Errors> whenEmpty(String groupId, Errors absent, Errors withMembers,
                                        Function<G, CompletableFuture<Long>> writes) {
        return thread.compose(() -> {
            Errors notHere = classicGroups.coordinatorError(groupId);
            G group = lookup.apply(groupId);
            if (notHere != Errors.NONE || group == null) {
                return completedFuture(notHere != Errors.NONE ? notHere : absent);
            }
            CompletableFuture<Long> written;
            synchronized (group) {
                if (isDead.test(group)) {
                    return completedFuture(absent);
                }
                if (hasMembers.test(group)) {
                    return completedFuture(withMembers);
                }
                try {
                    written = writes.apply(group);
                } catch (LogException e) {
                    return completedFuture(CoordinatorWriteErrors.answerFor(e));
                }
                if (!written.isCompletedExceptionally()) { // failed already: refused at once
                    forget.accept(group);
                }
            }
            return written.handle((offset, failure) -> failure == null ? Errors.NONE
                    : CoordinatorWriteErrors.answerFor(failure));
        });
    }
}
