package dev.wharf.client.consumer.offset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.client.ClientException;
import dev.wharf.common.message.MessageQueue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalFileOffsetStoreTest {

    @TempDir
    Path dir;

    private final MessageQueue q0 = new MessageQueue("t", "broker-a", 0);
    private final MessageQueue q1 = new MessageQueue("t", "broker-a", 1);

    @Test
    void offsetsSurviveARestartOfTheStore() throws Exception {
        LocalFileOffsetStore store = new LocalFileOffsetStore(dir.resolve("c"));
        store.load();
        assertThat(store.readOffset(q0, ReadOffsetType.READ_FROM_STORE)).isEqualTo(OffsetStore.NO_OFFSET);
        store.updateOffset(q0, 42, false);
        store.updateOffset(q1, 7, false);
        store.updateOffset(q1, 5, true);
        store.persistAll(Set.of(q0, q1));

        LocalFileOffsetStore again = new LocalFileOffsetStore(dir.resolve("c"));
        again.load();
        assertThat(again.readOffset(q0, ReadOffsetType.READ_FROM_MEMORY)).isEqualTo(42);
        assertThat(again.readOffset(q1, ReadOffsetType.READ_FROM_STORE)).isEqualTo(7);
        assertThat(Files.exists(dir.resolve("c").resolve("offsets.json.tmp"))).as("no temp file left").isFalse();
    }

    @Test
    void aTornMainFileFallsBackToTheBackup() throws Exception {
        LocalFileOffsetStore store = new LocalFileOffsetStore(dir);
        store.load();
        store.updateOffset(q0, 10, false);
        store.persist(q0);
        store.updateOffset(q0, 11, false);
        store.persist(q0);
        Files.writeString(store.file(), "{\"offsets\":[{\"topic\":", StandardCharsets.UTF_8);

        LocalFileOffsetStore again = new LocalFileOffsetStore(dir);
        again.load();
        assertThat(again.readOffset(q0, ReadOffsetType.READ_FROM_MEMORY)).as("the previous version").isEqualTo(10);
    }

    @Test
    void unreadableFilesAreAClearError() throws Exception {
        Files.writeString(dir.resolve("offsets.json"), "garbage", StandardCharsets.UTF_8);
        LocalFileOffsetStore store = new LocalFileOffsetStore(dir);
        assertThatThrownBy(store::load).isInstanceOf(ClientException.class)
                .hasMessageContaining("offsets.json").hasMessageContaining("fix or delete");
    }
}
