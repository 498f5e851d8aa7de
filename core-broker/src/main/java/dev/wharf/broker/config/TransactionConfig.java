package dev.wharf.broker.config;

import java.util.List;

/**
 * Settings of transactional messages: how the broker asks producers about transactions left without an outcome
 * (check-back), and the executor that serves END_TRANSACTION.
 */
public class TransactionConfig {

    /** How often half messages without an outcome are looked for and their producers asked, in milliseconds. */
    private long transactionCheckInterval = 60_000;
    /** A transaction is asked about once its newest half message is this old, in milliseconds. */
    private long transactionTimeOut = 6_000;
    /** Check-backs of one transaction before its half messages are discarded (moved to TRANS_CHECK_MAX_TIME_TOPIC). */
    private int transactionCheckMax = 15;
    /** Serves END_TRANSACTION (commits write and may wait for the disk). */
    private ExecutorSpec endTransaction = new ExecutorSpec(
            Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors())), 100_000);

    /** Adds a sentence to {@code errors} for each bad setting, naming the key and what is allowed. */
    public void validate(List<String> errors) {
        ConfigChecks.range(errors, "transactionCheckInterval", transactionCheckInterval, 100, Long.MAX_VALUE);
        ConfigChecks.range(errors, "transactionTimeOut", transactionTimeOut, 0, Long.MAX_VALUE);
        ConfigChecks.range(errors, "transactionCheckMax", transactionCheckMax, 1, 10_000);
        endTransaction.validate(errors, "endTransactionThreadPoolNums", "endTransactionPoolQueueCapacity");
    }

    /** The size of the executor serving END_TRANSACTION. */
    public ExecutorSpec endTransaction() {
        return endTransaction;
    }

    public long getTransactionCheckInterval() {
        return transactionCheckInterval;
    }

    public void setTransactionCheckInterval(long transactionCheckInterval) {
        this.transactionCheckInterval = transactionCheckInterval;
    }

    public long getTransactionTimeOut() {
        return transactionTimeOut;
    }

    public void setTransactionTimeOut(long transactionTimeOut) {
        this.transactionTimeOut = transactionTimeOut;
    }

    public int getTransactionCheckMax() {
        return transactionCheckMax;
    }

    public void setTransactionCheckMax(int transactionCheckMax) {
        this.transactionCheckMax = transactionCheckMax;
    }

    public int getEndTransactionThreadPoolNums() {
        return endTransaction.threads();
    }

    public void setEndTransactionThreadPoolNums(int threads) {
        endTransaction = endTransaction.withThreads(threads);
    }

    public int getEndTransactionPoolQueueCapacity() {
        return endTransaction.queueCapacity();
    }

    public void setEndTransactionPoolQueueCapacity(int queueCapacity) {
        endTransaction = endTransaction.withQueueCapacity(queueCapacity);
    }
}
