package dev.wharf.client.producer;

import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;

/**
 * The application side of a half-message transaction: runs the local transaction after the half message is stored,
 * and answers the broker's check-back when the outcome was never reported (the producer died, END_TRANSACTION was
 * lost). A check-back may reach any live producer of the same producer group, so answer from durable state (a
 * database row), not from memory.
 */
public interface TransactionListener {

    /** Runs the local transaction for a half message that the broker has stored. */
    LocalTransactionState executeLocalTransaction(Message msg, Object arg);

    /** Answers a check-back; {@code msg} is the first half message of the transaction and carries its id. */
    LocalTransactionState checkLocalTransaction(MessageExt msg);
}
