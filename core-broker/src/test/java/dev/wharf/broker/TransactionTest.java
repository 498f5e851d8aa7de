package dev.wharf.broker;

import static dev.wharf.broker.TransactionProtocol.bodies;
import static dev.wharf.broker.TransactionProtocol.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.TransactionHeaders.EndTransactionRequest;
import dev.wharf.store.MessageStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Half messages and END_TRANSACTION over the raw protocol against a real broker. */
class TransactionTest {

    private static final String TOPIC = "Orders";
    private static final String GROUP = "tx-group";

    @TempDir
    Path dir;

    private final List<Broker> brokers = new ArrayList<>();
    private final List<TransactionProtocol> producers = new ArrayList<>();

    @AfterEach
    void stop() {
        producers.forEach(TransactionProtocol::close);
        brokers.forEach(Broker::shutdown);
    }

    private Broker start() throws Exception {
        Broker broker = BrokerFixture.start(dir);
        brokers.add(broker);
        return broker;
    }

    private TransactionProtocol producer(Broker broker) {
        TransactionProtocol p = new TransactionProtocol(broker.address(), GROUP);
        producers.add(p);
        return p;
    }

    private static void assertCode(RemotingCommand response, int code) {
        assertThat(response.code()).as("%s: %s", ResponseCode.NAMES.name(response.code()), response.remark()).isEqualTo(code);
    }

    @Test
    void commitMakesEveryHalfVisibleOnceAndRetriesWriteNothing() throws Exception {
        Broker broker = start();
        MessageStore store = broker.store();
        TransactionProtocol p = producer(broker);
        for (int i = 0; i < 4; i++) {
            p.sendHalfOk(TOPIC, i, "tx-1", "m" + i);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> store.getMaxOffsetInQueue(SystemTopics.TRANS_HALF_TOPIC, 0) == 4);
        assertThat(bodies(store, TOPIC, 4)).as("halves are invisible").isEmpty();
        RemotingCommand pulled = p.client.pull("consumer", TOPIC, 0, 0, 32, "*", "TAG");
        assertThat(pulled.code()).isEqualTo(ResponseCode.PULL_NOT_FOUND);

        assertCode(p.commit("tx-1"), ResponseCode.SUCCESS);
        await().atMost(Duration.ofSeconds(5)).until(() -> bodies(store, TOPIC, 4).size() == 4);
        assertThat(bodies(store, TOPIC, 4)).containsExactly("m0", "m1", "m2", "m3");
        MessageExt committed = read(store, TOPIC, 2).get(0);
        assertThat(committed.getProperty(MessageProperties.TRANSACTION_ID)).isEqualTo("tx-1");
        assertThat(committed.getProperty(MessageProperties.TRANSACTION_PREPARED)).isNull();
        assertThat(committed.getProperty(MessageProperties.REAL_TOPIC)).isNull();
        assertThat(committed.getProperty(MessageProperties.TRANSACTION_PREPARED_QUEUE_OFFSET)).isEqualTo("2");
        assertThat(MessageSysFlag.transactionType(committed.getSysFlag()))
                .isEqualTo(MessageSysFlag.TRANSACTION_COMMIT_TYPE);
        assertThat(committed.getPreparedTransactionOffset()).isPositive();
        RemotingCommand consumed = p.client.pull("consumer", TOPIC, 3, 0, 32, "*", "TAG");
        assertThat(ProtocolClient.messages(consumed)).extracting(m -> new String(m.getBody())).containsExactly("m3");

        RemotingCommand retried = p.commit("tx-1");
        assertCode(retried, ResponseCode.SUCCESS);
        assertThat(retried.remark()).contains("already committed");
        assertThat(bodies(store, TOPIC, 4)).as("exactly once").hasSize(4);
        await().atMost(Duration.ofSeconds(5)).until(() -> store.dispatchBehindBytes() == 0);
        List<MessageExt> ops = read(store, SystemTopics.TRANS_OP_HALF_TOPIC, 0);
        assertThat(ops).hasSize(1);
        assertThat(new String(ops.get(0).getBody())).isEqualTo("0,1,2,3");
        assertThat(ops.get(0).getTags()).isEqualTo("COMMIT");
        assertThat(broker.transactions().openTransactionCount()).isZero();
    }

