package dev.wharf.jms.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.config.WharfConnectionConfig;
import dev.wharf.jms.vm.VmBrokerRegistry.VmBroker;
import dev.wharf.jms.vm.VmBrokerRegistry.VmBrokerSpec;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sharing, settings conflicts, store folders and stopping of in-JVM brokers, with a recording launcher. */
class VmBrokerRegistryTest {

    private final List<VmBrokerSpec> started = new ArrayList<>();
    private final List<String> stopped = new ArrayList<>();

    private VmBroker launch(VmBrokerSpec spec) throws JMSException {
        synchronized (started) {
            started.add(spec);
        }
        try {
            Files.writeString(spec.storePathRootDir().resolve("commitlog"), "data");
        } catch (java.io.IOException e) {
            throw new JMSException(e.getMessage());
        }
        return new VmBroker() {
            @Override
            public String namesrvAddr() {
                return "127.0.0.1:" + (10_000 + started.size());
            }

            @Override
            public void shutdown() {
                stopped.add(spec.name());
            }
        };
    }

    private final VmBrokerRegistry registry = new VmBrokerRegistry(this::launch, false);

    @Test
    void theFirstConnectionStartsTheBrokerAndLaterOnesShareIt() throws Exception {
        VmBroker a = registry.acquire(WharfConnectionConfig.parse("vm://one?flushDiskType=SYNC_FLUSH&sendTimeout=5"));
        VmBroker b = registry.acquire(WharfConnectionConfig.parse("vm://one?flushDiskType=SYNC_FLUSH"));
        VmBroker c = registry.acquire(WharfConnectionConfig.parse("vm://one?maxReconsumeTimes=2"));
        assertThat(b).isSameAs(a);
        assertThat(c).isSameAs(a);
        assertThat(started).hasSize(1);
        assertThat(started.get(0).settings()).containsEntry("flushDiskType", "SYNC_FLUSH").hasSize(1);
        registry.acquire(WharfConnectionConfig.parse("vm://two"));
        assertThat(registry.names()).containsExactly("one", "two");
    }

    @Test
    void differentBrokerSettingsForARunningNameAreRefused() throws Exception {
        registry.acquire(WharfConnectionConfig.parse("vm://one?flushDiskType=SYNC_FLUSH"));
        assertThatThrownBy(() -> registry.acquire(WharfConnectionConfig.parse("vm://one?flushDiskType=ASYNC_FLUSH")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already runs")
                .hasMessageContaining("ASYNC_FLUSH").hasMessageContaining("another name");
    }

    @Test
    void withoutAStoreFolderATemporaryOneIsUsedAndDeletedOnStop() throws Exception {
        registry.acquire(WharfConnectionConfig.parse("vm://temp"));
        Path store = started.get(0).storePathRootDir();
        assertThat(started.get(0).temporaryStore()).isTrue();
        assertThat(store.resolve("commitlog")).exists();
        assertThat(registry.stop("temp")).isTrue();
        assertThat(store).doesNotExist();
        assertThat(stopped).containsExactly("temp");
        assertThat(registry.stop("temp")).isFalse();
    }

    @Test
    void aGivenStoreFolderIsUsedAndKept(@TempDir Path dir) throws Exception {
        registry.acquire(WharfConnectionConfig.parse("vm://kept?storePathRootDir=" + dir.toUri().getPath()));
        assertThat(started.get(0).storePathRootDir()).isEqualTo(dir);
        assertThat(started.get(0).temporaryStore()).isFalse();
        registry.stopAll();
        assertThat(dir.resolve("commitlog")).exists();
        assertThat(registry.names()).isEmpty();
    }

    @Test
    void aBrokerThatFailsToStartLeavesNothingBehind() throws Exception {
        List<Path> stores = new ArrayList<>();
        VmBrokerRegistry failing = new VmBrokerRegistry(spec -> {
            stores.add(spec.storePathRootDir());
            throw new JMSException("port in use");
        }, false);
        assertThatThrownBy(() -> failing.acquire(WharfConnectionConfig.parse("vm://f")))
                .isInstanceOf(JMSException.class).hasMessageContaining("port in use");
        assertThat(stores.get(0)).doesNotExist();
        assertThat(failing.names()).isEmpty();
        VmBrokerRegistry crashing = new VmBrokerRegistry(spec -> {
            throw new IllegalArgumentException("Unknown setting \"x\"");
        }, false);
        assertThatThrownBy(() -> crashing.acquire(WharfConnectionConfig.parse("vm://f?x=1")))
                .isInstanceOf(JMSException.class).hasMessageContaining("vm://f").hasMessageContaining("x");
    }

    @Test
    void onlyVmUrlsStartBrokers() {
        assertThatThrownBy(() -> registry.acquire(WharfConnectionConfig.parse("wharf://h:1")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not a vm:// URL");
    }

    @Test
    void concurrentFirstUsesStartOneBroker() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<VmBroker>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                results.add(pool.submit(() -> {
                    go.await();
                    return registry.acquire(WharfConnectionConfig.parse("vm://race"));
                }));
            }
            go.countDown();
            VmBroker first = results.get(0).get(10, TimeUnit.SECONDS);
            for (Future<VmBroker> f : results) {
                assertThat(f.get(10, TimeUnit.SECONDS)).isSameAs(first);
            }
            assertThat(started).hasSize(1);
        } finally {
            pool.shutdownNow();
            registry.stopAll();
        }
    }

    @Test
    void theSharedRegistryStartsARealBrokerWithTheUrlsSettings() throws Exception {
        VmBroker broker = VmBrokerRegistry.shared().acquire(
                WharfConnectionConfig.parse("vm://shared-test?defaultTopicQueueNums=2&flushDiskType=SYNC_FLUSH"));
        try {
            assertThat(broker.namesrvAddr()).startsWith("127.0.0.1:");
            assertThat(VmBrokerRegistry.shared().names()).contains("shared-test");
            try (java.net.Socket s = new java.net.Socket("127.0.0.1",
                    Integer.parseInt(broker.namesrvAddr().substring("127.0.0.1:".length())))) {
                assertThat(s.isConnected()).isTrue();
            }
        } finally {
            assertThat(VmBrokerRegistry.shared().stop("shared-test")).isTrue();
        }
    }

    @Test
    void anUnknownBrokerSettingIsRefusedWithAHintAndNothingStarts() {
        assertThatThrownBy(() -> VmBrokerRegistry.shared().acquire(
                WharfConnectionConfig.parse("vm://shared-bad?flushDiskTyp=SYNC_FLUSH")))
                .isInstanceOf(JMSException.class).hasMessageContaining("flushDiskTyp")
                .hasMessageContaining("did you mean \"flushDiskType\"");
        assertThatThrownBy(() -> VmBrokerRegistry.shared().acquire(
                WharfConnectionConfig.parse("vm://shared-bad?flushDiskType=SOMETIMES")))
                .isInstanceOf(JMSException.class).hasMessageContaining("flushDiskType");
        assertThat(VmBrokerRegistry.shared().names()).doesNotContain("shared-bad");
    }
}
