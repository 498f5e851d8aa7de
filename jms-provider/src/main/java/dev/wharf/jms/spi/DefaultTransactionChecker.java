package dev.wharf.jms.spi;

/**
 * The check-back answer of a plain JMS application: a transaction whose session is alive here is not decided yet
 * (UNKNOWN); one its session committed or rolled back gets that answer; one started here whose session is gone
 * is rolled back; one of another process is left to that process (UNKNOWN) until it is older than
 * {@code timeoutMillis}, then presumed abandoned and rolled back. So a client that dies before commit leaves
 * nothing visible. Immutable.
 */
public final class DefaultTransactionChecker implements TransactionChecker {

    private final long timeoutMillis;

    /** @param timeoutMillis age after which another process's transaction counts as abandoned */
    public DefaultTransactionChecker(long timeoutMillis) {
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("timeoutMillis is " + timeoutMillis + "; give 0 or more milliseconds.");
        }
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public TransactionOutcome check(TransactionCheck check) {
        return switch (check.local()) {
            case OPEN -> TransactionOutcome.UNKNOWN;
            case COMMITTED -> TransactionOutcome.COMMIT;
            case ROLLED_BACK, ABANDONED -> TransactionOutcome.ROLLBACK;
            case FOREIGN -> System.currentTimeMillis() - check.firstSentAt() > timeoutMillis
                    ? TransactionOutcome.ROLLBACK : TransactionOutcome.UNKNOWN;
        };
    }

    public long timeoutMillis() {
        return timeoutMillis;
    }

    @Override
    public String toString() {
        return "DefaultTransactionChecker{timeout=" + timeoutMillis + " ms}";
    }
}
