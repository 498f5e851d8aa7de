package dev.wharf.broker.transaction;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.common.message.Tags;
import dev.wharf.store.MessageToStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored shapes of the transaction records, built from and read back into messages.
 *
 * <pre>
 * half        topic RMQ_SYS_TRANS_HALF_TOPIC, queue 0, transaction type NOT (so it gets a consume-queue unit);
 *             properties: the producer's + REAL_TOPIC, REAL_QID, TRAN_MSG=true, PGROUP, __transactionId__
 * committed   topic REAL_TOPIC, queue REAL_QID, transaction type COMMIT, PREPAREDTRANSACTIONOFFSET = the half's
 *             commit-log offset; properties: the half's without REAL_TOPIC, REAL_QID, TRAN_MSG and
 *             TRANSACTION_CHECK_TIMES, plus TRAN_PREPARED_QUEUE_OFFSET = the half's queue offset
 * op          topic RMQ_SYS_TRANS_OP_HALF_TOPIC, queue 0; TAGS = COMMIT | ROLLBACK | DISCARD;
 *             __transactionId__; body = the ended halves' queue offsets in ASCII decimal, comma-separated:
 *             "17,18,19" (at most OP_OFFSETS_PER_RECORD per record; a big transaction gets several)
 * check max   topic TRANS_CHECK_MAX_TIME_TOPIC, queue 0, type NOT: a copy of a discarded half, properties
 *             kept, plus TRANSACTION_CHECK_TIMES
 * </pre>
 *
 * A transaction's committed messages and op records are stored as one atomic batch, so after a crash either
 * both are there or neither is.
 */
final class TransactionRecords {

    /** Half offsets per op record: keeps an op record far below any message size limit. */
    static final int OP_OFFSETS_PER_RECORD = 4096;

    /** An op record read back: which halves of which transaction ended how. */
    record Op(String transactionId, TransactionOutcome outcome, long[] halfQueueOffsets) {
    }

    private TransactionRecords() {
    }

    /** Turns a message a producer sent with TRAN_MSG=true into its half message, in place. */
    static void toHalf(MessageToStore msg, String transactionId, String producerGroup) {
        msg.putProperty(MessageProperties.REAL_TOPIC, msg.getTopic());
        msg.putProperty(MessageProperties.REAL_QUEUE_ID, Integer.toString(msg.getQueueId()));
        msg.putProperty(MessageProperties.TRANSACTION_PREPARED, "true");
        msg.putProperty(MessageProperties.TRANSACTION_ID, transactionId);
        msg.putProperty(MessageProperties.PRODUCER_GROUP, producerGroup);
        msg.setTopic(SystemTopics.TRANS_HALF_TOPIC);
        msg.setQueueId(0);
        msg.setSysFlag(MessageSysFlag.withTransactionType(msg.getSysFlag(), MessageSysFlag.TRANSACTION_NOT_TYPE));
        msg.setPropertiesString(null); // the map changed: the store must encode it
    }

    /** The message a committed half becomes in its real topic and queue. */
    static MessageToStore committed(MessageExt half, long storeHost) {
        MessageToStore msg = new MessageToStore();
        msg.setTopic(half.getProperty(MessageProperties.REAL_TOPIC));
        msg.setQueueId(realQueueId(half));
        Map<String, String> properties = new HashMap<>(half.getProperties());
        properties.remove(MessageProperties.REAL_TOPIC);
        properties.remove(MessageProperties.REAL_QUEUE_ID);
        properties.remove(MessageProperties.TRANSACTION_PREPARED);
        properties.remove(MessageProperties.TRANSACTION_CHECK_TIMES);
        properties.remove(MessageProperties.TRANSACTION_SEQUENCE);
        // a streamed half was stored without waiting for the disk; the commit is the durable point and waits
        properties.remove(MessageProperties.WAIT_STORE_MSG_OK);
        properties.put(MessageProperties.TRANSACTION_PREPARED_QUEUE_OFFSET, Long.toString(half.getQueueOffset()));
        msg.setProperties(properties);
        copyCommon(half, msg, storeHost);
        msg.setSysFlag(MessageSysFlag.withTransactionType(half.getSysFlag(), MessageSysFlag.TRANSACTION_COMMIT_TYPE));
        msg.setPreparedTransactionOffset(half.getCommitLogOffset());
        return msg;
    }

