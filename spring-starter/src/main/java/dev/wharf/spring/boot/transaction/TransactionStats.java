package dev.wharf.spring.boot.transaction;

import dev.wharf.jms.spi.TransactionOutcome;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of the application's Wharf transactions since start: started, recorded in the database, ended, and the
 * check-backs answered by outcome. Read by the metrics; cheap to update (LongAdders). Thread-safe.
 */
public final class TransactionStats {

    private final LongAdder started = new LongAdder();
    private final LongAdder recorded = new LongAdder();
    private final LongAdder committed = new LongAdder();
    private final LongAdder rolledBack = new LongAdder();
    private final Map<TransactionOutcome, LongAdder> checks = new EnumMap<>(TransactionOutcome.class);

    public TransactionStats() {
        for (TransactionOutcome o : TransactionOutcome.values()) {
            checks.put(o, new LongAdder());
        }
    }

    void started(boolean recordedInDatabase) {
        started.increment();
        if (recordedInDatabase) {
            recorded.increment();
        }
    }

    void ended(boolean commit) {
        (commit ? committed : rolledBack).increment();
    }

    void checked(TransactionOutcome outcome) {
        checks.get(outcome).increment();
    }

    /** Transactions transacted sessions started (each with its first send). */
    public long started() {
        return started.sum();
    }

    /** Started transactions whose id was written in a Spring-managed database transaction. */
    public long recorded() {
        return recorded.sum();
    }

    /** Transactions the application committed. */
    public long committed() {
        return committed.sum();
    }

    /** Transactions the application rolled back (a database rollback included). */
    public long rolledBack() {
        return rolledBack.sum();
    }

    /** Check-backs this application answered with {@code outcome}. */
    public long checks(TransactionOutcome outcome) {
        return checks.get(outcome).sum();
    }

    @Override
    public String toString() {
        return "TransactionStats{started=" + started() + ", recorded=" + recorded() + ", committed=" + committed()
                + ", rolledBack=" + rolledBack() + ", checks=" + checks + "}";
    }
}
