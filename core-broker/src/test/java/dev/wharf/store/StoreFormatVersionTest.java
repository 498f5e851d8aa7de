package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.decode;
import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.store.recovery.StoreFormatVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's on-disk format version file: written at creation, older stores adopted, newer ones refused. */
class StoreFormatVersionTest {

    @TempDir
    Path dir;

    @Test
    void aNewStoreRecordsTheCurrentFormat() throws IOException {
        DefaultMessageStore store = new DefaultMessageStore(smallConfig(dir));
        store.start();
        store.shutdown();
        Path file = dir.resolve(StoreFormatVersion.FILE_NAME);
        assertThat(file).content().contains("version=" + StoreFormatVersion.CURRENT);
        assertThat(StoreFormatVersion.read(file)).isEqualTo(StoreFormatVersion.CURRENT);
        assertThat(dir.resolve(StoreFormatVersion.FILE_NAME + ".tmp")).doesNotExist();
    }

    @Test
    void aStoreWithoutTheFileIsTheFirstFormatAndOpensWithItsMessages() throws IOException {
        DefaultMessageStore first = new DefaultMessageStore(smallConfig(dir));
        first.start();
        assertThat(first.putMessage(message("Old", 0, "written before the format file")).isOk()).isTrue();
        first.shutdown();
        // what a store written by Wharf 0.1 looks like: everything but the format file
        Files.delete(dir.resolve(StoreFormatVersion.FILE_NAME));

        DefaultMessageStore reopened = new DefaultMessageStore(smallConfig(dir));
        reopened.start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> reopened.dispatchBehindBytes() == 0);
            assertThat(decode(reopened.getMessage("Old", 0, 0, 32, 1 << 20, MessageFilter.ALL)))
                    .extracting(m -> new String(m.getBody(), java.nio.charset.StandardCharsets.UTF_8))
                    .containsExactly("written before the format file");
        } finally {
            reopened.shutdown();
        }
        assertThat(StoreFormatVersion.read(dir.resolve(StoreFormatVersion.FILE_NAME)))
                .as("the file is added").isEqualTo(StoreFormatVersion.CURRENT);
    }

    @Test
    void aStoreOfANewerFormatIsRefusedBeforeAnythingIsOpened() throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(StoreFormatVersion.FILE_NAME), "version=" + (StoreFormatVersion.CURRENT + 1) + "\n");
        DefaultMessageStore store = new DefaultMessageStore(smallConfig(dir));
        assertThatThrownBy(store::start).isInstanceOf(IOException.class)
                .hasMessageContaining("on-disk format version " + (StoreFormatVersion.CURRENT + 1))
                .hasMessageContaining("newest this Wharf reads (" + StoreFormatVersion.CURRENT + ")")
                .hasMessageContaining("another storePathRootDir");
        store.shutdown();
        assertThat(dir.resolve("commitlog")).as("nothing was created").doesNotExist();
        assertThat(dir.resolve(StoreFormatVersion.FILE_NAME)).content().contains("version=2");

        // the lock was released: the store can be opened once the file is right again
        Files.writeString(dir.resolve(StoreFormatVersion.FILE_NAME), "version=" + StoreFormatVersion.CURRENT + "\n");
        DefaultMessageStore again = new DefaultMessageStore(smallConfig(dir));
        again.start();
        again.shutdown();
    }

    @Test
    void aDamagedFileIsReportedWithWhatToDo() throws IOException {
        Files.writeString(dir.resolve(StoreFormatVersion.FILE_NAME), "version=banana\n");
        assertThatThrownBy(() -> StoreFormatVersion.checkOrCreate(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining("is damaged").hasMessageContaining("version=N");
        Files.writeString(dir.resolve(StoreFormatVersion.FILE_NAME), "");
        assertThatThrownBy(() -> StoreFormatVersion.checkOrCreate(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining("is damaged");
    }
}
