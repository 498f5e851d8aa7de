package dev.wharf.store.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.store.file.SelectMappedBufferResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Queues map their files on use and give the mappings back beyond the budget or when idle. */
@Timeout(60)
class ConsumeQueueBudgetTest {

    private static final int FILE_SIZE = 10 * ConsumeQueueUnit.SIZE;
    private static final int BUDGET = 16;

    @TempDir
    Path dir;

    private ConsumeQueueStore store;

    @AfterEach
    void tearDown() {
        if (store != null) {
            store.shutdown();
        }
    }

    private static long phy(int queue, int unit) {
        return (queue * 1_000L + unit) * 100;
    }

    private static long readPhy(ConsumeQueue queue, long unit) {
        SelectMappedBufferResult view = queue.getIndexBuffer(unit);
        assertThat(view).as("unit %d of %s", unit, queue).isNotNull();
        try {
            return ConsumeQueueUnit.phyOffset(view.byteBuffer(), 0);
        } finally {
            view.release();
        }
    }

    @Test
    void manyQueuesStayWithinTheBudgetAndReadBackAfterReopening() {
        store = new ConsumeQueueStore(dir, FILE_SIZE, BUDGET, 3_600_000);
        int queues = 300;
        for (int q = 0; q < queues; q++) {
            for (int u = 0; u < 25; u++) {
                store.findOrCreate("t" + q % 30, q / 30).putUnit(u, phy(q, u), 50, 0);
                assertThat(store.mappedQueueCount()).isLessThanOrEqualTo(BUDGET);
            }
        }
        for (int q = 0; q < queues; q++) {
            ConsumeQueue queue = store.find("t" + q % 30, q / 30);
            assertThat(queue.getMaxOffsetInQueue()).isEqualTo(25);
            for (int u = 0; u < 25; u += 6) {
                assertThat(readPhy(queue, u)).isEqualTo(phy(q, u));
            }
            assertThat(store.mappedQueueCount()).isLessThanOrEqualTo(BUDGET);
        }
        // a queue closed by the budget goes on where it stopped when it is written again
        ConsumeQueue first = store.find("t0", 0);
        assertThat(first.isMapped()).isFalse();
        assertThat(first.putUnit(25, phy(0, 25), 50, 0)).isEqualTo(PutUnitStatus.APPENDED);
        assertThat(first.putUnit(3, phy(0, 3), 50, 0)).isEqualTo(PutUnitStatus.DUPLICATE);
        assertThat(readPhy(first, 25)).isEqualTo(phy(0, 25));
    }

    @Test
    void aReaderKeepsItsViewWhenTheQueueIsClosedUnderIt() {
        store = new ConsumeQueueStore(dir, FILE_SIZE, 2, 3_600_000);
        ConsumeQueue held = store.findOrCreate("held", 0);
        held.putUnit(0, 4_242, 50, 7);
        SelectMappedBufferResult view = held.getIndexBuffer(0);
        try {
            for (int q = 0; q < 10; q++) {
                store.findOrCreate("other", q).putUnit(0, q, 50, 0);
            }
            assertThat(held.isMapped()).as("closed to make room").isFalse();
            assertThat(ConsumeQueueUnit.phyOffset(view.byteBuffer(), 0)).isEqualTo(4_242);
            assertThat(ConsumeQueueUnit.tagsCode(view.byteBuffer(), 0)).isEqualTo(7);
        } finally {
            view.release();
        }
        assertThat(readPhy(held, 0)).isEqualTo(4_242);
    }

    @Test
    void idleQueuesAreUnmappedAndTheirUnitsForcedByTheNextFlush() throws IOException {
        store = new ConsumeQueueStore(dir, FILE_SIZE, BUDGET, 1);
        for (int q = 0; q < 8; q++) {
            store.findOrCreate("idle", q).putUnit(0, q * 100L, 50, 0);
        }
        assertThat(store.mappedQueueCount()).isEqualTo(8);
        long deadline = System.currentTimeMillis() + 10_000;
        while (store.mappedQueueCount() > 0 && System.currentTimeMillis() < deadline) {
            store.flush(0);
        }
        assertThat(store.mappedQueueCount()).isZero();
        assertThat(store.find("idle", 5).getMaxOffsetInQueue()).isEqualTo(1);
        assertThat(readPhy(store.find("idle", 5), 0)).isEqualTo(500);
        assertThat(Files.size(dir.resolve("idle").resolve("5").resolve("00000000000000000000"))).isEqualTo(FILE_SIZE);
    }

    @Test
    void aManifestRestoresEveryQueueWithoutOpeningOne() throws IOException {
        store = new ConsumeQueueStore(dir, FILE_SIZE, BUDGET, 3_600_000);
        for (int q = 0; q < 40; q++) {
            for (int u = 0; u < 13; u++) {
                store.findOrCreate("m", q).putUnit(u, phy(q, u), 50, 0);
            }
        }
        Path manifestFile = dir.resolve("queues.manifest");
        store.manifest(123, -1, true).write(manifestFile);
        store.shutdown();

        QueueManifest manifest = QueueManifest.read(manifestFile);
        assertThat(manifest).isNotNull();
        assertThat(manifest.entries()).hasSize(40);
        assertThat(manifest.dispatchedOffset()).isEqualTo(123);
        store = new ConsumeQueueStore(dir, FILE_SIZE, BUDGET, 3_600_000);
        store.restore(manifest, true);
        assertThat(store.findMissingOrShort()).isEmpty();
        assertThat(store.find("m", 17).getMaxOffsetInQueue()).isEqualTo(13);
        assertThat(store.find("m", 17).getLastOffset()).isEqualTo(phy(17, 12) + 50);
        assertThat(store.mappedQueueCount()).isZero();
        assertThat(readPhy(store.find("m", 17), 12)).isEqualTo(phy(17, 12));
        assertThat(store.find("m", 17).putUnit(13, phy(17, 13), 50, 0)).isEqualTo(PutUnitStatus.APPENDED);
    }

    @Test
    void aDamagedManifestIsIgnored() throws IOException {
        Path manifestFile = dir.resolve("queues.manifest");
        Files.write(manifestFile, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
            21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44});
        assertThat(QueueManifest.read(manifestFile)).isNull();
        assertThat(QueueManifest.read(dir.resolve("absent"))).isNull();
    }
}
