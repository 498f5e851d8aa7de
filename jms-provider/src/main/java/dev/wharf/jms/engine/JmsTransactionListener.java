package dev.wharf.jms.engine;

import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.client.producer.TransactionListener;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.jms.message.WireProperties;
import dev.wharf.jms.spi.TransactionCheck;
import dev.wharf.jms.spi.TransactionChecker;
import dev.wharf.jms.spi.TransactionOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction producer's listener for JMS: transacted sessions use multi-message transactions, so only
 * check-backs arrive here; they are answered by the factory's {@link TransactionChecker} with what this process
 * knows of the transaction ({@link LiveTransactions}).
 */
final class JmsTransactionListener implements TransactionListener {

    private static final Logger LOG = LoggerFactory.getLogger(JmsTransactionListener.class);

    private final TransactionChecker checker;

    JmsTransactionListener(TransactionChecker checker) {
        this.checker = checker;
    }

    /** Not used: sessions begin multi-message transactions and end them themselves. */
    @Override
    public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
        return LocalTransactionState.UNKNOW;
    }

    @Override
    public LocalTransactionState checkLocalTransaction(MessageExt msg) {
        String id = msg.getTransactionId();
        TransactionCheck check = new TransactionCheck(id, msg.getProperty(MessageProperties.PRODUCER_GROUP),
                msg.getProperty(MessageProperties.REAL_TOPIC) != null ? msg.getProperty(MessageProperties.REAL_TOPIC)
                        : msg.getTopic(), msg.getBornTimestamp(),
                LiveTransactions.state(id, msg.getProperty(WireProperties.TRANSACTION_OWNER)));
        TransactionOutcome outcome;
        try {
            outcome = checker.check(check);
        } catch (RuntimeException e) {
            LOG.warn("The transaction checker failed for {}: {}; the broker will ask again", id, e.toString());
            outcome = TransactionOutcome.UNKNOWN;
        }
        LOG.debug("Check-back for transaction {} ({}): {}", id, check.local(), outcome);
        return switch (outcome == null ? TransactionOutcome.UNKNOWN : outcome) {
            case COMMIT -> LocalTransactionState.COMMIT_MESSAGE;
            case ROLLBACK -> LocalTransactionState.ROLLBACK_MESSAGE;
            case UNKNOWN -> LocalTransactionState.UNKNOW;
        };
    }
}
