package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.copyTree;
import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.readAll;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that crashed, restarted on a full disk: it either starts (refusing puts as disk full) or fails with one
 * clear message naming the full disk, never with an {@link InternalError}; once space returns it starts and every
 * message is there.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FullDiskRestartTest {

    @TempDir
    Path dir;

    @Test
    void aCrashedStoreRestartedOnAFullDiskSaysSoAndStartsOnceSpaceReturns() throws Exception {
        try (TmpfsMount disk = TmpfsMount.mount(dir.resolve("disk"), 8)) {
            Path live = disk.dir().resolve("live");
            Path crashed = disk.dir().resolve("crashed");
            List<String> sent = new ArrayList<>();
            DefaultMessageStore store = new DefaultMessageStore(smallConfig(live));
            store.start();
            try {
                for (int i = 0; i < 400; i++) {
                    String body = "m" + i + " " + "x".repeat(200);
                    assertThat(store.putMessage(message("Crash", 0, body)).isOk()).isTrue();
                    sent.add(body);
                }
                assertThat(store.awaitDispatched(10_000)).isTrue();
                copyTree(live, crashed); // what a kill -9 leaves on disk: the abort marker, no final checkpoint
            } finally {
                store.shutdown();
            }
            deleteTree(live);
            disk.fill();

            DefaultMessageStore onFullDisk = new DefaultMessageStore(smallConfig(crashed));
            try {
                onFullDisk.start();
                PutMessageResult refused = onFullDisk.putMessage(message("Crash", 0, "late"));
                assertThat(refused.status()).isEqualTo(PutMessageStatus.DISK_FULL);
                assertThat(refused.errorMessage()).startsWith("disk full: store ");
                onFullDisk.shutdown();
            } catch (IOException e) {
                assertThat(e.getMessage()).containsAnyOf("is full", "free space on it", "Free space")
                        .doesNotContain("InternalError");
            }

            disk.free();
            DefaultMessageStore again = new DefaultMessageStore(smallConfig(crashed));
            again.start();
            try {
                assertThat(readAll(again, "Crash", 0, 0)).containsExactlyElementsOf(sent);
                assertThat(again.putMessage(message("Crash", 0, "after")).isOk()).isTrue();
            } finally {
                again.shutdown();
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (var paths = java.nio.file.Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.delete(p);
            }
        }
    }
}
