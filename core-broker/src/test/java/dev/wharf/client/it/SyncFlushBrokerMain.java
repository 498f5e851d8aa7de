package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.store.FlushDiskType;
import dev.wharf.testing.TestWharf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * A SYNC_FLUSH broker in its own process, for tests that kill it: starts with the settings of {@link TestWharf}
 * on {@code root/name}, registers with the NameServer, writes its address to the ready file and runs until the
 * process is destroyed. Arguments: root brokerName namesrvAddr readyFile.
 */
public final class SyncFlushBrokerMain {

    private SyncFlushBrokerMain() {
    }

    /**
     * Starts broker-a of {@code cluster} in a child process (its errors in {@code dir/child.err}), waits until it
     * is registered and creates {@code topic} on it with one queue, routed. Destroy the process to kill the broker.
     */
    static Process startWithTopic(Path dir, TestWharf cluster, String topic) throws IOException {
        Path ready = dir.resolve("broker-a.address");
        Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), SyncFlushBrokerMain.class.getName(), dir.toString(),
                "broker-a", cluster.namesrvAddr(), ready.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(dir.resolve("child.err").toFile())
                .start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(ready) || !child.isAlive());
            assertThat(child.isAlive()).as("the broker process died; see %s", dir.resolve("child.err")).isTrue();
            AdminClient admin = new AdminClient(cluster.clientConfig());
            admin.start();
            cluster.track(admin::shutdown);
            admin.createTopic(topic, 1);
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                try {
                    return !admin.route(topic).queueDatas().isEmpty();
                } catch (ClientException e) {
                    return false;
                }
            });
            return child;
        } catch (RuntimeException | Error | ClientException | InterruptedException e) {
            child.destroyForcibly();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("Could not start the broker process with topic " + topic, e);
        }
    }

    public static void main(String[] args) throws Exception {
        BrokerSettings s = TestWharf.settings(Path.of(args[0]).resolve(args[1]), args[1], args[2]);
        s.store().setFlushDiskType(FlushDiskType.SYNC_FLUSH);
        Broker broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();
        Path file = Path.of(args[3]);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, broker.address(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        Thread.currentThread().join();
    }
}
