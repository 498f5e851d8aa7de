package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageExt;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sequential read paths for start-up scans: records from a physical offset, units of a queue. */
class StoreScanTest {

    @TempDir
    Path dir;

    private DefaultMessageStore store;

    @AfterEach
    void tearDown() {
        if (store != null) {
            store.shutdown();
        }
    }

    private DefaultMessageStore start() throws IOException {
        store = new DefaultMessageStore(smallConfig(dir));
        store.start();
        return store;
    }

    /** Puts {@code count} messages of ~1 KiB into two topics; returns each one's commit-log offset. */
    private List<Long> putMessages(int count) {
        List<Long> offsets = new ArrayList<>();
        String filler = "x".repeat(1000);
        for (int i = 0; i < count; i++) {
            MessageToStore msg = message(i % 2 == 0 ? "even" : "odd", 0, i + filler);
            msg.putProperty("N", String.valueOf(i));
            PutMessageResult result = store.putMessage(msg);
            assertThat(result.isOk()).isTrue();
            offsets.add(result.appendResult().wroteOffset());
        }
        return offsets;
    }

    @Test
    void forEachRecordVisitsEveryRecordInOrderAcrossFileEnds() throws IOException {
        start();
        // 64 KiB files and ~1 KiB records: 150 records span three files with blank ends
        List<Long> offsets = putMessages(150);
        List<MessageExt> seen = new ArrayList<>();
        long end = store.forEachRecord(0, seen::add);

        assertThat(end).isEqualTo(store.getMaxPhyOffset());
        assertThat(seen).extracting(m -> m.getProperty("N"))
                .containsExactlyElementsOf(range(0, 150));
        assertThat(seen).extracting(MessageExt::getCommitLogOffset).containsExactlyElementsOf(offsets);
        assertThat(seen).extracting(MessageExt::getTopic).startsWith("even", "odd", "even");
        assertThat(seen.get(0).getBody()).as("bodies are not read").isNull();
        assertThat(offsets.get(149) / (64 * 1024)).as("the records really cross files").isEqualTo(2);
    }

    @Test
    void forEachRecordStartsAtAnEarlierEndAndStopsAtTheCurrentEnd() throws IOException {
        start();
        putMessages(70);
        long mark = store.getMaxPhyOffset();
        putMessages(30);
        List<String> seen = new ArrayList<>();
        long end = store.forEachRecord(mark, m -> seen.add(m.getProperty("N")));

        assertThat(seen).containsExactlyElementsOf(range(0, 30));
        assertThat(end).isEqualTo(store.getMaxPhyOffset());
        assertThat(store.forEachRecord(end, m -> seen.add("more"))).isEqualTo(end);
        assertThat(seen).hasSize(30);
    }

    @Test
    void forEachRecordFromBeforeTheFirstOffsetStartsAtTheFirstRecord() throws IOException {
        start();
        putMessages(3);
        List<String> seen = new ArrayList<>();
        store.forEachRecord(-5, m -> seen.add(m.getProperty("N")));
        assertThat(seen).containsExactly("0", "1", "2");
    }

    @Test
    void visitQueueUnitsHandsOutUnitsWithoutReadingTheCommitLog() throws IOException {
        start();
        List<Long> offsets = putMessages(260); // "even" gets 130 units: two queue files of 100 units and a part
        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);

        List<long[]> units = new ArrayList<>();
        long next = store.visitQueueUnits("even", 0, 0, 1_000, (q, phy, size, tags) -> units.add(new long[] {q, phy, size}));
        assertThat(next).as("one call stays within one queue file").isEqualTo(100);
        next = store.visitQueueUnits("even", 0, next, 1_000, (q, phy, size, tags) -> units.add(new long[] {q, phy, size}));
        assertThat(next).isEqualTo(130);
        assertThat(units).hasSize(130);
        for (int i = 0; i < 130; i++) {
            assertThat(units.get(i)[0]).isEqualTo(i);
            assertThat(units.get(i)[1]).isEqualTo(offsets.get(2 * i));
            assertThat(units.get(i)[2]).isPositive();
        }
    }

    @Test
    void visitQueueUnitsStopsWhereTheVisitorDeclinesOrAtTheLimit() throws IOException {
        start();
        putMessages(20);
        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);

        List<Long> seen = new ArrayList<>();
        long stop = store.visitQueueUnits("odd", 0, 2, 100, (q, phy, size, tags) -> {
            if (q == 5) {
                return false;
            }
            seen.add(q);
            return true;
        });
        assertThat(stop).isEqualTo(5);
        assertThat(seen).containsExactly(2L, 3L, 4L);
        assertThat(store.visitQueueUnits("odd", 0, 0, 4, (q, phy, size, tags) -> true)).isEqualTo(4);
        assertThat(store.visitQueueUnits("odd", 0, 10, 4, (q, phy, size, tags) -> true))
                .as("at the end nothing is read").isEqualTo(10);
        assertThat(store.visitQueueUnits("nope", 3, 7, 4, (q, phy, size, tags) -> true)).isEqualTo(7);
    }

    private static List<String> range(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(String.valueOf(i));
        }
        return out;
    }
}
