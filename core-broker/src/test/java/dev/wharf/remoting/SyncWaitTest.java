package dev.wharf.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The spin of a synchronous caller: it ends when the answer is there, and does not start, or stops, when spinning
 * cannot pay (no budget, a slow connection, another waiter). Budgets here are far longer than the test's time limit,
 * so a spin that ignored its stop conditions fails the test instead of passing by running out.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SyncWaitTest {

    private static final long HOUR_NANOS = TimeUnit.HOURS.toNanos(1);

    @Test
    void aLoneCallerSpinsUntilItsAnswerIsThere() throws Exception {
        CompletableFuture<String> answer = new CompletableFuture<>();
        CountDownLatch spinning = new CountDownLatch(1);
        Thread answerer = new Thread(() -> {
            try {
                spinning.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer.complete("ok");
        });
        answerer.start();
        SyncWait.enter();
        try {
            spinning.countDown();
            SyncWait.spin(answer, HOUR_NANOS, 0);
        } finally {
            SyncWait.leave();
        }
        if (Runtime.getRuntime().availableProcessors() > 1) {
            assertThat(answer).isCompletedWithValue("ok");
        }
        answerer.join();
    }

    @Test
    void aSecondWaiterStopsTheSpin() {
        CompletableFuture<String> never = new CompletableFuture<>();
        SyncWait.enter();
        SyncWait.enter();
        try {
            SyncWait.spin(never, HOUR_NANOS, 0);
        } finally {
            SyncWait.leave();
            SyncWait.leave();
        }
        assertThat(never).isNotDone();
    }

    @Test
    void noBudgetOrASlowConnectionDoesNotSpin() {
        CompletableFuture<String> never = new CompletableFuture<>();
        SyncWait.enter();
        try {
            SyncWait.spin(never, 0, 0);
            SyncWait.spin(never, HOUR_NANOS, HOUR_NANOS + 1);
        } finally {
            SyncWait.leave();
        }
        assertThat(never).isNotDone();
    }

    @Test
    void theSpinBudgetIsCheckedWhereverItIsSet() {
        assertThat(NettyClientConfig.defaultSyncSpinMicros(null)).isEqualTo(NettyClientConfig.DEFAULT_SYNC_SPIN_MICROS);
        assertThat(NettyClientConfig.defaultSyncSpinMicros(" ")).isEqualTo(NettyClientConfig.DEFAULT_SYNC_SPIN_MICROS);
        assertThat(NettyClientConfig.defaultSyncSpinMicros(" 0 ")).isZero();
        assertThat(NettyClientConfig.defaultSyncSpinMicros("2000")).isEqualTo(2000);
        for (String bad : new String[] {"fast", "-1", "100001", "1.5"}) {
            assertThatThrownBy(() -> NettyClientConfig.defaultSyncSpinMicros(bad))
                    .hasMessageContaining(NettyClientConfig.SYNC_SPIN_PROPERTY + "=" + bad)
                    .hasMessageContaining("set it to 0 to never spin");
        }
        NettyClientConfig config = new NettyClientConfig();
        config.setSyncSpinMicros(0);
        assertThat(config.getSyncSpinMicros()).isZero();
        assertThatThrownBy(() -> config.setSyncSpinMicros(-5)).hasMessageContaining("syncSpinMicros");
        assertThatThrownBy(() -> config.setSyncSpinMicros(100_001)).hasMessageContaining("at most 100000");
    }
}
