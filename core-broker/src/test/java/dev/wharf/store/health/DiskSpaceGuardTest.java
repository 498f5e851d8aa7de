package dev.wharf.store.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The disk-full decision, against a file system whose figures the test sets. */
class DiskSpaceGuardTest {

    private static final long TOTAL = 1_000_000;

    private final AtomicLong usable = new AtomicLong(TOTAL);
    private final AtomicLong nanos = new AtomicLong();
    private final StoreHealth health = new StoreHealth();
    private final DiskSpaceGuard guard = new DiskSpaceGuard(Path.of("store-x"), 90, health, nanos::get,
            dir -> new long[] {TOTAL, usable.get()});

    @Test
    void refusesAboveTheWarningLevelAndAcceptsBelowIt() {
        usable.set(TOTAL / 20); // 95 % used
        guard.check();
        assertThat(health.condition()).isEqualTo(StoreHealth.Condition.DISK_FULL);
        assertThat(health.writeRefusal()).isEqualTo("disk full: store store-x has 50000 bytes free, needs 100000;"
                + " free space or raise diskSpaceWarningLevelRatio (now 90%)");
        usable.set(TOTAL / 2);
        guard.check();
        assertThat(health.isUp()).isTrue();
    }

    @Test
    void aRefusedReservationHoldsUntilThatMuchIsFreeAndRechecksAreRateLimited() {
        usable.set(300_000);
        String reason = guard.noRoom(400_000, new IOException("No space left on device"));
        assertThat(reason).startsWith("disk full: store store-x has 300000 bytes free, needs 400000;")
                .endsWith("(No space left on device)");
        assertThat(health.isDiskFull()).isTrue();

        usable.set(500_000);
        guard.recheckIfDue();
        assertThat(health.isDiskFull()).as("checked less than 100 ms ago").isTrue();
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(DiskSpaceGuard.RECHECK_MILLIS));
        guard.recheckIfDue();
        assertThat(health.isUp()).as("room for what was refused").isTrue();
    }

    @Test
    void aRefusedReservationStaysRefusedWhileTooLittleIsFree() {
        usable.set(300_000);
        guard.noRoom(400_000, null);
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
        guard.recheckIfDue();
        assertThat(health.writeRefusal()).contains("needs 400000");
    }

    @Test
    void conditionsRankFailedOverStuckOverDiskFull() {
        health.diskFull("disk full: x");
        health.dispatchStuck("dispatch is stuck", null);
        assertThat(health.condition()).isEqualTo(StoreHealth.Condition.DISPATCH_STUCK);
        health.fail("wharf-x", new InternalError("a fault occurred in an unsafe memory access"));
        assertThat(health.condition()).isEqualTo(StoreHealth.Condition.FAILED);
        assertThat(health.writeRefusal()).contains("wharf-x").contains("I/O fault");
        health.dispatchResumed();
        health.diskSpaceOk();
        assertThat(health.isFailed()).as("only a restart clears a failure").isTrue();
        assertThat(StoreHealth.isIoFault(new IllegalStateException("x"))).isFalse();
        assertThat(StoreHealth.isIoFault(new RuntimeException(new IOException("x")))).isTrue();
    }
}