    @Test
    void rollbackShowsNothingAndTheOutcomeCannotFlip() throws Exception {
        Broker broker = start();
        TransactionProtocol p = producer(broker);
        p.sendHalfOk(TOPIC, 0, "tx-r", "never");
        p.sendHalfOk(TOPIC, 1, "tx-r", "never either");
        assertCode(p.rollback("tx-r"), ResponseCode.SUCCESS);
        assertCode(p.rollback("tx-r"), ResponseCode.SUCCESS);
        RemotingCommand flip = p.commit("tx-r");
        assertCode(flip, ResponseCode.TRANSACTION_FAILED);
        assertThat(flip.remark()).contains("tx-r").contains("already rolled back").contains("cannot be committed");
        assertThat(bodies(broker.store(), TOPIC, 4)).isEmpty();

        p.sendHalfOk(TOPIC, 0, "tx-c", "kept");
        assertCode(p.commit("tx-c"), ResponseCode.SUCCESS);
        RemotingCommand late = p.rollback("tx-c");
        assertCode(late, ResponseCode.TRANSACTION_FAILED);
        assertThat(late.remark()).contains("already committed").contains("cannot be rolled back");
        assertThat(bodies(broker.store(), TOPIC, 4)).containsExactly("kept");
        assertThat(read(broker.store(), SystemTopics.TRANS_OP_HALF_TOPIC, 0)).extracting(MessageExt::getTags)
                .containsExactly("ROLLBACK", "COMMIT");
    }

