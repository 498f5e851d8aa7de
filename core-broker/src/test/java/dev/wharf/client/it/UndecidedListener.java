package dev.wharf.client.it;

import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.client.producer.TransactionListener;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;

/**
 * The transaction listener of tests that end every transaction themselves: a single message's local transaction
 * is left undecided, and a check-back (about a transaction the test left open on purpose) rolls it back.
 */
final class UndecidedListener implements TransactionListener {

    @Override
    public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
        return LocalTransactionState.UNKNOW;
    }

    @Override
    public LocalTransactionState checkLocalTransaction(MessageExt msg) {
        return LocalTransactionState.ROLLBACK_MESSAGE;
    }
}
