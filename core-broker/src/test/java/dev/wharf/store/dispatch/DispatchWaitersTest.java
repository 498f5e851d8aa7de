package dev.wharf.store.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The completion signal of the dispatch offset: waiters are released by the offset's moves, never by a poll. */
class DispatchWaitersTest {

    private final DispatchWaiters waiters = new DispatchWaiters();
    private final AtomicLong confirmed = new AtomicLong(100);

    @Test
    void anOffsetAlreadyReachedNeedsNoWaiter() {
        assertThat(waiters.whenReached(100, confirmed::get)).isDone();
        assertThat(waiters.whenReached(40, confirmed::get)).isDone();
        assertThat(waiters.size()).isZero();
    }

    @Test
    void waitersAreReleasedInOffsetOrderAsTheOffsetMoves() {
        CompletableFuture<Void> far = waiters.whenReached(300, confirmed::get);
        CompletableFuture<Void> near = waiters.whenReached(200, confirmed::get);
        assertThat(waiters.size()).isEqualTo(2);

        confirmed.set(250);
        waiters.release(250);
        assertThat(near).isDone();
        assertThat(far).isNotDone();
        assertThat(waiters.size()).isEqualTo(1);

        confirmed.set(300);
        waiters.release(300);
        assertThat(far).isDone();
        assertThat(waiters.size()).isZero();
    }

    @Test
    void aWaiterRegisteredAfterTheOffsetMovedIsReleasedAtOnce() {
        // the dispatch thread moved the offset and saw no waiter; the waiter's own second look releases it
        AtomicLong movesWhileRegistering = new AtomicLong();
        CompletableFuture<Void> done = waiters.whenReached(150, () -> movesWhileRegistering.getAndIncrement() == 0
                ? 100 : 160);
        assertThat(done).isDone();
        assertThat(waiters.size()).isZero();
    }

    @Test
    void aWaiterThatGaveUpIsForgotten() {
        CompletableFuture<Void> done = waiters.whenReached(500, confirmed::get);
        waiters.cancel(done);
        assertThat(waiters.size()).isZero();
        waiters.release(1_000);
        assertThat(done).isNotDone();
    }
}
