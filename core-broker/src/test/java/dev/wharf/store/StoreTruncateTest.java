package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.copyTree;
import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.readAll;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageProperties;
import dev.wharf.store.commitlog.AppendResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link ReplicableStore#truncateTo(long)}: a replica cutting a divergent tail keeps its log, queues and index consistent. */
@Timeout(60)
class StoreTruncateTest {

    private static final int MESSAGES = 400;
    private static final int KEEP = 150;

    @TempDir
    Path dir;

    private final List<DefaultMessageStore> stores = new ArrayList<>();

    @AfterEach
    void tearDown() {
        stores.forEach(DefaultMessageStore::shutdown);
    }

    private DefaultMessageStore open(Path root) throws IOException {
        DefaultMessageStore store = new DefaultMessageStore(smallConfig(root));
        store.start();
        stores.add(store);
        return store;
    }

    private static String body(int i) {
        return "msg-" + i + "-" + "t".repeat(i % 300);
    }

    private static List<AppendResult> fill(DefaultMessageStore store) {
        List<AppendResult> results = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            MessageToStore m = message("Cut", i % 2, body(i));
            m.putProperty(MessageProperties.KEYS, "key-" + i);
            PutMessageResult r = store.putMessage(m);
            assertThat(r.status()).isEqualTo(PutMessageStatus.PUT_OK);
            results.add(r.appendResult());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);
        return results;
    }

    private static List<String> bodies(int queueId, int below) {
        List<String> list = new ArrayList<>();
        for (int i = queueId; i < below; i += 2) {
            list.add(body(i));
        }
        return list;
    }

    private static void assertCutAt(DefaultMessageStore store, long cut) {
        assertThat(store.getMaxPhyOffset()).isEqualTo(cut);
        assertThat(store.getMaxOffsetInQueue("Cut", 0)).isEqualTo(KEEP / 2);
        assertThat(store.getMaxOffsetInQueue("Cut", 1)).isEqualTo(KEEP / 2);
        assertThat(readAll(store, "Cut", 0, 0)).containsExactlyElementsOf(bodies(0, KEEP));
        assertThat(readAll(store, "Cut", 1, 0)).containsExactlyElementsOf(bodies(1, KEEP));
        QueryMessageResult kept = store.queryMessage("Cut", "key-" + (KEEP - 1), 10, 0, Long.MAX_VALUE);
        assertThat(kept.buffers()).hasSize(1);
        kept.release();
        QueryMessageResult gone = store.queryMessage("Cut", "key-" + KEEP, 10, 0, Long.MAX_VALUE);
        assertThat(gone.buffers()).as("index entries of cut records are gone").isEmpty();
        assertThat(store.readMessageAt(cut)).isNull();
    }

    @Test
    void truncationCutsLogQueuesAndIndexAndSurvivesCleanAndCrashRestarts() throws IOException {
        DefaultMessageStore store = open(dir);
        List<AppendResult> acked = fill(store);
        long cut = acked.get(KEEP).wroteOffset();
        long end = store.getMaxPhyOffset();
        assertThat(end / (64 * 1024)).as("the cut drops whole files too").isGreaterThan(cut / (64 * 1024));

        store.truncateTo(cut);
        assertCutAt(store, cut);
        try (Stream<Path> files = Files.list(dir.resolve("commitlog"))) {
            assertThat(files.count()).isEqualTo(cut / (64 * 1024) + 1);
        }

        // a crash right after the cut (the running store is copied as it is on disk) does not bring records back
        Path crash = dir.resolveSibling(dir.getFileName() + "-crash");
        copyTree(dir, crash);
        DefaultMessageStore crashed = open(crash);
        assertCutAt(crashed, cut);

        // new writes continue the queues right after the cut
        PutMessageResult next = store.putMessage(message("Cut", 0, "after-cut"));
        assertThat(next.status()).isEqualTo(PutMessageStatus.PUT_OK);
        assertThat(next.appendResult().wroteOffset()).isEqualTo(cut);
        assertThat(next.appendResult().logicsOffset()).isEqualTo(KEEP / 2);
        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);
        store.shutdown();
        stores.remove(store);

        DefaultMessageStore reopened = open(dir);
        assertThat(reopened.getMaxPhyOffset()).isEqualTo(next.appendResult().wroteOffset()
                + next.appendResult().wroteBytes());
        List<String> queue0 = new ArrayList<>(bodies(0, KEEP));
        queue0.add("after-cut");
        assertThat(readAll(reopened, "Cut", 0, 0)).containsExactlyElementsOf(queue0);
        assertThat(readAll(reopened, "Cut", 1, 0)).containsExactlyElementsOf(bodies(1, KEEP));
    }

    @Test
    void aPointThatIsNotARecordStartIsRefusedAndChangesNothing() throws IOException {
        DefaultMessageStore store = open(dir);
        List<AppendResult> acked = fill(store);
        long end = store.getMaxPhyOffset();
        assertThatThrownBy(() -> store.truncateTo(acked.get(KEEP).wroteOffset() + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no record starts there");
        assertThat(store.getMaxPhyOffset()).isEqualTo(end);
        store.truncateTo(end + 1000); // at or past the end: nothing to cut
        assertThat(store.getMaxPhyOffset()).isEqualTo(end);
        assertThat(readAll(store, "Cut", 1, 0)).containsExactlyElementsOf(bodies(1, MESSAGES));
    }
}
