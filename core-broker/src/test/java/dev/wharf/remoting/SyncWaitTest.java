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
 * cannot pay (no budget, a slow connection, another waiter, one core). Budgets here are far longer than the test's
 * time limit, so a spin that ignored its stop conditions fails the test instead of passing by running out. Each test
 * counts its own callers, so synchronous calls elsewhere in the JVM cannot change what it sees.
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
        SyncWait callers = new SyncWait(true);
        callers.enter();
        try {
            spinning.countDown();
            callers.spin(answer, HOUR_NANOS, 0);
        } finally {
            callers.leave();
        }
        assertThat(answer).isCompletedWithValue("ok");
        answerer.join();
    }

    @Test
    void aSecondWaiterStopsTheSpin() {
        CompletableFuture<String> never = new CompletableFuture<>();
        SyncWait callers = new SyncWait(true);
        callers.enter();
        callers.enter();
        try {
            callers.spin(never, HOUR_NANOS, 0);
        } finally {
            callers.leave();
            callers.leave();
        }
        assertThat(never).isNotDone();
    }

    @Test
    void noBudgetASlowConnectionOrOneCoreDoesNotSpin() {
        CompletableFuture<String> never = new CompletableFuture<>();
        SyncWait callers = new SyncWait(true);
        SyncWait oneCore = new SyncWait(false);
        callers.enter();
        oneCore.enter();
        try {
            callers.spin(never, 0, 0);
            callers.spin(never, HOUR_NANOS, HOUR_NANOS + 1);
            oneCore.spin(never, HOUR_NANOS, 0);
        } finally {
            callers.leave();
            oneCore.leave();
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
