package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.store.PutMessageResult;
import dev.wharf.store.PutMessageStatus;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A SYNC_MASTER's sends waiting for their slaves when the master is demoted (or shut down): those its slaves
 * already hold succeed, the others fail at once with FLUSH_SLAVE_TIMEOUT and the reason, and so does any put
 * that reaches the closed waiting room afterwards; none waits for its slave timeout, none hangs.
 */
@Timeout(30)
class ReplicaWaitersTest {

    private static final String DEMOTED = "demoted before the slaves confirmed it";

    @Test
    void pendingSendsFailAtOnceWhenTheMasterIsDemoted() throws Exception {
        AtomicLong replicated = new AtomicLong();
        ReplicaWaiters waiters = new ReplicaWaiters(replicated::get, 60_000); // a slave timeout far away
        waiters.start();
        CompletableFuture<PutMessageResult> covered = waiters.await(100);
        CompletableFuture<PutMessageResult> uncovered = waiters.await(200);
        replicated.set(100); // a slave holds the first (its ack may or may not have been processed before the demotion)
        assertThat(uncovered).isNotDone();

        waiters.close(DEMOTED);

        assertThat(covered.get(5, TimeUnit.SECONDS).status()).isEqualTo(PutMessageStatus.PUT_OK);
        PutMessageResult failed = uncovered.get(5, TimeUnit.SECONDS);
        assertThat(failed.status()).isEqualTo(PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
        assertThat(failed.errorMessage()).isEqualTo(DEMOTED);
        assertThat(waiters.waiting()).isZero();

        CompletableFuture<PutMessageResult> late = waiters.await(300); // a put that read the old waiting room
        assertThat(late).isDone();
        assertThat(late.get().status()).isEqualTo(PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
        assertThat(late.get().errorMessage()).isEqualTo(DEMOTED);
    }

    @Test
    void anUnconfirmedSendTimesOutThoughPutsDoNotWakeTheTimeoutThread() throws Exception {
        AtomicLong replicated = new AtomicLong();
        ReplicaWaiters waiters = new ReplicaWaiters(replicated::get, 200);
        waiters.start();
        try {
            CompletableFuture<PutMessageResult> confirmed = waiters.await(100);
            CompletableFuture<PutMessageResult> never = waiters.await(200);
            replicated.set(100);
            waiters.advanced(); // the ack that covers the first
            assertThat(confirmed.get(5, TimeUnit.SECONDS).status()).isEqualTo(PutMessageStatus.PUT_OK);
            // the thread's sleep (at most the slave timeout) began before these puts, so it ends by their deadline
            PutMessageResult late = never.get(10, TimeUnit.SECONDS);
            assertThat(late.status()).isEqualTo(PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
            assertThat(late.errorMessage()).contains("slaveTimeout (200 ms)");
            assertThat(waiters.waiting()).isZero();
        } finally {
            waiters.close(DEMOTED);
        }
    }

    @Test
    void aWaitingRoomClosedBeforeItsThreadRanStillAnswers() throws Exception {
        ReplicaWaiters waiters = new ReplicaWaiters(() -> 0, 60_000);
        CompletableFuture<PutMessageResult> pending = waiters.await(10);
        waiters.close(DEMOTED);
        assertThat(pending.get(5, TimeUnit.SECONDS).status()).isEqualTo(PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
    }
}
