package dev.wharf.common.util;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * A WARN logger for paths a peer can drive as often as it likes (bad frames, refused requests): per key,
 * at most one line per interval is written; the lines in between are counted, and the next line written for
 * that key says how many were suppressed. A flood of 20,000 identical errors then costs a handful of lines
 * while the first of each kind still shows at once.
 *
 * <p>The key names the kind of event (its cause), not the peer, so that a flood from many peers is also
 * bounded. Keys are capped: beyond {@link #MAX_KEYS} distinct keys, events share one overflow key.
 *
 * <p>Arguments are formatted as by SLF4J; pass a cause as {@code e.toString()}, not as a trailing
 * {@link Throwable} (the suppressed count is appended after the last argument).
 *
 * <p>Thread-safe and lock-free; a suppressed event costs a map lookup and two atomic operations.
 */
public final class RateLimitedLog {

    /** Distinct keys tracked before new keys share {@link #OVERFLOW_KEY}. */
    public static final int MAX_KEYS = 256;
    /** The key of events whose own key did not fit under {@link #MAX_KEYS}. */
    public static final String OVERFLOW_KEY = "other";
    /** The interval used by {@link #of(Logger)}. */
    public static final long DEFAULT_INTERVAL_SECONDS = 10;

    private static final String SUPPRESSED = " ({} more like this suppressed)";

    private final Logger log;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong suppressed = new AtomicLong();

    /** Per key: when the next line may be written and how many were held back since the last one. */
    private static final class Window {
        final AtomicLong nextLineNanos;
        final AtomicLong held = new AtomicLong();

        Window(long now) {
            this.nextLineNanos = new AtomicLong(now);
        }
    }

    /**
     * @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime} outside tests)
     */
    public RateLimitedLog(Logger log, long interval, TimeUnit unit, LongSupplier nanoClock) {
        if (interval <= 0) {
            throw new IllegalArgumentException("interval must be positive, got " + interval);
        }
        this.log = log;
        this.intervalNanos = unit.toNanos(interval);
        this.nanoClock = nanoClock;
    }

    /** One line per key every {@value #DEFAULT_INTERVAL_SECONDS} seconds at most. */
    public static RateLimitedLog of(Logger log) {
        return new RateLimitedLog(log, DEFAULT_INTERVAL_SECONDS, TimeUnit.SECONDS, System::nanoTime);
    }

    /**
     * Writes {@code format} at WARN if no line of {@code key} was written in the last interval, else counts
     * it. A written line gets " (N more like this suppressed)" appended when earlier ones were held back.
     *
     * @return whether the line was written
     */
    public boolean warn(String key, String format, Object... args) {
        if (!log.isWarnEnabled()) {
            return false;
        }
        long held = admit(key);
        if (held < 0) {
            return false;
        }
        if (held == 0) {
            log.warn(format, args);
        } else {
            log.warn(format + SUPPRESSED, withCount(args, held));
        }
        return true;
    }

    /** As {@link #warn}, at ERROR: for events that lose something (a message that cannot be delivered). */
    public boolean error(String key, String format, Object... args) {
        if (!log.isErrorEnabled()) {
            return false;
        }
        long held = admit(key);
        if (held < 0) {
            return false;
        }
        if (held == 0) {
            log.error(format, args);
        } else {
            log.error(format + SUPPRESSED, withCount(args, held));
        }
        return true;
    }

    /** The events of the key held back since its last line, or -1 when this one is to be held back too. */
    private long admit(String key) {
        long now = nanoClock.getAsLong();
        Window window = window(key, now);
        long next = window.nextLineNanos.get();
        if (now - next < 0 || !window.nextLineNanos.compareAndSet(next, now + intervalNanos)) {
            window.held.incrementAndGet();
            suppressed.incrementAndGet();
            return -1;
        }
        written.incrementAndGet();
        return window.held.getAndSet(0);
    }

    private static Object[] withCount(Object[] args, long held) {
        Object[] out = Arrays.copyOf(args, args.length + 1);
        out[args.length] = held;
        return out;
    }

    private Window window(String key, long now) {
        Window window = windows.get(key);
        if (window != null) {
            return window;
        }
        String effective = windows.size() < MAX_KEYS ? key : OVERFLOW_KEY;
        return windows.computeIfAbsent(effective, k -> new Window(now));
    }

    /** Lines written so far. */
    public long linesWritten() {
        return written.get();
    }

    /** Events counted instead of written so far. */
    public long linesSuppressed() {
        return suppressed.get();
    }
}
