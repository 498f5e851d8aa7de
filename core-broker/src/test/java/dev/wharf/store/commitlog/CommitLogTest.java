package dev.wharf.store.commitlog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CommitLogTest {

    @TempDir
    Path dir;

    private CommitLog commitLog;

    @AfterEach
    void tearDown() {
        if (commitLog != null) {
            commitLog.shutdown();
        }
    }

    private CommitLog open(int fileSize, int maxMessageSize) {
        commitLog = new CommitLog(dir.resolve("commitlog"), fileSize, maxMessageSize);
        return commitLog;
    }

    static MessageExt message(String topic, int queueId, String body) {
        MessageExt msg = new MessageExt();
        msg.setTopic(topic);
        msg.setQueueId(queueId);
        msg.setBody(body.getBytes(StandardCharsets.UTF_8));
        msg.setBornTimestamp(1_700_000_000_000L);
        msg.setBornHost(HostAddress.pack(new byte[] {10, 0, 0, 1}, 40000));
        msg.setStoreHost(HostAddress.pack(new byte[] {10, 0, 0, 2}, 10911));
        return msg;
    }

    private static String props(MessageExt msg) {
        return MessageDecoder.encodeProperties(msg.getProperties());
    }

    private MessageExt read(long offset) {
        SelectMappedBufferResult record = commitLog.selectOneMessage(offset);
        assertThat(record).as("record at %d", offset).isNotNull();
        try {
            return MessageDecoder.decode(record.byteBuffer(), true, false);
        } finally {
            record.release();
        }
    }

    @Test
    void everyFieldRoundTrips() {
        open(64 * 1024, 4096);
        MessageExt msg = message("Orders", 3, "hello é ✓");
        msg.setFlag(0x5A);
        msg.setSysFlag(MessageSysFlag.withTransactionType(MessageSysFlag.MULTI_TAGS, MessageSysFlag.TRANSACTION_COMMIT_TYPE));
        msg.setReconsumeTimes(7);
        msg.setPreparedTransactionOffset(123_456L);
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("TAGS", "red");
        properties.put("KEYS", "k1 k2");
        properties.put("unicode", "ü€\uD83D\uDE00");
        msg.setProperties(properties);

        long before = System.currentTimeMillis();
        AppendResult result = commitLog.putMessage(msg, props(msg));
        assertThat(result.isOk()).isTrue();
        assertThat(result.wroteOffset()).isZero();
        assertThat(result.logicsOffset()).isZero();
        assertThat(result.msgNum()).isEqualTo(1);
        assertThat(msg.getCommitLogOffset()).isZero();
        assertThat(msg.getStoreTimestamp()).isBetween(before, System.currentTimeMillis());

        MessageExt read = read(0);
        assertThat(read.getStoreSize()).isEqualTo(result.wroteBytes()).isEqualTo(msg.getStoreSize());
        assertThat(read.getBodyCRC()).isEqualTo(MessageDecoder.crc32(msg.getBody()));
        assertThat(read.getQueueId()).isEqualTo(3);
        assertThat(read.getFlag()).isEqualTo(0x5A);
        assertThat(read.getQueueOffset()).isZero();
        assertThat(read.getCommitLogOffset()).isZero();
        assertThat(read.getSysFlag()).isEqualTo(msg.getSysFlag());
        assertThat(read.getBornTimestamp()).isEqualTo(1_700_000_000_000L);
        assertThat(HostAddress.toString(read.getBornHost())).isEqualTo("10.0.0.1:40000");
        assertThat(read.getStoreTimestamp()).isEqualTo(msg.getStoreTimestamp());
        assertThat(HostAddress.toString(read.getStoreHost())).isEqualTo("10.0.0.2:10911");
        assertThat(read.getReconsumeTimes()).isEqualTo(7);
        assertThat(read.getPreparedTransactionOffset()).isEqualTo(123_456L);
        assertThat(new String(read.getBody(), StandardCharsets.UTF_8)).isEqualTo("hello é ✓");
        assertThat(read.getTopic()).isEqualTo("Orders");
        assertThat(read.getProperties()).isEqualTo(properties);
        assertThat(read.getOffsetMsgId()).isEqualTo(msg.getOffsetMsgId());
    }

    @Test
    void emptyBodyAndNoPropertiesAreAllowed() {
        open(64 * 1024, 4096);
        MessageExt msg = message("T", 0, "");
        msg.setBody(null);
        assertThat(commitLog.putMessage(msg, "").isOk()).isTrue();
        MessageExt read = read(0);
        assertThat(read.getBody()).isEmpty();
        assertThat(read.getProperties()).isEmpty();
        assertThat(read.getStoreSize()).isEqualTo(MessageRecord.totalSize(0, 1, 0));
    }

    @ParameterizedTest(name = "forced per record: {0}")
    @ValueSource(booleans = {false, true})
    void recordsCrossFileBoundariesBehindBlankRecords(boolean forcedPerRecord) {
        int fileSize = 1024;
        open(fileSize, 1000).mappedFileQueue().setForcedPerRecord(forcedPerRecord);
        List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            MessageExt msg = message("Cross", i % 2, "x".repeat(i % 97));
            AppendResult result = commitLog.putMessage(msg, props(msg));
            assertThat(result.isOk()).isTrue();
            offsets.add(result.wroteOffset());
            assertThat(result.wroteOffset() / fileSize).as("record %d fits one file", i)
                    .isEqualTo((result.nextOffset() - 1) / fileSize);
        }
        assertThat(commitLog.mappedFileQueue().fileCount()).isGreaterThan(5);

        // walk the log like the dispatcher: records back to back, a blank record ends each full file
        long offset = 0;
        int index = 0;
        int blanks = 0;
        while (offset < commitLog.getMaxOffset()) {
            SelectMappedBufferResult data = commitLog.getData(offset);
            int pos = 0;
            try {
                ByteBuffer b = data.byteBuffer();
                while (pos < data.size()) {
                    int size = RecordValidator.check(b, pos, data.size(), offset + pos, true);
                    if (size == RecordValidator.BLANK) {
                        blanks++;
                        assertThat(b.getInt(pos + 4)).isEqualTo(MessageRecord.BLANK_MAGIC_CODE);
                        break;
                    }
                    assertThat(size).isPositive();
                    assertThat(offset + pos).isEqualTo(offsets.get(index));
                    assertThat(b.getLong(pos + MessageRecord.QUEUE_OFFSET_OFFSET)).isEqualTo(index / 2);
                    index++;
                    pos += size;
                }
            } finally {
                data.release();
            }
            offset = pos < data.size() ? commitLog.rollNextFile(offset) : offset + pos;
        }
        assertThat(index).isEqualTo(200);
        assertThat(blanks).isEqualTo(commitLog.mappedFileQueue().fileCount() - 1);
        for (MappedFile file : commitLog.mappedFileQueue().getMappedFiles().subList(0, blanks)) {
            assertThat(file.isFull()).isTrue();
        }
    }

    @Test
    void queueOffsetsArePerTopicQueueAndSkipPreparedAndRolledBackRecords() {
        open(64 * 1024, 4096);
        MessageExt a0 = message("A", 0, "1");
        MessageExt a1 = message("A", 1, "2");
        MessageExt a0b = message("A", 0, "3");
        MessageExt prepared = message("A", 0, "half");
        prepared.setSysFlag(MessageSysFlag.TRANSACTION_PREPARED_TYPE);
        MessageExt rolledBack = message("A", 0, "rb");
        rolledBack.setSysFlag(MessageSysFlag.TRANSACTION_ROLLBACK_TYPE);
        MessageExt committed = message("A", 0, "c");
        committed.setSysFlag(MessageSysFlag.TRANSACTION_COMMIT_TYPE);
        for (MessageExt m : List.of(a0, a1, a0b, prepared, rolledBack, committed)) {
            assertThat(commitLog.putMessage(m, "").isOk()).isTrue();
        }
        assertThat(a0.getQueueOffset()).isZero();
        assertThat(a1.getQueueOffset()).isZero();
        assertThat(a0b.getQueueOffset()).isEqualTo(1);
        assertThat(prepared.getQueueOffset()).isZero();
        assertThat(rolledBack.getQueueOffset()).isZero();
        assertThat(committed.getQueueOffset()).isEqualTo(2);
        assertThat(commitLog.nextQueueOffset("A", 0)).isEqualTo(3);
        assertThat(commitLog.nextQueueOffset("A", 7)).isZero();

        commitLog.setQueueOffset("B", 300, 42);
        MessageExt b = message("B", 300, "b");
        commitLog.putMessage(b, "");
        assertThat(b.getQueueOffset()).isEqualTo(42);
        commitLog.removeQueueOffsets("B");
        assertThat(commitLog.nextQueueOffset("B", 300)).isZero();
    }

    @ParameterizedTest(name = "forced per record: {0}")
    @ValueSource(booleans = {false, true})
    void batchIsWrittenAsConsecutiveRecordsInOneFile(boolean forcedPerRecord) {
        int fileSize = 2048;
        open(fileSize, 1900).mappedFileQueue().setForcedPerRecord(forcedPerRecord);
        // fill the first file so that the batch does not fit its rest
        MessageExt filler = message("F", 0, "f".repeat(1500));
        commitLog.putMessage(filler, "");
        List<MessageExt> batch = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            batch.add(message("Batch", 0, "m" + i));
        }
        AppendResult result = commitLog.putMessages(batch, Collections.nCopies(5, ""));
        assertThat(result.isOk()).isTrue();
        assertThat(result.msgNum()).isEqualTo(5);
        assertThat(result.wroteOffset()).isEqualTo(fileSize);
        long expected = fileSize;
        for (int i = 0; i < 5; i++) {
            assertThat(batch.get(i).getCommitLogOffset()).isEqualTo(expected);
            assertThat(batch.get(i).getQueueOffset()).isEqualTo(i);
            expected += batch.get(i).getStoreSize();
            assertThat(new String(read(batch.get(i).getCommitLogOffset()).getBody())).isEqualTo("m" + i);
        }
        assertThat(result.nextOffset()).isEqualTo(expected);
    }

    @Test
    void anInterruptedPutStoresNothingTakesNoQueueOffsetAndTheNextPutWorks() {
        open(64 * 1024, 4096).mappedFileQueue().setForcedPerRecord(true);
        MessageExt first = message("I", 0, "first");
        assertThat(commitLog.putMessage(first, "").isOk()).isTrue();
        long end = commitLog.getMaxOffset();
        List<MessageExt> batch = List.of(message("I", 0, "lost-a"), message("I", 0, "lost-b"));

        Thread.currentThread().interrupt();
        AppendResult interrupted;
        try {
            interrupted = commitLog.putMessages(batch, List.of("", ""));
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
        }
        assertThat(interrupted.isOk()).isFalse();
        assertThat(interrupted.errorMessage()).contains("interrupted").contains("send it again");
        assertThat(commitLog.getMaxOffset()).isEqualTo(end);
        assertThat(commitLog.nextQueueOffset("I", 0)).as("the batch gave its queue offsets back").isEqualTo(1);

        MessageExt next = message("I", 0, "next");
        AppendResult ok = commitLog.putMessage(next, "");
        assertThat(ok.isOk()).isTrue();
        assertThat(ok.wroteOffset()).isEqualTo(end);
        assertThat(next.getQueueOffset()).isEqualTo(1);
        assertThat(new String(read(end).getBody(), StandardCharsets.UTF_8)).isEqualTo("next");
    }

    @Test
    void badInputsGetClearErrorsAndTheLogKeepsWorking() {
        open(4096, 1024);
        assertFailure(message("", 0, "x"), AppendStatus.MESSAGE_ILLEGAL, "topic name is empty");
        assertFailure(message("a".repeat(128), 0, "x"), AppendStatus.MESSAGE_ILLEGAL, "128 bytes long");
        assertFailure(message("bad topic", 0, "x"), AppendStatus.MESSAGE_ILLEGAL, "only letters, digits");
        assertFailure(message("T", -1, "x"), AppendStatus.MESSAGE_ILLEGAL, "queue id -1 is negative");
        assertFailure(message("T", 0, "x".repeat(1024)), AppendStatus.MESSAGE_SIZE_EXCEEDED, "maximum message size is 1024");
        MessageExt bigProps = message("T", 0, "x");
        AppendResult r = commitLog.putMessage(bigProps, "k\u0001" + "v".repeat(40_000) + "\u0002");
        assertThat(r.status()).isEqualTo(AppendStatus.PROPERTIES_SIZE_EXCEEDED);
        assertThat(r.errorMessage()).contains("limit is 32767 bytes");
        List<MessageExt> batch = List.of(message("T", 0, "ok"), message("bad/topic", 0, "x"));
        AppendResult batchResult = commitLog.putMessages(batch, List.of("", ""));
        assertThat(batchResult.status()).isEqualTo(AppendStatus.MESSAGE_ILLEGAL);
        assertThat(batchResult.errorMessage()).startsWith("Message 2 of the batch");
        assertThat(commitLog.putMessages(List.of(), List.of()).errorMessage()).contains("empty");
        assertThat(commitLog.getMaxOffset()).as("nothing written by rejected puts").isZero();

        // a 127-byte topic is the longest accepted
        MessageExt longest = message("a".repeat(127), 0, "ok");
        assertThat(commitLog.putMessage(longest, "").isOk()).isTrue();
        assertThat(read(longest.getCommitLogOffset()).getTopic()).hasSize(127);
        assertThat(commitLog.nextQueueOffset("T", 0)).isZero();
    }

    @Test
    void recordLargerThanAFileIsRejected() {
        open(1024, 4096);
        MessageExt msg = message("T", 0, "x".repeat(1020));
        AppendResult result = commitLog.putMessage(msg, "");
        assertThat(result.status()).isEqualTo(AppendStatus.MESSAGE_SIZE_EXCEEDED);
        assertThat(result.errorMessage()).contains("mappedFileSizeCommitLog");
        assertThat(commitLog.putMessage(message("T", 0, "small"), "").isOk()).isTrue();
    }

    @Test
    void notWritableRefusesPuts() {
        open(4096, 1024);
        commitLog.setWritable(false);
        AppendResult result = commitLog.putMessage(message("T", 0, "x"), "");
        assertThat(result.status()).isEqualTo(AppendStatus.SERVICE_NOT_AVAILABLE);
        commitLog.setWritable(true);
        assertThat(commitLog.putMessage(message("T", 0, "x"), "").isOk()).isTrue();
    }

    @Test
    void concurrentWritersGetUniqueContinuousQueueOffsets() throws Exception {
        open(16 * 1024, 4096);
        int threads = 8;
        int perThread = 500;
        Set<Long> queueOffsets = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        MessageExt msg = message("Shared", 0, "t" + id + "-" + i);
                        AppendResult r = commitLog.putMessage(msg, "");
                        assertThat(r.isOk()).isTrue();
                        queueOffsets.add(msg.getQueueOffset());
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(queueOffsets).hasSize(threads * perThread);
        assertThat(Collections.max(queueOffsets)).isEqualTo(threads * perThread - 1L);
        // every record is intact where the log says it is
        Set<Long> seen = new HashSet<>();
        long offset = 0;
        while (offset < commitLog.getMaxOffset()) {
            SelectMappedBufferResult data = commitLog.getData(offset);
            int pos = 0;
            try {
                while (pos < data.size()) {
                    int size = RecordValidator.check(data.byteBuffer(), pos, data.size(), offset + pos, true);
                    if (size < 0) {
                        break;
                    }
                    seen.add(data.byteBuffer().getLong(pos + MessageRecord.QUEUE_OFFSET_OFFSET));
                    pos += size;
                }
            } finally {
                data.release();
            }
            offset = pos < data.size() ? commitLog.rollNextFile(offset) : offset + pos;
        }
        assertThat(seen).isEqualTo(queueOffsets);
    }

    private void assertFailure(MessageExt msg, AppendStatus status, String messagePart) {
        AppendResult result = commitLog.putMessage(msg, "");
        assertThat(result.status()).isEqualTo(status);
        assertThat(result.errorMessage()).contains(messagePart);
        assertThat(result.isOk()).isFalse();
    }
}
