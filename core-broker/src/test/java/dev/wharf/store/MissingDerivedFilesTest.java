package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.copyTree;
import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.readAll;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageProperties;
import dev.wharf.store.file.MappedFile;
import dev.wharf.store.queue.QueueManifest;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consume queues and the index are derived from the commit log: when their files are missing or short at a
 * start, clean or not, they are rebuilt from it, and nothing acknowledged becomes invisible.
 */
@Timeout(120)
class MissingDerivedFilesTest {

    /** Enough messages for several commit-log and consume-queue files. */
    private static final int MESSAGES = 600;

    @TempDir
    Path dir;

    private final List<DefaultMessageStore> stores = new ArrayList<>();

    @AfterEach
    void tearDown() {
        stores.forEach(DefaultMessageStore::shutdown);
    }

    private DefaultMessageStore open(Path root) throws IOException {
        MessageStoreConfig config = smallConfig(root);
        config.setFlushDiskType(FlushDiskType.SYNC_FLUSH);
        // a crash copy then has a safe offset and a manifest past the first commit-log files
        config.setFlushConsumeQueueThoroughInterval(50);
        config.setQueueManifestInterval(50);
        DefaultMessageStore store = new DefaultMessageStore(config);
        store.start();
        stores.add(store);
        return store;
    }

    private void close(DefaultMessageStore store) {
        store.shutdown();
        stores.remove(store);
    }

    private static String body(int i) {
        return "msg-" + i + "-" + "d".repeat(i % 300);
    }

    private static void fill(DefaultMessageStore store) {
        for (int i = 0; i < MESSAGES; i++) {
            MessageToStore m = message(i % 3 == 2 ? "Other" : "Durable", i % 3 == 2 ? 0 : i % 2, body(i));
            m.putProperty(MessageProperties.KEYS, "key-" + i);
            assertThat(store.putMessage(m).status()).isEqualTo(PutMessageStatus.PUT_OK);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> store.dispatchBehindBytes() == 0);
    }

