package dev.wharf.spring.boot.transaction;

import dev.wharf.jms.spi.TransactionCheck;
import dev.wharf.jms.spi.TransactionChecker;
import dev.wharf.jms.spi.TransactionOutcome;
import dev.wharf.txchecker.JdbcTransactionChecker;
import dev.wharf.txchecker.JdbcTransactionLog;
import java.util.Objects;

/**
 * Answers the broker's check-backs for the application, the database first: a transaction whose log row is there
 * committed its database transaction, so its messages commit (COMMIT), whatever this process remembers. Without a
 * row, what this process knows decides: a transaction its session committed (one outside any database transaction)
 * commits, one it rolled back rolls back, one still open is not decided yet (UNKNOWN). A transaction of a process
 * that is gone (another instance, or this one before a restart) or abandoned by its session is rolled back once it
 * is older than {@code rollbackAfter}, and left UNKNOWN before that, since its database transaction may still
 * commit.
 *
 * <p>A database failure makes the answer UNKNOWN (the provider logs it; the broker asks again). Thread-safe.
 */
public final class DatabaseTransactionChecker implements TransactionChecker {

    private final JdbcTransactionLog transactionLog;
    private final JdbcTransactionChecker rule;
    private final TransactionStats stats;

    public DatabaseTransactionChecker(JdbcTransactionLog transactionLog, JdbcTransactionChecker rule,
                                      TransactionStats stats) {
        this.transactionLog = Objects.requireNonNull(transactionLog, "transactionLog");
        this.rule = Objects.requireNonNull(rule, "rule");
        this.stats = Objects.requireNonNull(stats, "stats");
    }

    @Override
    public TransactionOutcome check(TransactionCheck check) {
        TransactionOutcome outcome = decide(check);
        stats.checked(outcome);
        return outcome;
    }

    private TransactionOutcome decide(TransactionCheck check) {
        if (check.transactionId() != null && transactionLog.contains(check.transactionId())) {
            return TransactionOutcome.COMMIT;
        }
        return switch (check.local()) {
            case COMMITTED -> TransactionOutcome.COMMIT;
            case ROLLED_BACK -> TransactionOutcome.ROLLBACK;
            case OPEN -> TransactionOutcome.UNKNOWN;
            case ABANDONED, FOREIGN -> switch (rule.check(check.transactionId(), check.firstSentAt())) {
                case COMMIT_MESSAGE -> TransactionOutcome.COMMIT;
                case ROLLBACK_MESSAGE -> TransactionOutcome.ROLLBACK;
                case UNKNOW -> TransactionOutcome.UNKNOWN;
            };
        };
    }
}
