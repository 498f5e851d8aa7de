package dev.wharf.spring.boot.transaction;

import dev.wharf.jms.spi.TransactionFlush;
import jakarta.jms.JMSException;
import org.springframework.core.Ordered;
import org.springframework.jms.support.JmsUtils;
import org.springframework.transaction.support.TransactionSynchronization;

/**
 * Stores a Wharf transaction's streamed messages durably just before the database transaction that recorded its id
 * commits. Once that commit is done a check-back may commit the messages without the session, so they must be stored
 * first; a flush that fails throws, and Spring rolls the database transaction back instead of committing it (the
 * Wharf transaction is rolled back by the failed flush). It runs after every other before-commit callback, so that
 * messages such callbacks send are covered too (a send after the flush is stored durably on its own anyway).
 */
final class FlushBeforeCommit implements TransactionSynchronization {

    private final String transactionId;
    private final TransactionFlush flush;

    FlushBeforeCommit(String transactionId, TransactionFlush flush) {
        this.transactionId = transactionId;
        this.flush = flush;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void beforeCommit(boolean readOnly) {
        try {
            flush.flush();
        } catch (JMSException e) {
            throw JmsUtils.convertJmsAccessException(e);
        }
    }

    @Override
    public String toString() {
        return "FlushBeforeCommit{" + transactionId + "}";
    }
}