    private static List<String> expected(String topic, int queueId) {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            boolean other = i % 3 == 2;
            if (other ? topic.equals("Other") : topic.equals("Durable") && i % 2 == queueId) {
                bodies.add(body(i));
            }
        }
        return bodies;
    }

    private static void assertEverythingReadable(DefaultMessageStore store) {
        assertThat(readAll(store, "Durable", 0, 0)).containsExactlyElementsOf(expected("Durable", 0));
        assertThat(readAll(store, "Durable", 1, 0)).containsExactlyElementsOf(expected("Durable", 1));
        assertThat(readAll(store, "Other", 0, 0)).containsExactlyElementsOf(expected("Other", 0));
    }

    private static void deleteTree(Path p) throws IOException {
        try (Stream<Path> paths = Files.walk(p)) {
            for (Path q : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(q);
            }
        }
    }

    /** A copy of the running store as a crash leaves it, once the manifest and checkpoint passed the start. */
    private Path crashCopy(DefaultMessageStore running, String name) throws IOException {
        long end = running.getMaxPhyOffset();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            QueueManifest m = QueueManifest.read(dir.resolve(QueueManifest.FILE_NAME));
            return m != null && m.dispatchedOffset() == end;
        });
        Path crash = dir.resolveSibling(dir.getFileName() + "-" + name);
        copyTree(dir, crash);
        assertThat(Files.exists(crash.resolve("abort"))).isTrue();
        return crash;
    }

    @Test
    void aQueueFolderDeletedAfterACleanStopIsRebuilt() throws IOException {
        DefaultMessageStore store = open(dir);
        fill(store);
        close(store);
        deleteTree(dir.resolve("consumequeue").resolve("Durable").resolve("0"));

        DefaultMessageStore reopened = open(dir);
        assertEverythingReadable(reopened);
        // the next message continues the queue's numbering
        assertThat(reopened.putMessage(message("Durable", 0, "next")).appendResult().logicsOffset())
                .isEqualTo(expected("Durable", 0).size());
    }

    @Test
    void aQueueFolderDeletedAfterACrashIsRebuiltFromTheManifest() throws IOException {
        DefaultMessageStore store = open(dir);
        fill(store);
        Path crash = crashCopy(store, "crash");
        // the checkpoint lets recovery start at a later commit-log file: only the manifest knows the queue
        deleteTree(crash.resolve("consumequeue").resolve("Durable").resolve("1"));

        DefaultMessageStore recovered = open(crash);
        assertThat(recovered.lastRecovery().scanned()).isTrue();
        assertThat(recovered.lastRecovery().dispatchFrom()).as("recovery resumes past the first file").isPositive();
        assertEverythingReadable(recovered);
    }

    @Test
    void allConsumeQueuesDeletedAfterACleanStopAreRebuilt() throws IOException {
        DefaultMessageStore store = open(dir);
        fill(store);
        close(store);
        deleteTree(dir.resolve("consumequeue"));

        DefaultMessageStore reopened = open(dir);
        assertEverythingReadable(reopened);
        assertThat(reopened.getMinOffsetInQueue("Durable", 0)).isZero();
    }

    @Test
    void aShortConsumeQueueFileIsRebuilt() throws IOException {
        DefaultMessageStore store = open(dir);
        fill(store);
        close(store);
        Path file = dir.resolve("consumequeue").resolve("Durable").resolve("0").resolve(MappedFile.fileName(0));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() / 2 + 7);
        }

        DefaultMessageStore reopened = open(dir);
        assertEverythingReadable(reopened);
    }

    @Test
    void theIndexDeletedAfterACleanStopIsRebuilt() throws IOException {
        DefaultMessageStore store = open(dir);
        fill(store);
        close(store);
        deleteTree(dir.resolve("index"));

        DefaultMessageStore reopened = open(dir);
        QueryMessageResult found = reopened.queryMessage("Durable", "key-10", 10, 0, Long.MAX_VALUE);
        try {
            assertThat(found.buffers()).hasSize(1);
        } finally {
            found.release();
        }
        assertEverythingReadable(reopened);
    }

    @Test
    void theIndexDeletedAfterACrashIsRebuilt() throws IOException {
        DefaultMessageStore store = open(dir);
        fill(store);
        Path crash = crashCopy(store, "crash-index");
        deleteTree(crash.resolve("index"));

        DefaultMessageStore recovered = open(crash);
        QueryMessageResult found = recovered.queryMessage("Durable", "key-4", 10, 0, Long.MAX_VALUE);
        try {
            assertThat(found.buffers()).hasSize(1);
        } finally {
            found.release();
        }
    }

    @Test
    void aCleanRestartMapsNoQueueUntilOneIsRead() throws IOException {
        DefaultMessageStore store = open(dir);
        for (int t = 0; t < 50; t++) {
            for (int q = 0; q < 4; q++) {
                assertThat(store.putMessage(message("T" + t, q, t + "/" + q)).isOk()).isTrue();
            }
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> store.dispatchBehindBytes() == 0);
        close(store);

        DefaultMessageStore reopened = open(dir);
        assertThat(reopened.mappedQueueCount()).isZero();
        assertThat(reopened.getMaxOffsetInQueue("T7", 3)).isEqualTo(1);
        assertThat(reopened.mappedQueueCount()).as("the end is known without the files").isZero();
        assertThat(readAll(reopened, "T7", 3, 0)).containsExactly("7/3");
        assertThat(reopened.mappedQueueCount()).isEqualTo(1);
        assertThat(reopened.putMessage(message("T9", 1, "second")).appendResult().logicsOffset()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> reopened.dispatchBehindBytes() == 0);
        assertThat(readAll(reopened, "T9", 1, 0)).containsExactly("9/1", "second");
    }
}
