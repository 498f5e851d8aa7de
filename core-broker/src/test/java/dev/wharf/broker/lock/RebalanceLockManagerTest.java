package dev.wharf.broker.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.MessageQueue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RebalanceLockManagerTest {

    private final AtomicLong now = new AtomicLong(0);
    private final RebalanceLockManager locks = new RebalanceLockManager(60_000, now::get);
    private final MessageQueue q0 = new MessageQueue("T", "b", 0);
    private final MessageQueue q1 = new MessageQueue("T", "b", 1);

    @Test
    void aLockExpiresWithoutRenewal() {
        assertThat(locks.tryLockBatch("g", Set.of(q0, q1), "c1")).containsExactlyInAnyOrder(q0, q1);
        assertThat(locks.tryLockBatch("g", Set.of(q0), "c2")).isEmpty();
        assertThat(locks.tryLockBatch("other", Set.of(q0), "c2")).containsExactly(q0);
        now.set(59_000);
        assertThat(locks.tryLockBatch("g", Set.of(q1), "c1")).containsExactly(q1);
        now.set(61_000);
        assertThat(locks.isLockedBy("g", q0, "c1")).isFalse();
        assertThat(locks.isLockedBy("g", q1, "c1")).isTrue();
        assertThat(locks.tryLockBatch("g", Set.of(q0, q1), "c2")).containsExactly(q0);
    }

    @Test
    void unlockingOnlyReleasesOwnLocks() {
        locks.tryLockBatch("g", Set.of(q0), "c1");
        locks.unlockBatch("g", Set.of(q0), "c2");
        assertThat(locks.isLockedBy("g", q0, "c1")).isTrue();
        locks.unlockAll("g", "c1");
        assertThat(locks.tryLockBatch("g", Set.of(q0), "c2")).containsExactly(q0);
    }
}
