package dev.wharf.benchmarks.load;

/**
 * The measured interval of a run, shared by the load threads: before it opens they warm up, after it closes they
 * drain. Times are epoch milliseconds so that they compare with the messages' born timestamps. Thread-safe.
 */
final class Window {

    private volatile long startMillis = Long.MAX_VALUE;
    private volatile long endMillis = Long.MAX_VALUE;
    private volatile long startNanos;
    private volatile long endNanos;

    void open() {
        startNanos = System.nanoTime();
        startMillis = System.currentTimeMillis();
    }

    void close() {
        endNanos = System.nanoTime();
        endMillis = System.currentTimeMillis();
    }

    /** Whether the window is open now. */
    boolean isOpen() {
        return startMillis != Long.MAX_VALUE && endMillis == Long.MAX_VALUE;
    }

    /** Whether a message born at this time belongs to the measured interval. */
    boolean contains(long epochMillis) {
        return epochMillis >= startMillis && epochMillis < endMillis;
    }

    /** Length of the closed window in seconds. */
    double seconds() {
        return (endNanos - startNanos) / 1e9;
    }
}
