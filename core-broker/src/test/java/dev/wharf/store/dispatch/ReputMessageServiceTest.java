package dev.wharf.store.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.common.message.Tags;
import dev.wharf.store.commitlog.AppendResult;
import dev.wharf.store.commitlog.CommitLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReputMessageServiceTest {

    @TempDir
    Path dir;

    private CommitLog commitLog;
    private ReputMessageService reput;
    private final List<DispatchRequest> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        commitLog = new CommitLog(dir.resolve("commitlog"), 2048, 1024);
        reput = new ReputMessageService(commitLog, 1000);
        reput.addDispatcher(seen::add);
        commitLog.setAppendListener(reput::wakeup);
    }

    @AfterEach
    void tearDown() {
        reput.shutdown();
        commitLog.shutdown();
    }

    private AppendResult put(String topic, int queueId, int sysFlag, String... keyValues) {
        MessageExt msg = new MessageExt();
        msg.setTopic(topic);
        msg.setQueueId(queueId);
        msg.setSysFlag(sysFlag);
        msg.setBody(("body of " + topic).getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < keyValues.length; i += 2) {
            msg.putProperty(keyValues[i], keyValues[i + 1]);
        }
        AppendResult r = commitLog.putMessage(msg, MessageDecoder.encodeProperties(msg.getProperties()));
        assertThat(r.isOk()).isTrue();
        return r;
    }

    @Test
    void aWaiterForDispatchIsReleasedByTheDispatchThreadAndGivesUpAfterItsTimeout() throws Exception {
        put("Orders", 0, 0);
        long end = commitLog.getMaxOffset();
        assertThat(reput.awaitConfirmed(end, 50)).as("nothing dispatches yet").isFalse();
        assertThat(reput.waitingForDispatch()).as("the waiter that gave up is forgotten").isZero();

        java.util.concurrent.CompletableFuture<Boolean> waiting =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> reput.awaitConfirmed(end, 10_000));
        await().atMost(Duration.ofSeconds(5)).until(() -> reput.waitingForDispatch() == 1);
        reput.start(); // its first round dispatches the record and releases the waiter
        assertThat(waiting.get(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(reput.getConfirmedOffset()).isEqualTo(end);
        assertThat(reput.awaitConfirmed(end, 0)).as("reached: no wait at all").isTrue();
    }

    @Test
    void followsTheLogAcrossFilesAndAppliesTheDispatchRules() {
        reput.start();
        AppendResult tagged = put("Orders", 2, 0, MessageProperties.TAGS, "red", MessageProperties.KEYS, "k1 k2",
                MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, "U1");
        put(SystemTopics.TRANS_HALF_TOPIC, 0, MessageSysFlag.TRANSACTION_NOT_TYPE);
        put("Orders", 2, MessageSysFlag.TRANSACTION_PREPARED_TYPE);
        put("Orders", 2, MessageSysFlag.TRANSACTION_ROLLBACK_TYPE);
        put("Orders", 2, MessageSysFlag.TRANSACTION_COMMIT_TYPE, MessageProperties.TAGS, "blue");
        put(SystemTopics.SCHEDULE_TOPIC, 3, 0, MessageProperties.DELIVER_TIME_MS, "1234567890123",
                MessageProperties.TAGS, "ignored");
        for (int i = 0; i < 60; i++) {
            put("Bulk", i % 3, 0);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> reput.behindBytes() == 0);
        assertThat(reput.getReputFromOffset()).isEqualTo(commitLog.getMaxOffset());
        assertThat(commitLog.mappedFileQueue().fileCount()).as("crossed files").isGreaterThan(2);

        assertThat(seen).hasSize(1 + 1 + 1 + 1 + 60);
        DispatchRequest first = seen.get(0);
        assertThat(first.topic()).isEqualTo("Orders");
        assertThat(first.queueId()).isEqualTo(2);
        assertThat(first.commitLogOffset()).isEqualTo(tagged.wroteOffset());
        assertThat(first.msgSize()).isEqualTo(tagged.wroteBytes());
        assertThat(first.consumeQueueOffset()).isZero();
        assertThat(first.tagsCode()).isEqualTo(Tags.hash("red"));
        assertThat(first.keys()).isEqualTo("k1 k2");
        assertThat(first.uniqKey()).isEqualTo("U1");
        assertThat(first.storeTimestamp()).isEqualTo(tagged.storeTimestamp());
        assertThat(first.properties()).containsEntry(MessageProperties.TAGS, "red");

        assertThat(seen.get(1).topic()).as("half messages are dispatched to the half topic")
                .isEqualTo(SystemTopics.TRANS_HALF_TOPIC);
        DispatchRequest committed = seen.get(2);
        assertThat(committed.sysFlag()).isEqualTo(MessageSysFlag.TRANSACTION_COMMIT_TYPE);
        assertThat(committed.consumeQueueOffset()).as("prepared/rolled back took no offsets").isEqualTo(1);
        assertThat(seen.get(3).tagsCode()).as("delivery time for the schedule topic").isEqualTo(1234567890123L);

        long previous = -1;
        for (DispatchRequest r : seen) {
            assertThat(r.commitLogOffset()).isGreaterThan(previous);
            previous = r.commitLogOffset();
        }
        for (int q = 0; q < 3; q++) {
            int queue = q;
            assertThat(seen.stream().filter(r -> r.topic().equals("Bulk") && r.queueId() == queue)
                    .map(DispatchRequest::consumeQueueOffset)).containsExactly(
                            java.util.stream.LongStream.range(0, 20).boxed().toArray(Long[]::new));
        }
    }

    @Test
    void catchesUpSynchronouslyFromAGivenOffset() {
        AppendResult a = put("A", 0, 0);
        AppendResult b = put("B", 0, 0);
        reput.setReputFromOffset(b.wroteOffset());
        reput.doReput();
        assertThat(seen).extracting(DispatchRequest::topic).containsExactly("B");
        assertThat(reput.getReputFromOffset()).isEqualTo(b.nextOffset());
        assertThat(reput.dispatchedCount()).isEqualTo(1);
        assertThat(a.nextOffset()).isEqualTo(b.wroteOffset());
    }

    @Test
    void confirmedOffsetAndConfirmedDispatchersWaitForTheRecordClosingABatch() {
        List<DispatchRequest> confirmed = new CopyOnWriteArrayList<>();
        List<Long> confirmedWhenDispatched = new CopyOnWriteArrayList<>();
        reput.addDispatcher(r -> confirmedWhenDispatched.add(reput.getConfirmedOffset()));
        reput.addConfirmedDispatcher(confirmed::add);
        AppendResult single = put("A", 0, 0);
        List<MessageExt> batch = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            MessageExt msg = new MessageExt();
            msg.setTopic("B");
            msg.setQueueId(i);
            msg.setBody(("batch " + i).getBytes(StandardCharsets.UTF_8));
            batch.add(msg);
        }
        AppendResult b = commitLog.putMessages(batch, List.of("", "", ""));
        assertThat(b.isOk()).isTrue();
        reput.setReputFromOffset(0);
        reput.doReput();

        // while the batch's records were dispatched, the confirmed offset stayed at the batch's start
        assertThat(confirmedWhenDispatched).containsExactly(0L, single.nextOffset(), single.nextOffset(),
                single.nextOffset());
        assertThat(reput.getConfirmedOffset()).isEqualTo(b.nextOffset()).isEqualTo(reput.getReputFromOffset());
        assertThat(confirmed).extracting(DispatchRequest::topic).containsExactly("A", "B", "B", "B");
        assertThat(confirmed).extracting(r -> MessageSysFlag.batchContinues(r.sysFlag()))
                .containsExactly(false, true, true, false);
    }
}
