package dev.wharf.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.store.file.MappedFile;
import dev.wharf.store.recovery.AbortFile;
import dev.wharf.store.recovery.CheckpointLayout;
import dev.wharf.store.recovery.QuarantineReport;
import dev.wharf.store.recovery.StoreCheckpoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damages a real commit log of many small messages (seeded random single-byte flips, or 4 KiB blocks of random
 * garbage) while the store is stopped, restarts it cleanly or after a simulated crash, and reads every queue
 * back. The promise checked: the only messages missing are those whose own record was hit, each of them is
 * listed in the quarantine report, and nothing delivered differs from what was sent (body, topic, queue, queue
 * offset).
 *
 * <p>Damage lies in {@code [0, end - 8 KiB)}: the very last records have no later record to prove they were on
 * disk before the crash, so damage there is (by design) a torn tail that recovery cuts.
 *
 * <p>The suite runs {@value #SUITE_SEEDS} seeds on {@value #DEFAULT_MESSAGES} messages. Long run (documented in
 * the README): {@code mvn -pl core-broker test -Dtest=StoreCorruptionTest -Dwharf.corruption.seeds=50}
 * (optionally {@code -Dwharf.corruption.messages=300000}).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class StoreCorruptionTest {

    static final int DEFAULT_MESSAGES = 100_000;
    static final int SUITE_SEEDS = 2;
    private static final String TOPIC = "Corrupt";
    private static final int QUEUES = 4;
    private static final int FILE_SIZE = 4 * 1024 * 1024;
    private static final int FLIPS = 30;
    private static final int BLOCKS = 3;
    private static final int BLOCK_SIZE = 4096;
    private static final int TAIL_SPARED = 8192;
    private static final Pattern BODY = Pattern.compile("m-(\\d+)-.*", Pattern.DOTALL);
    private static final Pattern OFFSET = Pattern.compile("\"offset\":(\\d+)");
    private static final Pattern LENGTH = Pattern.compile("\"length\":(\\d+)");

    @TempDir
    static Path base;

    private static Path pristine;
    private static int messages;
    private static long[] offsets;
    private static int[] sizes;
    private static long end;
    private static final List<String> figures = new ArrayList<>();

    enum Damage { FLIPS, BLOCKS }

    /** How the store comes back: clean; crash with the checkpoint of the stop; crash with a stale checkpoint. */
    enum Restart { CLEAN, UNCLEAN, UNCLEAN_STALE_CHECKPOINT }

    static Stream<Arguments> cases() {
        int seeds = Integer.getInteger("wharf.corruption.seeds", SUITE_SEEDS);
        List<Arguments> out = new ArrayList<>();
        for (int seed = 1; seed <= seeds; seed++) {
            for (Damage d : Damage.values()) {
                for (Restart r : Restart.values()) {
                    out.add(Arguments.of(seed, d, r));
                }
            }
        }
        return out.stream();
    }

    static MessageStoreConfig config(Path root) {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(root.toString());
        config.setMappedFileSizeCommitLog(FILE_SIZE);
        config.setMappedFileSizeConsumeQueue(30_000 * 20);
        config.setMaxMessageSize(16 * 1024);
        config.setMaxHashSlotNum(50_000);
        config.setMaxIndexNum(200_000);
        config.setFlushDiskType(FlushDiskType.ASYNC_FLUSH);
        config.setCleanResourceInterval(3_600_000);
        config.setStoreHost("10.1.2.3:10911");
        config.setCheckCRCOnRead(true);
        return config;
    }

    static String body(int i) {
        Random r = new Random(i);
        int filler = 10 + r.nextInt(50);
        StringBuilder b = new StringBuilder("m-").append(i).append('-');
        for (int k = 0; k < filler; k++) {
            b.append((char) ('a' + r.nextInt(26)));
        }
        return b.toString();
    }

    @BeforeAll
    static void fill() throws IOException {
        messages = Integer.getInteger("wharf.corruption.messages", DEFAULT_MESSAGES);
        pristine = base.resolve("pristine");
        offsets = new long[messages];
        sizes = new int[messages];
        DefaultMessageStore store = new DefaultMessageStore(config(pristine));
        store.start();
        try {
            for (int i = 0; i < messages; i++) {
                MessageToStore m = new MessageToStore();
                m.setTopic(TOPIC);
                m.setQueueId(i % QUEUES);
                m.setBody(body(i).getBytes(StandardCharsets.UTF_8));
                m.setBornTimestamp(System.currentTimeMillis());
                m.setBornHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 5555));
                m.putProperty(MessageProperties.KEYS, "k-" + i);
                PutMessageResult r = store.putMessage(m);
                assertThat(r.status()).isEqualTo(PutMessageStatus.PUT_OK);
                offsets[i] = r.appendResult().wroteOffset();
                sizes[i] = r.appendResult().wroteBytes();
            }
            assertThat(store.awaitDispatched(30_000)).isTrue();
            end = store.getMaxPhyOffset();
        } finally {
            store.shutdown();
        }
    }

    @AfterAll
    static void printFigures() {
        figures.forEach(System.out::println);
    }

    @ParameterizedTest(name = "seed {0}, {1}, {2} restart")
    @MethodSource("cases")
    void onlyHitMessagesGoMissingAndEachIsReported(int seed, Damage damage, Restart restart) throws IOException {
        Path root = base.resolve("case-" + seed + "-" + damage + "-" + restart);
        StoreTestSupport.copyTree(pristine, root);
        Random random = new Random(seed * 31L + damage.ordinal());
        BitSet hit = new BitSet(messages);
        int damagedBytes = damage == Damage.FLIPS ? flip(root, random, hit) : garbage(root, random, hit);
        prepareRestart(root, restart);

        DefaultMessageStore store = new DefaultMessageStore(config(root));
        long started = System.nanoTime();
        store.start();
        long startMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        try {
            BitSet delivered = readEverything(store);
            BitSet missing = new BitSet(messages);
            missing.set(0, messages);
            missing.andNot(delivered);

            BitSet missingNotHit = (BitSet) missing.clone();
            missingNotHit.andNot(hit);
            assertThat(missingNotHit.stream().limit(10).boxed().toList())
                    .as("messages missing although their record was not damaged").isEmpty();

            List<long[]> reported = reportedRanges(root);
            List<Integer> unreported = new ArrayList<>();
            missing.stream().forEach(i -> {
                if (reported.stream().noneMatch(r -> r[0] < offsets[i] + sizes[i] && offsets[i] < r[0] + r[1])) {
                    unreported.add(i);
                }
            });
            assertThat(unreported).as("missing messages not in the quarantine report").isEmpty();

            // by id: a damaged record is never served either
            hit.stream().forEach(i -> {
                MessageExt m = store.readMessageAt(offsets[i]);
                if (m != null) {
                    assertThat(new String(m.getBody(), StandardCharsets.UTF_8)).isEqualTo(body(i));
                }
            });
            figures.add(String.format("seed %d %-6s %-24s: %d damaged bytes hit %d records, %d messages lost"
                    + " (%.2f per damage), %d range(s) quarantined, start %d ms", seed, damage, restart,
                    damagedBytes, hit.cardinality(), missing.cardinality(),
                    missing.cardinality() / (double) (damage == Damage.FLIPS ? FLIPS : BLOCKS),
                    store.stats().quarantinedRangeCount(), startMillis));
            assertThat(store.putMessage(message(messages)).isOk()).isTrue();
        } finally {
            store.shutdown();
        }
    }

    private static MessageToStore message(int i) {
        MessageToStore m = new MessageToStore();
        m.setTopic(TOPIC);
        m.setQueueId(0);
        m.setBody(body(i).getBytes(StandardCharsets.UTF_8));
        m.setBornHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 5555));
        return m;
    }

    /** Flips single bytes; returns how many. */
    private static int flip(Path root, Random random, BitSet hit) throws IOException {
        for (int k = 0; k < FLIPS; k++) {
            long at = (long) (random.nextDouble() * (end - TAIL_SPARED));
            int mask = 1 + random.nextInt(255);
            byte[] one = read(root, at, 1);
            one[0] ^= (byte) mask;
            write(root, at, one);
            markHit(at, 1, hit);
        }
        return FLIPS;
    }

    /** Overwrites 4 KiB blocks with random bytes (within one file); returns the bytes damaged. */
    private static int garbage(Path root, Random random, BitSet hit) throws IOException {
        for (int k = 0; k < BLOCKS; k++) {
            long at = (long) (random.nextDouble() * (end - TAIL_SPARED - BLOCK_SIZE));
            long fileEnd = at - at % FILE_SIZE + FILE_SIZE;
            int length = (int) Math.min(BLOCK_SIZE, fileEnd - at);
            byte[] block = new byte[length];
            random.nextBytes(block);
            write(root, at, block);
            markHit(at, length, hit);
        }
        return BLOCKS * BLOCK_SIZE;
    }

    private static void markHit(long at, int length, BitSet hit) {
        int i = Arrays.binarySearch(offsets, at);
        int first = i >= 0 ? i : -i - 2;
        for (int k = Math.max(first, 0); k < messages && offsets[k] < at + length; k++) {
            if (offsets[k] + sizes[k] > at) {
                hit.set(k);
            }
        }
    }

    private static void prepareRestart(Path root, Restart restart) throws IOException {
        if (restart == Restart.CLEAN) {
            return;
        }
        new AbortFile(root).create();
        try (StoreCheckpoint cp = StoreCheckpoint.open(root)) {
            cp.setCleanShutdownOffset(CheckpointLayout.RUNNING);
            if (restart == Restart.UNCLEAN_STALE_CHECKPOINT) {
                // the safe offset was last advanced long ago: recovery validates the whole log and must tell
                // media damage from a torn tail by the checkpoint's last flushed store time
                cp.setSafeOffset(0);
            }
            cp.flush();
        }
    }

    /** Reads every queue to its end; checks each message; returns the indexes delivered. */
    private static BitSet readEverything(MessageStore store) {
        BitSet delivered = new BitSet(messages);
        for (int q = 0; q < QUEUES; q++) {
            long offset = 0;
            while (offset < store.getMaxOffsetInQueue(TOPIC, q)) {
                GetMessageResult r = store.getMessage(TOPIC, q, offset, 32, 1 << 20, null);
                assertThat(r.nextBeginOffset()).as("reads move on").isGreaterThan(offset);
                offset = r.nextBeginOffset();
                try {
                    for (var buffer : r.buffers()) {
                        MessageExt m = MessageDecoder.decode(buffer.byteBuffer().duplicate(), true, false);
                        assertThat(m).as("a served record decodes").isNotNull();
                        String body = new String(m.getBody(), StandardCharsets.UTF_8);
                        Matcher matcher = BODY.matcher(body);
                        assertThat(matcher.matches()).as("served body %s", body).isTrue();
                        int i = Integer.parseInt(matcher.group(1));
                        assertThat(i).isBetween(0, messages - 1);
                        assertThat(body).as("body of message %d", i).isEqualTo(body(i));
                        assertThat(m.getTopic()).isEqualTo(TOPIC);
                        assertThat(m.getQueueId()).isEqualTo(i % QUEUES).isEqualTo(q);
                        assertThat(m.getQueueOffset()).isEqualTo(i / QUEUES);
                        assertThat(delivered.get(i)).as("message %d delivered twice", i).isFalse();
                        delivered.set(i);
                    }
                } finally {
                    r.release();
                }
            }
        }
        return delivered;
    }

    private static List<long[]> reportedRanges(Path root) throws IOException {
        Path file = root.resolve(QuarantineReport.FILE_NAME);
        List<long[]> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return out;
        }
        for (String line : Files.readAllLines(file)) {
            Matcher o = OFFSET.matcher(line);
            Matcher l = LENGTH.matcher(line);
            if (o.find() && l.find()) {
                out.add(new long[] {Long.parseLong(o.group(1)), Long.parseLong(l.group(1))});
            }
        }
        return out;
    }

    private static byte[] read(Path root, long offset, int length) throws IOException {
        try (FileChannel ch = FileChannel.open(fileOf(root, offset), StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(length);
            ch.read(b, offset % FILE_SIZE);
            return b.array();
        }
    }

    private static void write(Path root, long offset, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(fileOf(root, offset), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), offset % FILE_SIZE);
        }
    }

    private static Path fileOf(Path root, long offset) {
        return root.resolve("commitlog").resolve(MappedFile.fileName(offset - offset % FILE_SIZE));
    }
}
