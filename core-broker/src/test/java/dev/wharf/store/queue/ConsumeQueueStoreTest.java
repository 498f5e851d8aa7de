package dev.wharf.store.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.store.file.SelectMappedBufferResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsumeQueueStoreTest {

    private static final int FILE_SIZE = 4 * ConsumeQueueUnit.SIZE;

    @TempDir
    Path dir;

    private ConsumeQueueStore store;

    @AfterEach
    void tearDown() {
        if (store != null) {
            store.shutdown();
        }
    }

    private ConsumeQueueStore open() throws IOException {
        ConsumeQueueStore s = new ConsumeQueueStore(dir, FILE_SIZE);
        s.load();
        s.recover();
        return s;
    }

    private ConsumeQueueStore reopen() throws IOException {
        store.shutdown();
        store = open();
        return store;
    }

    private static long[] unit(ConsumeQueue queue, long n) {
        SelectMappedBufferResult view = queue.getIndexBuffer(n);
        assertThat(view).as("unit %d of %s", n, queue).isNotNull();
        try {
            ByteBuffer b = view.byteBuffer();
            return new long[] {ConsumeQueueUnit.phyOffset(b, 0), ConsumeQueueUnit.msgSize(b, 0),
                ConsumeQueueUnit.tagsCode(b, 0)};
        } finally {
            view.release();
        }
    }

    @Test
    void thousandsOfQueuesSurviveAReopen() throws IOException {
        store = open();
        int topics = 200;
        int queuesPerTopic = 10;
        // one commit log: messages are spread round-robin over the 2,000 queues, 5 rounds (crossing a file)
        Map<String, long[]> lastPhyByQueue = new HashMap<>();
        long phy = 0;
        for (int round = 0; round < 5; round++) {
            for (int t = 0; t < topics; t++) {
                for (int q = 0; q < queuesPerTopic; q++) {
                    ConsumeQueue queue = store.findOrCreate("topic-" + t, q);
                    int size = 50 + (t + q) % 40;
                    assertThat(queue.putUnit(round, phy, size, t * 31L + q)).isEqualTo(PutUnitStatus.APPENDED);
                    lastPhyByQueue.put(t + "/" + q, new long[] {phy, size});
                    phy += size;
                }
            }
        }
        long end = phy;
        assertThat(store.maxPhysicalOffsetCovered()).isEqualTo(end);
        assertThat(store.all()).hasSize(topics);

        reopen();

        assertThat(store.all()).hasSize(topics);
        assertThat(store.all().values()).allSatisfy(m -> assertThat(m).hasSize(queuesPerTopic));
        assertThat(store.maxPhysicalOffsetCovered()).isEqualTo(end);
        for (int t = 0; t < topics; t++) {
            for (int q = 0; q < queuesPerTopic; q++) {
                ConsumeQueue queue = store.find("topic-" + t, q);
                assertThat(queue.getMaxOffsetInQueue()).isEqualTo(5);
                long[] last = lastPhyByQueue.get(t + "/" + q);
                assertThat(unit(queue, 4)).containsExactly(last[0], last[1], t * 31L + q);
                assertThat(queue.getLastOffset()).isEqualTo(last[0] + last[1]);
            }
        }
    }

    @Test
    void findOrCreateReturnsOneQueuePerTopicAndId() throws IOException {
        store = open();
        assertThat(store.find("a", 0)).isNull();
        ConsumeQueue a0 = store.findOrCreate("a", 0);
        assertThat(store.findOrCreate("a", 0)).isSameAs(a0);
        assertThat(store.find("a", 0)).isSameAs(a0);
        assertThat(store.findOrCreate("a", 1)).isNotSameAs(a0);
        assertThat(a0.topic()).isEqualTo("a");
        assertThat(a0.queueId()).isZero();
        // no file until the first unit
        assertThat(dir.resolve("a")).doesNotExist();
        a0.putUnit(0, 0, 10, 0);
        assertThat(dir.resolve("a").resolve("0").resolve("00000000000000000000")).exists();
    }

    @Test
    void loadSkipsEntriesTheStoreDidNotWrite() throws IOException {
        store = open();
        store.findOrCreate("good", 0).putUnit(0, 0, 10, 0);
        store.findOrCreate("good", 12).putUnit(0, 10, 10, 0);
        store.shutdown();
        Files.writeString(dir.resolve("stray.txt"), "x");
        Files.createDirectories(dir.resolve("bad name"));
        Files.createDirectories(dir.resolve("good").resolve("abc"));
        Files.createDirectories(dir.resolve("good").resolve("07"));
        Files.createDirectories(dir.resolve("good").resolve("-1"));
        Files.createDirectories(dir.resolve("good").resolve("99999999999"));
        Files.writeString(dir.resolve("good").resolve("5"), "a file, not a directory");

        store = open();
        assertThat(store.all()).containsOnlyKeys("good");
        assertThat(store.all().get("good")).containsOnlyKeys(0, 12);
        assertThat(store.find("good", 12).getMaxOffsetInQueue()).isEqualTo(1);
    }

    @Test
    void loadRejectsFilesOfAnotherSizeWithAClearError() throws IOException {
        store = open();
        store.findOrCreate("t", 0).putUnit(0, 0, 10, 0);
        store.shutdown();
        store = null;
        ConsumeQueueStore other = new ConsumeQueueStore(dir, 2 * FILE_SIZE);
        assertThatThrownBy(other::load).isInstanceOf(IOException.class)
                .hasMessageContaining("configured file size");
        other.shutdown();
    }

    @Test
    void truncateDirtyCutsEveryQueueAtTheCommitLogEnd() throws IOException {
        store = open();
        long phy = 0;
        for (int i = 0; i < 30; i++) {
            store.findOrCreate("t", i % 3).putUnit(i / 3, phy, 100, 0);
            phy += 100;
        }
        // the commit log kept 2,000 bytes (messages 0 to 19) after an unclean stop
        store.truncateDirty(2_000);
        assertThat(store.maxPhysicalOffsetCovered()).isEqualTo(2_000);
        assertThat(store.find("t", 0).getMaxOffsetInQueue()).isEqualTo(7); // messages 0,3,...,18
        assertThat(store.find("t", 1).getMaxOffsetInQueue()).isEqualTo(7); // 1,...,19
        assertThat(store.find("t", 2).getMaxOffsetInQueue()).isEqualTo(6); // 2,...,17
        reopen();
        assertThat(store.maxPhysicalOffsetCovered()).isEqualTo(2_000);
        assertThat(store.find("t", 2).getMaxOffsetInQueue()).isEqualTo(6);
    }

    @Test
    void deleteExpiredRemovesOldFilesOfEveryQueueAndMovesTheirMin() throws IOException {
        store = open();
        long phy = 0;
        for (int i = 0; i < 40; i++) {
            store.findOrCreate("t", i % 2).putUnit(i / 2, phy, 100, 0);
            phy += 100;
        }
        // commit-log files below 2,500 are gone: messages 0 to 24
        store.deleteExpired(2_500);
        ConsumeQueue q0 = store.find("t", 0);
        ConsumeQueue q1 = store.find("t", 1);
        // queue 0 holds messages 0,2,...,38 as units 0..19; unit 13 (message 26) is the first left
        assertThat(q0.getMinOffsetInQueue()).isEqualTo(13);
        assertThat(q1.getMinOffsetInQueue()).isEqualTo(12); // messages 1,3,...: unit 12 is message 25
        assertThat(q0.getMinPhysicalOffset()).isEqualTo(2_600);
        assertThat(q1.getMinPhysicalOffset()).isEqualTo(2_500);
        assertThat(q0.fileCount()).isEqualTo(2); // units 12..15 and 16..19
        assertThat(q0.getIndexBuffer(12)).isNull();
        assertThat(unit(q0, 13)[0]).isEqualTo(2_600);
    }

    @Test
    void deleteTopicRemovesItsQueuesAndFilesOnly() throws IOException {
        store = open();
        for (int q = 0; q < 4; q++) {
            for (int i = 0; i < 10; i++) {
                store.findOrCreate("doomed", q).putUnit(i, i * 10L, 10, 0);
            }
        }
        store.findOrCreate("kept", 0).putUnit(0, 5_000, 10, 0);
        // a reader still holds a view while the topic goes away
        SelectMappedBufferResult held = store.find("doomed", 1).getIndexBuffer(9);

        store.deleteTopic("doomed");

        assertThat(store.find("doomed", 1)).isNull();
        assertThat(store.all()).containsOnlyKeys("kept");
        assertThat(dir.resolve("doomed")).doesNotExist();
        assertThat(ConsumeQueueUnit.phyOffset(held.byteBuffer(), 0)).isEqualTo(90);
        held.release();
        assertThat(store.maxPhysicalOffsetCovered()).isEqualTo(5_010);

        reopen();
        assertThat(store.all()).containsOnlyKeys("kept");
        ConsumeQueue fresh = store.findOrCreate("doomed", 1);
        assertThat(fresh.getMaxOffsetInQueue()).isZero();
        store.deleteTopic("never-existed");
    }

    @Test
    void flushForcesEveryQueue() throws IOException {
        store = open();
        store.findOrCreate("a", 0).putUnit(0, 0, 10, 0);
        store.findOrCreate("b", 0).putUnit(0, 10, 10, 0);
        store.flush(0);
        reopen();
        assertThat(store.find("a", 0).getMaxOffsetInQueue()).isEqualTo(1);
        assertThat(store.find("b", 0).getMaxOffsetInQueue()).isEqualTo(1);
    }

    @Test
    void invalidNamesAndSizesAreRejectedWithAReason() throws IOException {
        assertThatThrownBy(() -> new ConsumeQueueStore(dir, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mappedFileSizeConsumeQueue");
        store = open();
        assertThatThrownBy(() -> store.findOrCreate("..", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserved");
        assertThatThrownBy(() -> store.findOrCreate("a/b", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'/'");
        assertThatThrownBy(() -> store.findOrCreate("ok", -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        store.deleteTopic("..");
        assertThat(dir).exists();
    }

    @Test
    void queueIdDirectoryNamesMustBeCanonical() {
        assertThat(ConsumeQueueStore.parseQueueId("0")).isZero();
        assertThat(ConsumeQueueStore.parseQueueId("17")).isEqualTo(17);
        assertThat(ConsumeQueueStore.parseQueueId("2147483647")).isEqualTo(Integer.MAX_VALUE);
        assertThat(ConsumeQueueStore.parseQueueId("2147483648")).isEqualTo(-1);
        assertThat(ConsumeQueueStore.parseQueueId("007")).isEqualTo(-1);
        assertThat(ConsumeQueueStore.parseQueueId("")).isEqualTo(-1);
        assertThat(ConsumeQueueStore.parseQueueId("1a")).isEqualTo(-1);
    }
}