    /** A copy of a discarded half in TRANS_CHECK_MAX_TIME_TOPIC, so an operator can still find it. */
    static MessageToStore checkMaxCopy(MessageExt half, int checkTimes, long storeHost) {
        MessageToStore msg = new MessageToStore();
        msg.setTopic(SystemTopics.TRANS_CHECK_MAX_TIME_TOPIC);
        msg.setQueueId(0);
        Map<String, String> properties = new HashMap<>(half.getProperties());
        properties.put(MessageProperties.TRANSACTION_CHECK_TIMES, Integer.toString(checkTimes));
        msg.setProperties(properties);
        copyCommon(half, msg, storeHost);
        msg.setSysFlag(MessageSysFlag.withTransactionType(half.getSysFlag(), MessageSysFlag.TRANSACTION_NOT_TYPE));
        msg.setPreparedTransactionOffset(half.getCommitLogOffset());
        return msg;
    }

    private static void copyCommon(MessageExt from, MessageToStore to, long storeHost) {
        to.setBody(from.getBody());
        to.setFlag(from.getFlag());
        to.setTagsCode(Tags.hash(to.getTags()));
        to.setBornTimestamp(from.getBornTimestamp());
        to.setBornHost(from.getBornHost());
        to.setStoreHost(storeHost);
        to.setReconsumeTimes(0);
    }

    private static int realQueueId(MessageExt half) {
        String raw = half.getProperty(MessageProperties.REAL_QUEUE_ID);
        try {
            return raw == null ? 0 : Math.max(0, Integer.parseInt(raw));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The op records ending these halves, in order. */
    static List<MessageToStore> ops(String transactionId, TransactionOutcome outcome, long[] halfQueueOffsets,
                                           long storeHost) {
        List<MessageToStore> ops = new ArrayList<>(halfQueueOffsets.length / OP_OFFSETS_PER_RECORD + 1);
        for (int from = 0; from < halfQueueOffsets.length; from += OP_OFFSETS_PER_RECORD) {
            int to = Math.min(halfQueueOffsets.length, from + OP_OFFSETS_PER_RECORD);
            StringBuilder body = new StringBuilder((to - from) * 8);
            for (int i = from; i < to; i++) {
                if (i > from) {
                    body.append(',');
                }
                body.append(halfQueueOffsets[i]);
            }
            MessageToStore op = new MessageToStore();
            op.setTopic(SystemTopics.TRANS_OP_HALF_TOPIC);
            op.setQueueId(0);
            op.setBody(body.toString().getBytes(StandardCharsets.US_ASCII));
            op.putProperty(MessageProperties.TAGS, outcome.name());
            op.putProperty(MessageProperties.TRANSACTION_ID, transactionId);
            op.setTagsCode(Tags.hash(outcome.name()));
            op.setBornTimestamp(System.currentTimeMillis());
            op.setStoreHost(storeHost);
            ops.add(op);
        }
        return ops;
    }

    /** Reads an op record back; null when the message is not one (it is then ignored). */
    static Op readOp(MessageExt msg) {
        TransactionOutcome outcome = TransactionOutcome.fromTag(msg.getTags());
        String transactionId = msg.getProperty(MessageProperties.TRANSACTION_ID);
        byte[] body = msg.getBody();
        if (outcome == null || transactionId == null || body == null) {
            return null;
        }
        String text = new String(body, StandardCharsets.US_ASCII);
        if (text.isEmpty()) {
            return new Op(transactionId, outcome, new long[0]);
        }
        String[] parts = text.split(",");
        long[] offsets = new long[parts.length];
        try {
            for (int i = 0; i < parts.length; i++) {
                offsets[i] = Long.parseLong(parts[i]);
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return new Op(transactionId, outcome, offsets);
    }

    /** The transaction id of a half message: __transactionId__, else the client's unique id; null when neither. */
    static String transactionId(MessageExt msg) {
        String id = msg.getProperty(MessageProperties.TRANSACTION_ID);
        if (id == null || id.isEmpty()) {
            id = msg.getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID);
        }
        return id == null || id.isEmpty() ? null : id;
    }

    /** The half's position in its transaction when it was streamed, else -1 (it was stored in sending order). */
    static long sequence(MessageExt half) {
        String value = half.getProperty(MessageProperties.TRANSACTION_SEQUENCE);
        if (value == null) {
            return -1;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
