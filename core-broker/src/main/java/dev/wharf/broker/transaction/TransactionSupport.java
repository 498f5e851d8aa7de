package dev.wharf.broker.transaction;

import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.broker.config.TransactionConfig;
import dev.wharf.broker.group.ProducerManager;
import dev.wharf.broker.processor.PutMessageHook;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.MessageStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.function.LongSupplier;

/**
 * Half-message transactions on a broker, built from its parts: the send hook that stores half messages, the
 * END_TRANSACTION processor with its executor, and the check-back service. The broker plugs each into its
 * extension points. See the package documentation for the design.
 */
public final class TransactionSupport {

    /** Ended transactions remembered for retried END_TRANSACTIONs and late answers. */
    private static final int DECIDED_CAPACITY = 100_000;
    static final String PROGRESS_FILE = "transactionCheckProgress.json";

    private final TransactionIndex index = new TransactionIndex(DECIDED_CAPACITY);
    private final HalfMessageHook hook;
    private final EndTransactionProcessor processor;
    private final ExecutorService executor;
    private final TransactionCheckService checkService;
    private final TransactionChecker checker;
    private final LongSupplier clock;

    /**
     * @param storeRoot the store's root folder; the check progress goes to its {@code config/} folder
     * @param storeHost the broker's packed address, for the records it writes (known once it listens)
     * @param delays    schedules committed messages that carry a delivery delay
     */
    public TransactionSupport(BrokerConfig config, MessageStore store, ProducerManager producers, Path storeRoot,
                              LongSupplier storeHost, LongSupplier clock, DelayRouter delays) {
        this.clock = clock;
        HalfQueueFollower follower = new HalfQueueFollower(store, index);
        TransactionResolver resolver = new TransactionResolver(store, index, storeHost, config.getBrokerName(), delays);
        TransactionSizeGuard sizes = new TransactionSizeGuard(store.config().maxBatchBytes());
        this.hook = new HalfMessageHook(index, sizes, clock, delays);
        this.processor = new EndTransactionProcessor(store, follower, resolver, config.getBrokerName());
        TransactionConfig settings = config.transaction();
        this.executor = settings.endTransaction().newExecutor("wharf-end-transaction");
        this.checker = new TransactionChecker(store, producers);
        this.checkService = new TransactionCheckService(store, index, follower, resolver, checker, sizes,
                JsonConfigFile.inConfigDir(storeRoot, PROGRESS_FILE, TransactionCheckService.Progress.class), executor,
                settings.getTransactionCheckInterval(), settings.getTransactionTimeOut(), settings.getTransactionCheckMax(),
                clock);
    }

    /** Stores messages sent with TRAN_MSG=true as half messages. */
    public PutMessageHook halfMessageHook() {
        return hook;
    }

    /** Serves END_TRANSACTION; register it on {@link #endTransactionExecutor()}. */
    public RequestProcessor endTransactionProcessor() {
        return processor;
    }

    /** The executor END_TRANSACTION runs on; {@link #shutdown()} stops it. */
    public ExecutorService endTransactionExecutor() {
        return executor;
    }

    /**
     * Rebuilds the transaction index from the half topic, then starts the check-back rounds. Call after the store
     * started and before clients connect.
     */
    public void start() throws IOException {
        checkService.start();
    }

    /**
     * Starts the check-back rounds again after {@link #stopCheckBack()} (a replica elected master again): the index
     * is rebuilt from the half topic as at start.
     */
    public void startCheckBack() throws IOException {
        checkService.start();
    }

    /**
     * Stops the check-back rounds and persists their progress, leaving END_TRANSACTION processing on (a master
     * that became a slave: its puts are refused, so it must not ask producers about transactions).
     */
    public void stopCheckBack() {
        checkService.stopRounds();
    }

    /** Stops END_TRANSACTION processing and the check-back, and persists the check progress. Never throws. */
    public void shutdown() {
        checkService.shutdown();
    }

    /** Transactions with half messages and no outcome (diagnostics, tests). */
    public int openTransactionCount() {
        return index.openCount();
    }

    /** How long the oldest open transaction's first half message has been stored, or -1 when none is open. */
    public long oldestOpenTransactionAgeMillis() {
        long stored = index.oldestOpenStoreTime();
        return stored < 0 ? -1 : Math.max(0, clock.getAsLong() - stored);
    }

    /** Check rounds completed since the broker started (diagnostics, tests). */
    public long checkRounds() {
        return checkService.rounds();
    }

    /** Check-back requests sent to producers since the broker started. */
    public long checkBacksSent() {
        return checker.sentCount();
    }

    /** The half queue offset below which every transaction ended, as last persisted (diagnostics, tests). */
    public long checkProgressOffset() {
        return checkService.persistedProgressOffset();
    }
}
