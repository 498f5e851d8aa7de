package dev.wharf.broker.transaction;

import dev.wharf.broker.processor.PutMessageHook;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.store.MessageToStore;
import java.util.function.LongSupplier;

/**
 * The send-path step of transactions: a message sent with TRAN_MSG=true (or the PREPARED transaction type) is
 * stored as a half message in RMQ_SYS_TRANS_HALF_TOPIC (see {@link TransactionRecords}), invisible to consumers
 * until its transaction commits. Every other message is stored with transaction type NOT, whatever the producer
 * put in the sys flag, so only the broker writes committed records. Thread-safe; allocates nothing for
 * non-transactional messages.
 */
final class HalfMessageHook implements PutMessageHook {

    /** Room for the properties a committed record gains over its half, in the size estimate. */
    private static final int COMMITTED_PROPERTIES_SLACK = 64;

    private final TransactionIndex index;
    private final TransactionSizeGuard sizes;
    private final LongSupplier clock;
    private final DelayRouter delays;

    HalfMessageHook(TransactionIndex index, TransactionSizeGuard sizes, LongSupplier clock, DelayRouter delays) {
        this.delays = delays;
        this.index = index;
        this.sizes = sizes;
        this.clock = clock;
    }

    @Override
    public Refusal beforePut(SendContext context, MessageToStore msg) {
        int type = MessageSysFlag.transactionType(msg.getSysFlag());
        boolean half = type == MessageSysFlag.TRANSACTION_PREPARED_TYPE
                || "true".equalsIgnoreCase(msg.getProperty(MessageProperties.TRANSACTION_PREPARED));
        if (!half) {
            if (type != MessageSysFlag.TRANSACTION_NOT_TYPE) {
                msg.setSysFlag(MessageSysFlag.withTransactionType(msg.getSysFlag(), MessageSysFlag.TRANSACTION_NOT_TYPE));
            }
            return null;
        }
        if (context.batch()) {
            return new Refusal(ResponseCode.MESSAGE_ILLEGAL, "Transactional messages cannot be sent as a batch; send"
                    + " them one by one with the same transaction id, then end the transaction once.");
        }
        String delayError = delays.check(msg);
        if (delayError != null) {
            return new Refusal(ResponseCode.MESSAGE_ILLEGAL, delayError);
        }
        String transactionId = TransactionRecords.transactionId(msg);
        if (transactionId == null) {
            return new Refusal(ResponseCode.MESSAGE_ILLEGAL, "The transactional message has no transaction id; set the"
                    + " property " + MessageProperties.TRANSACTION_ID + " (the transaction producer does).");
        }
        String group = msg.getProperty(MessageProperties.PRODUCER_GROUP);
        if (group == null || group.isEmpty()) {
            group = context.producerGroup();
        }
        TransactionOutcome ended = index.outcome(transactionId);
        if (ended != null) {
            return new Refusal(ResponseCode.TRANSACTION_FAILED, "The transaction " + transactionId + " was already "
                    + TransactionResolver.past(ended) + "; send further messages in a new transaction.");
        }
        String encoded = msg.getPropertiesString();
        int propertiesLength = (encoded == null ? 256 : encoded.length()) + COMMITTED_PROPERTIES_SLACK;
        long estimate = MessageRecord.totalSize(msg.getBody() == null ? 0 : msg.getBody().length,
                msg.getTopic().length(), propertiesLength);
        if (sizes.add(transactionId, estimate, clock.getAsLong()) < 0) {
            return new Refusal(ResponseCode.MESSAGE_ILLEGAL, "The transaction " + transactionId + " would take more"
                    + " than " + sizes.limit() + " bytes stored with this message, more than one commit can write"
                    + " at once; end it and send the rest in another transaction (or use larger commit-log files).");
        }
        TransactionRecords.toHalf(msg, transactionId, group);
        return null;
    }
}
