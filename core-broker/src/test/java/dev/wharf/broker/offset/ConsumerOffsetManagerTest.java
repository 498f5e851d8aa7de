package dev.wharf.broker.offset;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.broker.config.JsonConfigFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsumerOffsetManagerTest {

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(1_000_000);

    private ConsumerOffsetManager manager() {
        return new ConsumerOffsetManager(JsonConfigFile.inConfigDir(dir, "consumerOffset.json",
                ConsumerOffsetManager.OffsetsDocument.class), 30_000, now::get);
    }

    @Test
    void offsetsPersistOnlyWhenChangedAndLoadBack() throws Exception {
        ConsumerOffsetManager offsets = manager();
        offsets.load();
        assertThat(offsets.queryOffset("g", "T", 0)).isEqualTo(-1);
        offsets.commitOffset("g", "T", 0, 10);
        offsets.commitOffset("g", "T", 3, 7);
        offsets.commitOffset("h", "T", 0, 1);
        offsets.commitOffset("g", "U", 0, 2);
        offsets.persist();
        Path file = dir.resolve("config/consumerOffset.json");
        long written = Files.getLastModifiedTime(file).toMillis();
        Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(written - 60_000));
        offsets.persist();
        assertThat(Files.getLastModifiedTime(file).toMillis()).isEqualTo(written - 60_000);

        ConsumerOffsetManager loaded = manager();
        loaded.load();
        assertThat(loaded.offsets("g", "T")).isEqualTo(Map.of(0, 10L, 3, 7L));
        assertThat(loaded.topicsOf("g")).containsExactly("T", "U");
        assertThat(loaded.groupsOf("T")).containsExactly("g", "h");
        loaded.removeTopic("T");
        assertThat(loaded.topicsOf("g")).containsExactly("U");
        loaded.removeGroup("g");
        assertThat(loaded.snapshot()).isEmpty();
    }

    @Test
    void aResetGuardIgnoresStaleCommitsUntilReadOrExpired() {
        ConsumerOffsetManager offsets = manager();
        offsets.commitOffset("g", "T", 0, 50);
        offsets.commitOffset("g", "T", 1, 60);
        offsets.resetOffsets("g", "T", Map.of(0, 0L, 1, 0L));
        assertThat(offsets.commitOffset("g", "T", 0, 50)).isFalse();
        assertThat(offsets.queryOffset("g", "T", 0)).isZero();
        assertThat(offsets.queryOffsetForConsumer("g", "T", 0)).isZero();
        assertThat(offsets.commitOffset("g", "T", 0, 3)).isTrue();
        assertThat(offsets.queryOffset("g", "T", 0)).isEqualTo(3);
        // queue 1 was never re-read: guarded until the guard expires
        assertThat(offsets.commitOffset("g", "T", 1, 60)).isFalse();
        now.addAndGet(30_000);
        assertThat(offsets.commitOffset("g", "T", 1, 4)).isTrue();
        assertThat(offsets.queryOffset("g", "T", 1)).isEqualTo(4);
    }
}
