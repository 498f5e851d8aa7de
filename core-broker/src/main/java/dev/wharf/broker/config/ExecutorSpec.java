package dev.wharf.broker.config;

import dev.wharf.remoting.RemotingExecutors;
import java.util.List;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The size of one bounded request executor: its threads and how many requests may wait for them (a full queue
 * answers SYSTEM_BUSY at once).
 *
 * @param threads       worker threads
 * @param queueCapacity requests that may wait; 0 = none wait
 */
public record ExecutorSpec(int threads, int queueCapacity) {

    public ExecutorSpec withThreads(int threads) {
        return new ExecutorSpec(threads, queueCapacity);
    }

    public ExecutorSpec withQueueCapacity(int queueCapacity) {
        return new ExecutorSpec(threads, queueCapacity);
    }

    /** Adds a sentence to {@code errors} for a bad size, naming the configuration key it came from. */
    public void validate(List<String> errors, String threadsKey, String queueCapacityKey) {
        ConfigChecks.range(errors, threadsKey, threads, 1, 1024);
        ConfigChecks.range(errors, queueCapacityKey, queueCapacity, 0, Integer.MAX_VALUE);
    }

    /** A new executor of this size whose threads are named after {@code name}; threads start on first use. */
    public ThreadPoolExecutor newExecutor(String name) {
        return RemotingExecutors.bounded(name, threads, queueCapacity);
    }
}
