package dev.wharf.txchecker;

import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.common.message.MessageExt;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a broker check-back from the transaction log: the row is there → COMMIT; the row is absent and the
 * transaction is older than {@code rollbackAfter} → ROLLBACK (its database transaction can no longer commit);
 * otherwise UNKNOWN (it may still be running; the broker asks again later).
 *
 * <p>{@code rollbackAfter} must exceed the longest database transaction that sends messages, or a slow but
 * successful transaction could be rolled back: that is the one limit of this guarantee.
 */
public final class JdbcTransactionChecker {

    private static final Logger log = LoggerFactory.getLogger(JdbcTransactionChecker.class);

    private final JdbcTransactionLog transactionLog;
    private final Duration rollbackAfter;

    public JdbcTransactionChecker(JdbcTransactionLog transactionLog, Duration rollbackAfter) {
        this.transactionLog = Objects.requireNonNull(transactionLog, "transactionLog");
        if (rollbackAfter == null || rollbackAfter.isNegative() || rollbackAfter.isZero()) {
            throw new IllegalArgumentException("rollbackAfter must be a positive duration, longer than your longest "
                    + "database transaction that sends messages (e.g. 60s)");
        }
        this.rollbackAfter = rollbackAfter;
    }

    /** Decides a transaction; {@code startedAtMillis} is when its first half message was created. */
    public LocalTransactionState check(String transactionId, long startedAtMillis) {
        if (transactionId == null || transactionId.isEmpty()) {
            log.warn("Check-back without a transaction id: answering ROLLBACK (nothing can commit it)");
            return LocalTransactionState.ROLLBACK_MESSAGE;
        }
        if (transactionLog.contains(transactionId)) {
            return LocalTransactionState.COMMIT_MESSAGE;
        }
        long age = transactionLog.clock().millis() - startedAtMillis;
        return age > rollbackAfter.toMillis() ? LocalTransactionState.ROLLBACK_MESSAGE : LocalTransactionState.UNKNOW;
    }

    /** Decides the transaction of a half message handed over by a check-back. */
    public LocalTransactionState check(MessageExt halfMessage) {
        return check(halfMessage.getTransactionId(), halfMessage.getBornTimestamp());
    }

    public Duration rollbackAfter() {
        return rollbackAfter;
    }
}
