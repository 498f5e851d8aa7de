package dev.wharf.console.login;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The brake on failed sign-ins, on a clock the test moves. */
class LoginThrottleTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final LoginThrottle throttle = new LoginThrottle(3, 60_000, now::get);

    @Test
    void anAddressIsStoppedAfterTheFailuresAndLetGoWhenTheOldestLeavesTheWindow() {
        throttle.failed("10.0.0.1", "alice");
        now.addAndGet(10_000);
        throttle.failed("10.0.0.1", "bob");
        assertThat(throttle.retryAfterMillis("10.0.0.1", "carol")).isZero();
        throttle.failed("10.0.0.1", "carol");
        // three failures from one address, whatever the names: the address waits for the oldest to expire
        assertThat(throttle.retryAfterMillis("10.0.0.1", "dave")).isEqualTo(50_000);
        assertThat(throttle.retryAfterMillis("10.0.0.2", "dave")).as("another address, another name").isZero();
        now.addAndGet(50_000);
        assertThat(throttle.retryAfterMillis("10.0.0.1", "dave")).isZero();
    }

    @Test
    void aUserNameIsStoppedWhateverAddressesTheGuessesComeFrom() {
        throttle.failed("10.0.0.1", "admin");
        throttle.failed("10.0.0.2", "admin");
        throttle.failed("10.0.0.3", "admin");
        assertThat(throttle.retryAfterMillis("10.0.0.4", "admin")).isEqualTo(60_000);
        assertThat(throttle.retryAfterMillis("10.0.0.4", "other")).isZero();
    }

    @Test
    void aSuccessClearsTheAddressAndTheName() {
        throttle.failed("10.0.0.1", "alice");
        throttle.failed("10.0.0.1", "alice");
        throttle.succeeded("10.0.0.1", "alice");
        throttle.failed("10.0.0.1", "alice");
        throttle.failed("10.0.0.1", "alice");
        assertThat(throttle.retryAfterMillis("10.0.0.1", "alice")).isZero();
    }

    @Test
    void madeUpNamesCannotGrowItsMemoryWithoutBound() {
        for (int i = 0; i < LoginThrottle.MAX_KEYS * 2; i++) {
            throttle.failed("10.0.0." + (i % 200), "user-" + i);
        }
        assertThat(throttle.size()).isLessThanOrEqualTo(LoginThrottle.MAX_KEYS + 1);
    }
}
