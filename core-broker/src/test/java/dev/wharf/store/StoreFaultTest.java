package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.readAll;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.store.health.StoreHealth;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults of the store's own threads: a dispatcher that fails (here through the dispatcher seam, with the error a
 * mapped buffer raises on a full disk) leaves the store refusing puts with the reason, never skips the record, and
 * the store resumes by itself when the fault clears; a failed service refuses puts until a restart.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StoreFaultTest {

    private static final String TOPIC = "Faults";

    @TempDir
    Path dir;
    private DefaultMessageStore store;
    private final AtomicReference<Throwable> fault = new AtomicReference<>();

    @AfterEach
    void stop() {
        if (store != null) {
            store.shutdown();
        }
    }

    private void start() throws Exception {
        store = new DefaultMessageStore(smallConfig(dir));
        store.addDispatcher(request -> {
            Throwable t = fault.get();
            if (t instanceof Error e) {
                throw e;
            }
            if (t instanceof RuntimeException e) {
                throw e;
            }
        });
        store.start();
    }

    @Test
    void aFailingDispatcherRefusesPutsWithTheReasonAndResumesWithoutSkipping() throws Exception {
        start();
        assertThat(store.putMessage(message(TOPIC, 0, "m0")).isOk()).isTrue();
        assertThat(store.awaitDispatched(5_000)).isTrue();

        fault.set(new InternalError("a fault occurred in an unsafe memory access operation"));
        // accepted before the dispatcher met the fault: it must become readable later, not be skipped
        assertThat(store.putMessage(message(TOPIC, 0, "m1")).isOk()).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> store.health().isDispatchStuck());

        PutMessageResult refused = store.putMessage(message(TOPIC, 0, "m2"));
        assertThat(refused.status()).isEqualTo(PutMessageStatus.STORE_NOT_WRITABLE);
        assertThat(refused.errorMessage()).contains("dispatch is stuck").contains("I/O fault")
                .contains("InternalError");
        assertThat(store.health().isUp()).isFalse();
        assertThat(store.health().condition()).isEqualTo(StoreHealth.Condition.DISPATCH_STUCK);
        assertThat(readAll(store, TOPIC, 0, 0)).containsExactly("m0");

        fault.set(null);
        await().atMost(Duration.ofSeconds(5)).until(() -> store.health().isUp());
        assertThat(store.awaitDispatched(5_000)).isTrue();
        assertThat(store.putMessage(message(TOPIC, 0, "m3")).isOk()).isTrue();
        assertThat(store.awaitDispatched(5_000)).isTrue();
        assertThat(readAll(store, TOPIC, 0, 0)).as("m1 retried, not skipped; m2 never stored")
                .containsExactly("m0", "m1", "m3");
    }

    @Test
    void aRuntimeFailureOfADispatcherIsRetriedToo() throws Exception {
        start();
        fault.set(new IllegalStateException("index exploded"));
        assertThat(store.putMessage(message(TOPIC, 1, "a")).isOk()).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> store.health().isDispatchStuck());
        assertThat(store.putMessage(message(TOPIC, 1, "b")).errorMessage()).contains("index exploded");
        fault.set(null);
        await().atMost(Duration.ofSeconds(5)).until(() -> store.health().isUp());
        assertThat(store.awaitDispatched(5_000)).isTrue();
        assertThat(readAll(store, TOPIC, 1, 0)).containsExactly("a");
    }

    @Test
    void aFailedServiceRefusesPutsUntilARestart() throws Exception {
        start();
        store.health().fail("wharf-flush-commitlog", new InternalError("a fault occurred in an unsafe memory access"));
        PutMessageResult refused = store.putMessage(message(TOPIC, 0, "x"));
        assertThat(refused.status()).isEqualTo(PutMessageStatus.STORE_NOT_WRITABLE);
        assertThat(refused.errorMessage()).contains("wharf-flush-commitlog").contains("restarted");
        assertThat(store.putMessages(java.util.List.of(message(TOPIC, 0, "y"))).status())
                .isEqualTo(PutMessageStatus.STORE_NOT_WRITABLE);
        store.shutdown();

        store = new DefaultMessageStore(smallConfig(dir));
        store.start();
        assertThat(store.health().isUp()).isTrue();
        assertThat(store.putMessage(message(TOPIC, 0, "z")).isOk()).isTrue();
    }

    @Test
    void diskSettingsAreChecked() {
        MessageStoreConfig config = smallConfig(dir.resolve("bad"));
        config.setDiskSpaceWarningLevelRatio(80);
        config.setPreallocateStepCommitLog(100);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DefaultMessageStore(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("diskSpaceWarningLevelRatio is 80; use a percentage from diskMaxUsedSpaceRatio (85)")
                .hasMessageContaining("preallocateStepCommitLog is 100; use at least 4096 bytes, or 0");
    }
}
