package dev.wharf.broker.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.store.MessageToStore;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The record shapes of half, committed, op and check-max messages, and the bounded memory of outcomes. */
class TransactionRecordsTest {

    private static MessageToStore sent() {
        MessageToStore msg = new MessageToStore();
        msg.setTopic("Orders");
        msg.setQueueId(3);
        msg.setBody(new byte[] {1, 2, 3});
        msg.setSysFlag(MessageSysFlag.TRANSACTION_PREPARED_TYPE | MessageSysFlag.COMPRESSED);
        msg.putProperty(MessageProperties.TAGS, "blue");
        msg.putProperty(MessageProperties.TRANSACTION_PREPARED, "true");
        msg.setPropertiesString("as-sent");
        return msg;
    }

    @Test
    void aHalfRemembersItsRealQueueAndARealMessageForgetsTheHalf() {
        MessageToStore half = sent();
        TransactionRecords.toHalf(half, "tx-9", "group-g");
        assertThat(half.getTopic()).isEqualTo(SystemTopics.TRANS_HALF_TOPIC);
        assertThat(half.getQueueId()).isZero();
        assertThat(MessageSysFlag.transactionType(half.getSysFlag())).isEqualTo(MessageSysFlag.TRANSACTION_NOT_TYPE);
        assertThat(half.getSysFlag() & MessageSysFlag.COMPRESSED).isNotZero();
        assertThat(half.getPropertiesString()).as("the store must encode the changed map").isNull();
        assertThat(half.getProperties()).containsEntry(MessageProperties.REAL_TOPIC, "Orders")
                .containsEntry(MessageProperties.REAL_QUEUE_ID, "3")
                .containsEntry(MessageProperties.TRANSACTION_ID, "tx-9")
                .containsEntry(MessageProperties.PRODUCER_GROUP, "group-g");

        half.setQueueOffset(41);
        half.setCommitLogOffset(9_000);
        half.putProperty(MessageProperties.TRANSACTION_CHECK_TIMES, "2");
        MessageToStore real = TransactionRecords.committed(half, 77L);
        assertThat(real.getTopic()).isEqualTo("Orders");
        assertThat(real.getQueueId()).isEqualTo(3);
        assertThat(real.getBody()).containsExactly(1, 2, 3);
        assertThat(MessageSysFlag.transactionType(real.getSysFlag())).isEqualTo(MessageSysFlag.TRANSACTION_COMMIT_TYPE);
        assertThat(real.getPreparedTransactionOffset()).isEqualTo(9_000);
        assertThat(real.getStoreHost()).isEqualTo(77L);
        assertThat(real.getProperties()).containsEntry(MessageProperties.TRANSACTION_PREPARED_QUEUE_OFFSET, "41")
                .containsEntry(MessageProperties.TRANSACTION_ID, "tx-9")
                .containsEntry(MessageProperties.TAGS, "blue")
                .doesNotContainKeys(MessageProperties.REAL_TOPIC, MessageProperties.REAL_QUEUE_ID,
                        MessageProperties.TRANSACTION_PREPARED, MessageProperties.TRANSACTION_CHECK_TIMES);

        MessageToStore kept = TransactionRecords.checkMaxCopy(half, 15, 77L);
        assertThat(kept.getTopic()).isEqualTo(SystemTopics.TRANS_CHECK_MAX_TIME_TOPIC);
        assertThat(kept.getProperties()).containsEntry(MessageProperties.TRANSACTION_CHECK_TIMES, "15")
                .containsEntry(MessageProperties.REAL_TOPIC, "Orders");
    }

    @Test
    void opRecordsAreChunkedAndReadBack() {
        long[] offsets = LongStream.range(100, 100 + TransactionRecords.OP_OFFSETS_PER_RECORD + 5).toArray();
        List<MessageToStore> ops = TransactionRecords.ops("tx-big", TransactionOutcome.ROLLBACK, offsets, 1L);
        assertThat(ops).hasSize(2);
        long[] read = ops.stream().map(TransactionRecords::readOp)
                .flatMapToLong(op -> {
                    assertThat(op.transactionId()).isEqualTo("tx-big");
                    assertThat(op.outcome()).isEqualTo(TransactionOutcome.ROLLBACK);
                    return LongStream.of(op.halfQueueOffsets());
                }).toArray();
        assertThat(read).containsExactly(offsets);
        assertThat(ops.get(0).getTopic()).isEqualTo(SystemTopics.TRANS_OP_HALF_TOPIC);

        MessageExt foreign = new MessageExt();
        foreign.setTags("COMMIT");
        foreign.putProperty(MessageProperties.TRANSACTION_ID, "x");
        foreign.setBody("1,two".getBytes());
        assertThat(TransactionRecords.readOp(foreign)).as("a malformed body is ignored").isNull();
        foreign.setTags("SOMETHING");
        foreign.setBody("1".getBytes());
        assertThat(TransactionRecords.readOp(foreign)).isNull();
    }

    @Test
    void theTransactionIdFallsBackToTheUniqueId() {
        MessageExt msg = new MessageExt();
        assertThat(TransactionRecords.transactionId(msg)).isNull();
        msg.putProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, "U1");
        assertThat(TransactionRecords.transactionId(msg)).isEqualTo("U1");
        msg.putProperty(MessageProperties.TRANSACTION_ID, "T1");
        assertThat(TransactionRecords.transactionId(msg)).isEqualTo("T1");
    }

    @Test
    void endedTransactionsAreForgottenOldestFirstAndTheFirstOutcomeStays() {
        DecidedTransactions decided = new DecidedTransactions(3);
        decided.put("a", TransactionOutcome.COMMIT);
        decided.put("a", TransactionOutcome.ROLLBACK);
        decided.put("b", TransactionOutcome.ROLLBACK);
        decided.put("c", TransactionOutcome.DISCARD);
        assertThat(decided.get("a")).isEqualTo(TransactionOutcome.COMMIT);
        decided.put("d", TransactionOutcome.COMMIT);
        assertThat(decided.get("a")).isNull();
        assertThat(decided.get("d")).isEqualTo(TransactionOutcome.COMMIT);
        assertThat(decided.size()).isEqualTo(3);
    }

    @Test
    void theSizeGuardStopsATransactionBeforeItOutgrowsOneCommit() {
        TransactionSizeGuard guard = new TransactionSizeGuard(4096 + 1000);
        assertThat(guard.add("t", 600, 1)).isEqualTo(600);
        assertThat(guard.add("t", 300, 2)).isEqualTo(900);
        assertThat(guard.add("t", 100, 3)).as("over the limit with the op record room").isEqualTo(-1);
        assertThat(guard.add("other", 900, 3)).isEqualTo(900);
        TransactionIndex index = new TransactionIndex(10);
        index.rememberOutcome("t", TransactionOutcome.COMMIT);
        guard.sweep(index, 1_000, 10_000);
        assertThat(guard.tracked()).as("ended ones go; a young unknown one stays").isEqualTo(1);
        guard.sweep(index, 20_000, 10_000);
        assertThat(guard.tracked()).isZero();
    }
}
