package dev.wharf.store.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.store.dispatch.DispatchRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexServiceTest {

    /** Ten slots force slot sharing; 50 unit positions (49 entries) force files to roll over. */
    private static final int SLOTS = 10;
    private static final int UNITS = 50;
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path dir;

    private final List<IndexService> opened = new ArrayList<>();
    /** The oracle: every message handed to the index, by commit-log offset. */
    private final Map<Long, Msg> messages = new ConcurrentHashMap<>();

    record Msg(String topic, long phy, long storeTimestamp, String keys, String uniq) {
        boolean hasKey(String topicName, String key) {
            return topic.equals(topicName)
                    && (key.equals(uniq) || (keys != null && Arrays.asList(keys.split(" ")).contains(key)));
        }
    }

    @AfterEach
    void closeAll() {
        opened.forEach(IndexService::shutdown);
    }

    private IndexService open(Path indexDir, boolean lastExitOK) throws IOException {
        IndexService service = new IndexService(indexDir, SLOTS, UNITS);
        service.load(lastExitOK);
        opened.add(service);
        return service;
    }

    private IndexService open() throws IOException {
        return open(dir.resolve("index"), true);
    }

    private IndexService reopen(IndexService old, boolean lastExitOK) throws IOException {
        old.shutdown();
        opened.remove(old);
        return open(dir.resolve("index"), lastExitOK);
    }

    private Msg dispatch(IndexService service, String topic, long phy, long storeTimestamp, String keys, String uniq) {
        Msg msg = new Msg(topic, phy, storeTimestamp, keys, uniq);
        messages.put(phy, msg);
        service.buildIndex(request(msg, 0));
        return msg;
    }

    private static DispatchRequest request(Msg msg, int sysFlag) {
        return new DispatchRequest(msg.topic(), 0, msg.phy(), 100, 0L, msg.storeTimestamp(), 0L, msg.keys(),
                msg.uniq(), sysFlag, 0L, Map.of());
    }

    /** The caller's re-check: read each message and keep those whose topic, key and time really match. */
    private List<Long> recheck(List<Long> raw, String topic, String key, long begin, long end) {
        return raw.stream().filter(phy -> {
            Msg m = messages.get(phy);
            return m != null && m.hasKey(topic, key) && m.storeTimestamp() >= begin && m.storeTimestamp() <= end;
        }).toList();
    }

    /** What a perfect index answers: matching messages, newest first, at most maxNum. */
    private List<Long> oracle(String topic, String key, int maxNum, long begin, long end) {
        return messages.values().stream()
                .filter(m -> m.hasKey(topic, key) && m.storeTimestamp() >= begin && m.storeTimestamp() <= end)
                .map(Msg::phy).sorted(Comparator.reverseOrder()).limit(maxNum).toList();
    }

    private List<Long> query(IndexService service, String topic, String key) {
        List<Long> raw = service.queryOffset(topic, key, 10_000, 0, Long.MAX_VALUE).phyOffsets();
        assertThat(raw).as("newest first").isSortedAccordingTo(Comparator.reverseOrder());
        return recheck(raw, topic, key, 0, Long.MAX_VALUE);
    }

    private void assertMatchesOracle(IndexService service, List<String> topics, List<String> keys) {
        for (String topic : topics) {
            for (String key : keys) {
                assertThat(query(service, topic, key)).as("%s#%s", topic, key)
                        .isEqualTo(oracle(topic, key, 10_000, 0, Long.MAX_VALUE));
            }
        }
    }

    /** Messages i = 0..n-1 at offset i * 100, one second apart, key "k{i % 7}" plus a unique id. */
    private void dispatchMany(IndexService service, int from, int to) {
        for (int i = from; i < to; i++) {
            dispatch(service, "T", i * 100L, T0 + i * 1000L, "k" + (i % 7), "id-" + i);
        }
    }

    private static List<String> keys7() {
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < 7; k++) {
            keys.add("k" + k);
        }
        return keys;
    }

    @Test
    void queryReturnsNewestFirstAndStopsAtMaxNum() throws IOException {
        IndexService service = open();
        for (int i = 0; i < 30; i++) {
            dispatch(service, "T", i * 100L, T0 + i, i % 3 == 0 ? "order-7 other" : "order-8", null);
        }
        QueryOffsetResult five = service.queryOffset("T", "order-7", 5, 0, Long.MAX_VALUE);
        assertThat(five.phyOffsets()).containsExactly(2_700L, 2_400L, 2_100L, 1_800L, 1_500L);
        assertThat(five.indexLastUpdatePhyoffset()).isEqualTo(2_900);
        assertThat(five.indexLastUpdateTimestamp()).isEqualTo(T0 + 29);
        assertThat(service.queryOffset("T", "order-7", 100, 0, Long.MAX_VALUE).phyOffsets()).hasSize(10);
        assertThat(recheck(service.queryOffset("T", "other", 100, 0, Long.MAX_VALUE).phyOffsets(), "T", "other", 0,
                Long.MAX_VALUE)).hasSize(10);
        assertThat(service.queryOffset("T", "missing", 100, 0, Long.MAX_VALUE).phyOffsets()).isEmpty();
        assertThat(service.lastIndexedPhyOffset()).isEqualTo(2_900);
    }

    @Test
    void sameKeyInTwoTopicsDoesNotMix() throws IOException {
        IndexService service = open();
        dispatch(service, "A", 0, T0, "shared", null);
        dispatch(service, "B", 100, T0, "shared", null);
        dispatch(service, "A", 200, T0, "shared", null);
        assertThat(service.queryOffset("A", "shared", 10, 0, Long.MAX_VALUE).phyOffsets()).containsExactly(200L, 0L);
        assertThat(service.queryOffset("B", "shared", 10, 0, Long.MAX_VALUE).phyOffsets()).containsExactly(100L);
    }

    @Test
    void uniqueIdAndRepeatedKeysAreIndexedOncePerMessage() throws IOException {
        IndexService service = open();
        dispatch(service, "T", 0, T0, "a  a b", "a");
        dispatch(service, "T", 100, T0, null, "u-1");
        dispatch(service, "T", 200, T0, "", "");
        assertThat(service.queryOffset("T", "a", 10, 0, Long.MAX_VALUE).phyOffsets()).containsExactly(0L);
        assertThat(service.queryOffset("T", "b", 10, 0, Long.MAX_VALUE).phyOffsets()).containsExactly(0L);
        assertThat(service.queryOffset("T", "u-1", 10, 0, Long.MAX_VALUE).phyOffsets()).containsExactly(100L);
        assertThat(service.files().get(0).indexCount()).isEqualTo(3);
        assertThat(service.lastIndexedPhyOffset()).isEqualTo(200);
    }

    @Test
    void timeWindowFiltersAtSecondPrecision() throws IOException {
        IndexService service = open();
        dispatchMany(service, 0, 40);
        // messages 14 to 27 were stored within [T0 + 14 s, T0 + 27 s]
        long begin = T0 + 14_000;
        long end = T0 + 27_000;
        List<Long> raw = service.queryOffset("T", "k0", 100, begin, end).phyOffsets();
        assertThat(raw).containsExactly(2_100L, 1_400L);
        assertThat(recheck(raw, "T", "k0", begin, end)).isEqualTo(oracle("T", "k0", 100, begin, end));

        for (int k = 0; k < 7; k++) {
            for (long start = T0 - 5_000; start < T0 + 45_000; start += 3_700) {
                long from = start;
                long to = from + 9_000;
                List<Long> got = service.queryOffset("T", "k" + k, 100, from, to).phyOffsets();
                // second precision: nothing in the window is missed, nothing more than a second outside comes back
                assertThat(recheck(got, "T", "k" + k, from, to)).isEqualTo(oracle("T", "k" + k, 100, from, to));
                assertThat(got).allSatisfy(phy -> assertThat(messages.get(phy).storeTimestamp())
                        .isBetween(from - 1_000, to + 1_000));
            }
        }
        assertThat(service.queryOffset("T", "k0", 100, T0 + 100_000, T0 + 200_000).phyOffsets()).isEmpty();
        assertThat(service.queryOffset("T", "k0", 100, 0, T0 - 2_000).phyOffsets()).isEmpty();
    }

    @Test
    void fullHashCollisionsAreSeparatedByTheCallersRecheck() throws IOException {
        // "Aa" and "BB" have the same String hash code, so T#Aa and T#BB share the key hash, not just the slot
        assertThat(IndexKey.hash("T", "Aa")).isEqualTo(IndexKey.hash("T", "BB"));
        IndexService service = open();
        for (int i = 0; i < 20; i++) {
            dispatch(service, "T", i * 100L, T0, i % 2 == 0 ? "Aa" : "BB", null);
        }
        List<Long> raw = service.queryOffset("T", "Aa", 100, 0, Long.MAX_VALUE).phyOffsets();
        assertThat(raw).hasSize(20);
        assertThat(recheck(raw, "T", "Aa", 0, Long.MAX_VALUE)).isEqualTo(oracle("T", "Aa", 100, 0, Long.MAX_VALUE))
                .hasSize(10);
    }

    @Test
    void manyKeysInTenSlotsAcrossRolledFilesMatchTheOracle() throws IOException {
        IndexService service = open();
        Random random = new Random(42);
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < 60; k++) {
            keys.add("key-" + k);
        }
        for (int i = 0; i < 500; i++) {
            String topic = random.nextBoolean() ? "T1" : "T2";
            String k1 = keys.get(random.nextInt(keys.size()));
            String k2 = keys.get(random.nextInt(keys.size()));
            dispatch(service, topic, i * 100L, T0 + i * 10L, k1 + " " + k2, "uid-" + i);
        }
        // ~1,480 entries at 49 a file
        assertThat(service.fileCount()).isGreaterThan(25);
        assertThat(service.files()).extracting(IndexFile::slotCount).containsOnly(SLOTS);
        assertMatchesOracle(service, List.of("T1", "T2"), keys);
        assertThat(query(service, "T1", "uid-17")).isEqualTo(oracle("T1", "uid-17", 10, 0, Long.MAX_VALUE));

        // maxNum cuts across file boundaries, newest first
        for (String key : keys.subList(0, 10)) {
            List<Long> all = oracle("T1", key, 10_000, 0, Long.MAX_VALUE);
            QueryOffsetResult top = service.queryOffset("T1", key, 3, 0, Long.MAX_VALUE);
            assertThat(top.phyOffsets()).hasSizeLessThanOrEqualTo(3);
            assertThat(recheck(top.phyOffsets(), "T1", key, 0, Long.MAX_VALUE))
                    .isEqualTo(all.subList(0, recheck(top.phyOffsets(), "T1", key, 0, Long.MAX_VALUE).size()));
        }
        assertThat(service.queryOffset("T1", "key-1", 1, 0, Long.MAX_VALUE).indexLastUpdatePhyoffset())
                .isEqualTo(49_900);
    }

    @Test
    void filesRollOverWhenFullAndNamesKeepCreationOrder() throws IOException {
        IndexService service = open();
        dispatchMany(service, 0, 100); // 200 entries: 49 + 49 + 49 + 49 + 4
        List<IndexFile> files = service.files();
        assertThat(files).hasSize(5);
        assertThat(files).extracting(IndexFile::indexCount).containsExactly(49, 49, 49, 49, 4);
        assertThat(files.get(0).capacity()).isEqualTo(UNITS - 1);
        List<String> names = files.stream().map(IndexFile::fileName).toList();
        assertThat(names).isSorted().doesNotHaveDuplicates();
        assertThat(names).allSatisfy(n -> assertThat(IndexService.parseFileName(n)).isNotEqualTo(Long.MIN_VALUE));
        long fileSize = Files.size(files.get(0).path());
        assertThat(fileSize).isEqualTo(40 + SLOTS * 4 + UNITS * 20);
        assertMatchesOracle(service, List.of("T"), keys7());
    }

    @Test
    void reopenAfterACleanStopAnswersTheSameAndKeepsFilling() throws IOException {
        IndexService service = open();
        dispatchMany(service, 0, 60);
        service = reopen(service, true);
        assertThat(service.lastIndexedPhyOffset()).isEqualTo(5_900);
        assertThat(service.files()).extracting(IndexFile::indexCount).containsExactly(49, 49, 22);
        assertMatchesOracle(service, List.of("T"), keys7());

        dispatchMany(service, 60, 90);
        assertThat(service.files()).extracting(IndexFile::indexCount).containsExactly(49, 49, 49, 33);
        assertMatchesOracle(service, List.of("T"), keys7());
        service = reopen(service, true);
        assertMatchesOracle(service, List.of("T"), keys7());
    }

    @Test
    void reDispatchedMessagesAreNotIndexedTwice() throws IOException {
        IndexService service = open();
        dispatchMany(service, 0, 30);
        int entries = service.files().stream().mapToInt(IndexFile::indexCount).sum();
        for (int i = 0; i < 30; i++) {
            service.buildIndex(request(messages.get(i * 100L), 0));
        }
        service = reopen(service, false);
        for (int i = 10; i < 30; i++) {
            service.buildIndex(request(messages.get(i * 100L), 0));
        }
        assertThat(service.files().stream().mapToInt(IndexFile::indexCount).sum()).isEqualTo(entries);
        assertMatchesOracle(service, List.of("T"), keys7());
    }

    @Test
    void rollbackRecordsAndMessagesWithoutKeysAreNotIndexed() throws IOException {
        IndexService service = open();
        Msg rollback = new Msg("T", 0, T0, "k", null);
        service.buildIndex(request(rollback, MessageSysFlag.TRANSACTION_ROLLBACK_TYPE));
        service.buildIndex(request(new Msg("T", 100, T0, null, null), 0));
        assertThat(service.queryOffset("T", "k", 10, 0, Long.MAX_VALUE).phyOffsets()).isEmpty();
        assertThat(service.lastIndexedPhyOffset()).isEqualTo(100);
        assertThat(service.fileCount()).isZero();
        Msg prepared = new Msg("T", 200, T0, "k", null);
        messages.put(200L, prepared);
        service.buildIndex(request(prepared, MessageSysFlag.TRANSACTION_PREPARED_TYPE));
        assertThat(service.queryOffset("T", "k", 10, 0, Long.MAX_VALUE).phyOffsets()).containsExactly(200L);
    }

    @Test
    void truncateRemovesEntriesAtOrPastTheEndAndReDispatchIndexesTheNewRecords() throws IOException {
        IndexService service = open();
        dispatchMany(service, 0, 120); // 240 entries over 5 files
        long validEnd = 70 * 100L;
        service.truncate(validEnd);
        for (long phy = validEnd; phy < 120 * 100L; phy += 100) {
            messages.remove(phy);
        }
        assertThat(service.lastIndexedPhyOffset()).isEqualTo(6_900);
        // 140 entries remain: 49 + 49 + 42
        assertThat(service.files()).extracting(IndexFile::indexCount).containsExactly(49, 49, 42);
        for (int k = 0; k < 7; k++) {
            List<Long> raw = service.queryOffset("T", "k" + k, 1_000, 0, Long.MAX_VALUE).phyOffsets();
            assertThat(raw).allSatisfy(phy -> assertThat(phy).isLessThan(validEnd));
        }
        assertMatchesOracle(service, List.of("T"), keys7());

        // after the unclean stop the commit log holds other records from 7,000 on; the store re-dispatches them
        for (int i = 70; i < 100; i++) {
            dispatch(service, "T", i * 100L, T0 + 500_000 + i, "new-" + (i % 3), null);
        }
        for (int k = 0; k < 7; k++) {
            List<Long> raw = service.queryOffset("T", "k" + k, 1_000, 0, Long.MAX_VALUE).phyOffsets();
            assertThat(raw).as("no stale entry points at a re-used offset")
                    .allSatisfy(phy -> assertThat(phy).isLessThan(validEnd));
        }
        assertMatchesOracle(service, List.of("T"), keys7());
        assertMatchesOracle(service, List.of("T"), List.of("new-0", "new-1", "new-2"));
        assertThat(query(service, "T", "id-80")).isEmpty();
        assertThat(service.queryOffset("T", "id-80", 10, 0, Long.MAX_VALUE).phyOffsets()).isEmpty();

        service = reopen(service, true);
        assertMatchesOracle(service, List.of("T"), keys7());
        assertMatchesOracle(service, List.of("T"), List.of("new-0", "new-1", "new-2"));
    }

    @Test
    void truncateRestoresExactlyTheFileThatHeldOnlyTheValidEntries() throws IOException {
        IndexService full = open(dir.resolve("full"), true);
        IndexService reference = open(dir.resolve("reference"), true);
        for (int i = 0; i < 40; i++) {
            Msg msg = new Msg("T", i * 100L, T0 + i * 1000L, "k" + (i % 7), "id-" + i);
            full.buildIndex(request(msg, 0));
            if (i < 13) {
                reference.buildIndex(request(msg, 0));
            }
        }
        full.truncate(1_300);
        full.flush();
        reference.flush();
        assertThat(full.files()).hasSize(1);
        byte[] truncated = Files.readAllBytes(full.files().get(0).path());
        byte[] expected = Files.readAllBytes(reference.files().get(0).path());
        // slots and units are byte for byte what they would be had the dirty entries never been written
        assertThat(Arrays.copyOfRange(truncated, IndexHeader.SIZE, truncated.length))
                .isEqualTo(Arrays.copyOfRange(expected, IndexHeader.SIZE, expected.length));
        ByteBuffer header = ByteBuffer.wrap(truncated);
        assertThat(header.getInt(IndexHeader.INDEX_COUNT)).isEqualTo(26);
        assertThat(header.getLong(IndexHeader.END_PHY_OFFSET)).isEqualTo(1_200);
        assertThat(header.getLong(IndexHeader.END_TIMESTAMP)).isEqualTo(T0 + 12_000);
    }

    @Test
    void truncateBelowEverythingEmptiesTheIndex() throws IOException {
        IndexService service = open();
        dispatchMany(service, 0, 60);
        service.truncate(0);
        messages.clear();
        assertThat(service.lastIndexedPhyOffset()).isEqualTo(-1);
        assertThat(service.files()).extracting(IndexFile::indexCount).containsExactly(0);
        assertThat(service.queryOffset("T", "k1", 10, 0, Long.MAX_VALUE).phyOffsets()).isEmpty();
        dispatchMany(service, 0, 5);
        assertMatchesOracle(service, List.of("T"), keys7());
        service.truncate(1_000_000);
        assertMatchesOracle(service, List.of("T"), keys7());
    }

    /** Points the slot of the newest unit back at its predecessor, as a crash between the two writes leaves it. */
    private static void unlinkNewestUnit(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer header = ByteBuffer.allocate(IndexHeader.SIZE);
            ch.read(header, 0);
            int count = header.getInt(IndexHeader.INDEX_COUNT);
            int slots = header.getInt(IndexHeader.HASH_SLOT_COUNT);
            ByteBuffer unit = ByteBuffer.allocate(IndexUnit.SIZE);
            ch.read(unit, IndexUnit.position(slots, count));
            int slot = IndexSlot.slotOf(unit.getInt(IndexUnit.KEY_HASH), slots);
            ByteBuffer prev = ByteBuffer.allocate(4).putInt(0, unit.getInt(IndexUnit.PREV_INDEX));
            ch.write(prev, IndexSlot.position(slot));
        }
    }

    @Test
    void anUncleanLoadRelinksAPutThatWasCutShort() throws IOException {
        IndexService service = open();
        dispatchMany(service, 0, 20);
        Path newest = service.files().get(0).path();
        service.shutdown();
        opened.remove(service);
        unlinkNewestUnit(newest);

        service = open(dir.resolve("index"), false);
        assertThat(query(service, "T", "id-19")).containsExactly(1_900L);
        assertMatchesOracle(service, List.of("T"), keys7());
    }

    @Test
    void truncateRebuildsTheSlotsWhenTheyDoNotMatchTheUnits() throws IOException {
        IndexService service = open();
        dispatchMany(service, 0, 20);
        Path newest = service.files().get(0).path();
        service.shutdown();
        opened.remove(service);
        unlinkNewestUnit(newest);

        service = open(dir.resolve("index"), true);
        service.truncate(1_500);
        for (long phy = 1_500; phy < 2_000; phy += 100) {
            messages.remove(phy);
        }
        assertMatchesOracle(service, List.of("T"), keys7());
        assertThat(query(service, "T", "id-14")).containsExactly(1_400L);
        assertThat(service.lastIndexedPhyOffset()).isEqualTo(1_400);
    }

    @Test
    void expiredFilesAreDeletedButNeverTheNewest() throws IOException {
        IndexService service = open();
        dispatchMany(service, 0, 110); // 220 entries in files of 49
        List<IndexFile> files = service.files();
        assertThat(files).extracting(IndexFile::endPhyOffset).containsExactly(2_400L, 4_800L, 7_300L, 9_700L, 10_900L);

        service.deleteExpiredFile(4_800);
        assertThat(service.files()).extracting(IndexFile::endPhyOffset).containsExactly(4_800L, 7_300L, 9_700L,
                10_900L);
        assertThat(files.get(0).path()).doesNotExist();
        assertThat(query(service, "T", "id-3")).isEmpty();
        assertThat(query(service, "T", "id-30")).containsExactly(3_000L);

        service.deleteExpiredFile(Long.MAX_VALUE);
        assertThat(service.files()).extracting(IndexFile::endPhyOffset).containsExactly(10_900L);
        assertThat(query(service, "T", "id-109")).containsExactly(10_900L);

        service = reopen(service, true);
        assertThat(service.fileCount()).isEqualTo(1);
        assertThat(service.lastIndexedPhyOffset()).isEqualTo(10_900);
    }

    @Test
    void concurrentQueriesSeeOnlyCompleteEntriesWhileTheWriterAppends() throws Exception {
        IndexService service = open();
        int total = 3_000;
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            int seed = r;
            Thread reader = new Thread(() -> {
                Random random = new Random(seed);
                try {
                    while (!done.get()) {
                        String key = "k" + random.nextInt(7);
                        List<Long> raw = service.queryOffset("T", key, 20, 0, Long.MAX_VALUE).phyOffsets();
                        if (raw.size() > 20) {
                            throw new AssertionError("more than maxNum: " + raw.size());
                        }
                        long previous = Long.MAX_VALUE;
                        for (long phy : raw) {
                            Msg m = messages.get(phy);
                            if (m == null || !m.hasKey("T", key) || phy >= previous) {
                                throw new AssertionError(key + " answered " + raw);
                            }
                            previous = phy;
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "index-reader-" + r);
            reader.start();
            readers.add(reader);
        }
        try {
            // a key's entries only ever point at its own messages, so a torn read would show as a foreign offset
            dispatchMany(service, 0, total);
        } finally {
            done.set(true);
            for (Thread reader : readers) {
                reader.join(30_000);
            }
        }
        assertThat(readers).noneMatch(Thread::isAlive);
        assertThat(failure.get()).isNull();
        assertMatchesOracle(service, List.of("T"), keys7());
    }

    @Test
    void loadSkipsForeignFilesAndRejectsDamagedOnes() throws IOException {
        IndexService service = open();
        dispatchMany(service, 0, 3);
        service.shutdown();
        opened.remove(service);
        Path indexDir = dir.resolve("index");
        Files.writeString(indexDir.resolve("notes.txt"), "x");
        Files.writeString(indexDir.resolve("20231301000000000"), "month 13");
        service = open(indexDir, true);
        assertThat(service.fileCount()).isEqualTo(1);
        assertMatchesOracle(service, List.of("T"), keys7());
        service.shutdown();
        opened.remove(service);

        Files.write(indexDir.resolve("20991231235959999"), new byte[100]);
        IndexService damaged = new IndexService(indexDir, SLOTS, UNITS);
        assertThatThrownBy(() -> damaged.load(true)).isInstanceOf(IOException.class)
                .hasMessageContaining("20991231235959999");
    }

    @Test
    void aFileWrittenWithAnotherSlotCountStaysReadable() throws IOException {
        IndexService small = open();
        dispatchMany(small, 0, 10);
        small.shutdown();
        opened.remove(small);
        IndexService bigger = new IndexService(dir.resolve("index"), 37, 80);
        opened.add(bigger);
        bigger.load(true);
        assertMatchesOracle(bigger, List.of("T"), keys7());
        dispatchMany(bigger, 10, 40);
        assertThat(bigger.files()).extracting(IndexFile::slotCount).containsExactly(SLOTS, 37);
        assertMatchesOracle(bigger, List.of("T"), keys7());
    }

    @Test
    void badArgumentsAreRejectedWithAReason() throws IOException {
        assertThatThrownBy(() -> new IndexService(dir, 0, 10)).hasMessageContaining("maxHashSlotNum");
        assertThatThrownBy(() -> new IndexService(dir, 10, 1)).hasMessageContaining("maxIndexNum");
        assertThatThrownBy(() -> new IndexService(dir, 500_000_000, 100_000_000)).hasMessageContaining("bytes");
        IndexService service = open();
        assertThatThrownBy(() -> service.queryOffset("", "k", 1, 0, 1)).hasMessageContaining("topic");
        assertThatThrownBy(() -> service.queryOffset("T", null, 1, 0, 1)).hasMessageContaining("key");
        assertThatThrownBy(() -> service.queryOffset("T", "k", 0, 0, 1)).hasMessageContaining("positive");
        assertThatThrownBy(() -> service.queryOffset("T", "k", 1, 5, 1)).hasMessageContaining("after its end");
    }

    @Test
    void keyHashIsTheHashOfTopicSharpKeyWithoutBuildingIt() {
        for (String key : List.of("a", "order-17", "Aa", "中文", "x y")) {
            int expected = Math.abs(("topic#" + key).hashCode());
            assertThat(IndexKey.hash("topic", key)).isEqualTo(expected);
            assertThat(IndexKey.hash("topic", "__" + key + "__", 2, key.length() + 2)).isEqualTo(expected);
        }
        assertThat(IndexService.fileName(IndexService.parseFileName("20240229235959123"))).isEqualTo(
                "20240229235959123");
        assertThat(IndexService.parseFileName("2024022923595912")).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void flushWritesTheFilesSoAnotherReaderSeesThem() throws IOException {
        IndexService service = open();
        dispatchMany(service, 0, 10);
        service.flush();
        try (Stream<Path> files = Files.list(dir.resolve("index"))) {
            Path file = files.findFirst().orElseThrow();
            ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(file));
            assertThat(header.getInt(IndexHeader.INDEX_COUNT)).isEqualTo(20);
            assertThat(header.getLong(IndexHeader.BEGIN_PHY_OFFSET)).isZero();
            assertThat(header.getLong(IndexHeader.END_PHY_OFFSET)).isEqualTo(900);
            assertThat(header.getLong(IndexHeader.BEGIN_TIMESTAMP)).isEqualTo(T0);
            assertThat(header.getInt(IndexHeader.HASH_SLOT_COUNT)).isEqualTo(SLOTS);
        }
    }
}
