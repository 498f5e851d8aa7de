package dev.wharf.jms.engine;

import dev.wharf.common.message.UniqueIdGenerator;
import dev.wharf.jms.spi.TransactionCheck;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The Wharf transactions of this process's transacted sessions and how they ended, so that a check-back can be
 * answered from what the process knows (see {@link dev.wharf.jms.spi.DefaultTransactionChecker}). Every half
 * message carries {@link #PROCESS}, the id of the process that started its transaction. Decided transactions are
 * remembered for {@link #MEMORY_MILLIS} (a check-back comes within seconds to minutes of the decision). Thread-safe.
 */
public final class LiveTransactions {

    /** Identifies this process (run) in the half messages it sends. */
    public static final String PROCESS = UniqueIdGenerator.next();
    /** How long an ended transaction's outcome is remembered. */
    static final long MEMORY_MILLIS = 3_600_000;

    private record Entry(TransactionCheck.Local state, long since) {
    }

    /** A decided transaction, in the order of decisions, so forgetting old ones looks at old ones only. */
    private record Decided(String transactionId, Entry entry) {
    }

    private static final Map<String, Entry> TRANSACTIONS = new ConcurrentHashMap<>();
    private static final Queue<Decided> DECIDED = new ConcurrentLinkedQueue<>();

    private LiveTransactions() {
    }

    /** A session started a transaction. */
    public static void opened(String transactionId) {
        forgetOld(System.currentTimeMillis() - MEMORY_MILLIS);
        TRANSACTIONS.put(transactionId, new Entry(TransactionCheck.Local.OPEN, System.currentTimeMillis()));
    }

    /** A session ended a transaction (committed: its decision was commit, whether the broker confirmed or not). */
    public static void ended(String transactionId, boolean committed) {
        Entry e = new Entry(committed ? TransactionCheck.Local.COMMITTED : TransactionCheck.Local.ROLLED_BACK,
                System.currentTimeMillis());
        TRANSACTIONS.put(transactionId, e);
        DECIDED.add(new Decided(transactionId, e));
    }

    /** A transaction no check-back will ever ask about (it stored no half message): nothing to remember. */
    public static void forget(String transactionId) {
        TRANSACTIONS.remove(transactionId);
    }

    /**
     * What this process knows of a transaction.
     *
     * @param owner the process id its half message carries (null when it carries none)
     */
    public static TransactionCheck.Local state(String transactionId, String owner) {
        Entry e = transactionId == null ? null : TRANSACTIONS.get(transactionId);
        if (e != null) {
            return e.state();
        }
        return PROCESS.equals(owner) ? TransactionCheck.Local.ABANDONED : TransactionCheck.Local.FOREIGN;
    }

    /** Forgets the decisions made before {@code before}; looks at no more entries than it forgets, plus one. */
    static void forgetOld(long before) {
        for (Decided d = DECIDED.peek(); d != null && d.entry().since() < before; d = DECIDED.peek()) {
            if (DECIDED.remove(d)) {
                TRANSACTIONS.remove(d.transactionId(), d.entry());
            }
        }
    }
}