    @Test
    void badRequestsGetClearErrorsAndChangeNothing() throws Exception {
        Broker broker = start();
        TransactionProtocol p = producer(broker);
        RemotingCommand unknown = p.commit("no-such-tx");
        assertCode(unknown, ResponseCode.TRANSACTION_FAILED);
        assertThat(unknown.remark()).contains("No half message of transaction no-such-tx");

        p.sendHalfOk(TOPIC, 0, "tx-bad", "x");
        assertCode(p.end("tx-bad", MessageSysFlag.TRANSACTION_PREPARED_TYPE), ResponseCode.REQUEST_HEADER_INVALID);
        RemotingCommand still = p.end("tx-bad", MessageSysFlag.TRANSACTION_NOT_TYPE);
        assertCode(still, ResponseCode.SUCCESS);
        assertThat(still.remark()).contains("stays open");
        RemotingCommand noId = p.client.invoke(RequestCode.END_TRANSACTION,
                new EndTransactionRequest(GROUP, null, MessageSysFlag.TRANSACTION_COMMIT_TYPE, -1, false, null));
        assertCode(noId, ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(noId.remark()).contains("transactionId");
        RemotingCommand otherGroup = p.client.invoke(RequestCode.END_TRANSACTION, new EndTransactionRequest(
                "someone-else", "tx-bad", MessageSysFlag.TRANSACTION_COMMIT_TYPE, -1, false, null));
        assertCode(otherGroup, ResponseCode.TRANSACTION_STATE_GROUP_WRONG);
        assertThat(otherGroup.remark()).contains("belongs to producer group " + GROUP);

        RemotingCommand anonymous = p.sendHalf(TOPIC, 0, null, "no id");
        assertCode(anonymous, ResponseCode.MESSAGE_ILLEGAL);
        assertThat(anonymous.remark()).contains(MessageProperties.TRANSACTION_ID);
        RemotingCommand badDelay = p.sendHalf(TOPIC, 0, "tx-delay", "later",
                Map.of(MessageProperties.DELAY_TIME_LEVEL, "third"));
        assertCode(badDelay, ResponseCode.MESSAGE_ILLEGAL);
        assertThat(badDelay.remark()).contains("delay level");

        assertCode(p.commit("tx-bad"), ResponseCode.SUCCESS);
        RemotingCommand afterEnd = p.sendHalf(TOPIC, 0, "tx-bad", "too late");
        assertCode(afterEnd, ResponseCode.TRANSACTION_FAILED);
        assertThat(afterEnd.remark()).contains("already committed").contains("new transaction");
        assertThat(bodies(broker.store(), TOPIC, 4)).containsExactly("x");
    }

    @Test
    void aProducerCannotForgeCommittedRecords() throws Exception {
        Broker broker = start();
        ProtocolClient plain = producer(broker).client;
        RemotingCommand forged = plain.invoke(RequestCode.SEND_MESSAGE, new dev.wharf.protocol.header.MessageHeaders
                .SendMessageRequest("p", TOPIC, 0, 0, MessageSysFlag.TRANSACTION_ROLLBACK_TYPE
                        | MessageSysFlag.INNER_BATCH_CONTINUES, System.currentTimeMillis(), 0, "", 0, null, false),
                "plain".getBytes());
        assertCode(forged, ResponseCode.SUCCESS);
        MessageExt stored = read(broker.store(), TOPIC, 0).get(0);
        assertThat(stored.getSysFlag() & (MessageSysFlag.TRANSACTION_TYPE_MASK | MessageSysFlag.INNER_BATCH_CONTINUES))
                .isZero();
    }

    @Test
    void aTransactionOfFiftyMessagesBecomesVisibleAllAtOnce() throws Exception {
        Broker broker = start();
        MessageStore store = broker.store();
        TransactionProtocol p = producer(broker);
        for (int i = 0; i < 50; i++) {
            p.sendHalfOk(TOPIC, i % 4, "tx-50", "m" + i);
        }
        // queue ends as a consumer reads them, one queue after the other, in reading order
        List<long[]> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread watcher = new Thread(() -> {
            while (!stop.get()) {
                for (int q = 0; q < 4; q++) {
                    seen.add(new long[] {q, store.getMaxOffsetInQueue(TOPIC, q)});
                }
                Thread.onSpinWait();
            }
        }, "visibility-watcher");
        watcher.start();
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.size() > 400);
            assertCode(p.commit("tx-50"), ResponseCode.SUCCESS);
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.get(seen.size() - 1)[1] > 0);
            int before = seen.size();
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.size() > before + 400);
        } finally {
            stop.set(true);
            watcher.join(5_000);
        }
        // each queue jumps from nothing to its whole share, and once any queue showed its share no queue read
        // afterwards shows nothing: every queue of the transaction became readable at the same instant
        long[] share = {13, 13, 12, 12};
        boolean visible = false;
        for (long[] read : seen) {
            int q = (int) read[0];
            assertThat(read[1]).as("queue %d", q).isIn(0L, share[q]);
            if (read[1] > 0) {
                visible = true;
            } else {
                assertThat(visible).as("queue %d read empty after another queue showed the transaction", q).isFalse();
            }
        }
        assertThat(visible).isTrue();
        assertThat(bodies(store, TOPIC, 4)).hasSize(50);
        assertThat(read(store, TOPIC, 1)).extracting(m -> new String(m.getBody()))
                .containsExactly("m1", "m5", "m9", "m13", "m17", "m21", "m25", "m29", "m33", "m37", "m41", "m45", "m49");
    }

    @Test
    void concurrentCommitsOfTheSameTransactionWriteItOnce() throws Exception {
        Broker broker = start();
        TransactionProtocol p = producer(broker);
        int transactions = 20;
        for (int t = 0; t < transactions; t++) {
            p.sendHalfOk(TOPIC, t % 4, "race-" + t, "r" + t);
            p.sendHalfOk(TOPIC, (t + 1) % 4, "race-" + t, "s" + t);
        }
        List<CompletableFuture<RemotingCommand>> answers = new ArrayList<>();
        for (int t = 0; t < transactions; t++) {
            for (int k = 0; k < 4; k++) {
                // as the producer's END_TRANSACTION, its retries and check-back answers would arrive together
                answers.add(p.client.invokeAsync(ProtocolClient.request(RequestCode.END_TRANSACTION,
                        new EndTransactionRequest(GROUP, "race-" + t, MessageSysFlag.TRANSACTION_COMMIT_TYPE, -1,
                                k % 2 == 1, null)), 5_000));
            }
        }
        for (CompletableFuture<RemotingCommand> answer : answers) {
            assertCode(answer.get(10, TimeUnit.SECONDS), ResponseCode.SUCCESS);
        }
        assertThat(bodies(broker.store(), TOPIC, 4)).hasSize(2 * transactions).doesNotHaveDuplicates();
        assertThat(read(broker.store(), SystemTopics.TRANS_OP_HALF_TOPIC, 0)).hasSize(transactions);
    }

    @Test
    void aTransactionTooLargeToCommitIsRefusedWhenSent() throws Exception {
        Broker broker = start();
        TransactionProtocol p = producer(broker);
        String body = "b".repeat(250_000);
        long limit = broker.store().config().maxBatchBytes();
        int sent = 0;
        RemotingCommand last;
        do {
            last = p.sendHalf(TOPIC, sent % 4, "tx-big", body + sent);
            sent++;
        } while (last.code() == ResponseCode.SUCCESS && sent < 40);
        assertCode(last, ResponseCode.MESSAGE_ILLEGAL);
        assertThat(last.remark()).contains("tx-big").contains("more than one commit can write");
        assertThat((long) (sent - 1) * 250_000).isLessThan(limit).isGreaterThan(limit - 2 * 250_000);
        assertCode(p.commit("tx-big"), ResponseCode.SUCCESS);
        assertThat(bodies(broker.store(), TOPIC, 4)).hasSize(sent - 1);
    }

    @Test
    void theHalvesSurviveARestartBetweenSendAndCommit() throws Exception {
        Broker first = start();
        TransactionProtocol p = producer(first);
        p.sendHalfOk(TOPIC, 0, "tx-done", "early");
        assertCode(p.commit("tx-done"), ResponseCode.SUCCESS);
        p.sendHalfOk(TOPIC, 0, "tx-open", "a");
        p.sendHalfOk(TOPIC, 1, "tx-open", "b");
        p.close();
        producers.clear();
        first.shutdown();
        brokers.clear();

        Broker second = start();
        assertThat(second.transactions().openTransactionCount()).isEqualTo(1);
        TransactionProtocol again = producer(second);
        RemotingCommand retry = again.commit("tx-done");
        assertCode(retry, ResponseCode.SUCCESS);
        assertThat(retry.remark()).as("the outcome was read back from the op topic").contains("already committed");
        assertCode(again.commit("tx-open"), ResponseCode.SUCCESS);
        assertThat(bodies(second.store(), TOPIC, 4)).containsExactly("early", "a", "b");
    }
}
