package dev.wharf.common.util;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * A logger for paths a peer can drive as often as it likes (bad frames, refused requests): per key, at most
 * one line per interval is written; the lines in between are counted, and the next line written for that key
 * says how many were suppressed. A flood of 20,000 identical errors then costs a handful of lines while the
 * first of each kind still shows at once. Counts still pending when a flood stops are written once the
 * interval has passed (by {@link #flush()}, which a shared daemon thread calls every second for the limiters
 * made by {@link #of}), so no suppressed event goes unreported.
 *
 * <p>The key names the kind of event (its cause), not the peer, so that a flood from many peers is also
 * bounded. Keys are capped: beyond {@link #MAX_KEYS} distinct keys, events share one overflow key.
 *
 * <p>Arguments are formatted as by SLF4J; pass a cause as {@code e.toString()}, not as a trailing
 * {@link Throwable} (the suppressed count is appended after the last argument).
 *
 * <p>Thread-safe and lock-free; a suppressed event costs a map lookup, three atomic operations and two
 * volatile writes.
 */
public final class RateLimitedLog {

    /** Distinct keys tracked before new keys share {@link #OVERFLOW_KEY}. */
    public static final int MAX_KEYS = 256;
    /** The key of events whose own key did not fit under {@link #MAX_KEYS}. */
    public static final String OVERFLOW_KEY = "other";
    /** The interval used by {@link #of(Logger)}. */
    public static final long DEFAULT_INTERVAL_SECONDS = 10;

    private static final String SUPPRESSED = " ({} more like this suppressed)";

    /** Every live limiter, weakly held, for the flusher. */
    private static final Set<RateLimitedLog> LIVE = Collections.synchronizedSet(
            Collections.newSetFromMap(new WeakHashMap<>()));

    static {
        ScheduledThreadPoolExecutor flusher = new ScheduledThreadPoolExecutor(1,
                new NamedThreadFactory("wharf-log-flush"));
        flusher.scheduleWithFixedDelay(RateLimitedLog::flushAll, 1, 1, TimeUnit.SECONDS);
    }

    private final Logger log;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong suppressed = new AtomicLong();

    /** Per key: when the next line may be written, how many were held back since the last one, the last held. */
    private static final class Window {
        final AtomicLong nextLineNanos;
        final AtomicLong held = new AtomicLong();
        volatile boolean error;
        volatile String lastFormat;
        volatile Object[] lastArgs;

        Window(long now) {
            this.nextLineNanos = new AtomicLong(now);
        }
    }

    /**
     * A limiter on a clock of its own; its pending counts are written by the next line of their key or by calls
     * to {@link #flush()}, not by the shared flusher (which would race a test's clock).
     *
     * @param nanoClock a monotonic clock in nanoseconds
     */
    public RateLimitedLog(Logger log, long interval, TimeUnit unit, LongSupplier nanoClock) {
        if (interval <= 0) {
            throw new IllegalArgumentException("interval must be positive, got " + interval);
        }
        this.log = log;
        this.intervalNanos = unit.toNanos(interval);
        this.nanoClock = nanoClock;
    }

    /**
     * One line per key every {@value #DEFAULT_INTERVAL_SECONDS} seconds at most, on the system clock; pending
     * counts are flushed by the shared daemon thread.
     */
    public static RateLimitedLog of(Logger log) {
        RateLimitedLog limiter = new RateLimitedLog(log, DEFAULT_INTERVAL_SECONDS, TimeUnit.SECONDS, System::nanoTime);
        LIVE.add(limiter);
        return limiter;
    }

    /**
     * Writes {@code format} at WARN if no line of {@code key} was written in the last interval, else counts
     * it. A written line gets " (N more like this suppressed)" appended when earlier ones were held back.
     *
     * @return whether the line was written
     */
    public boolean warn(String key, String format, Object... args) {
        return log.isWarnEnabled() && write(key, false, format, args);
    }

    /** As {@link #warn}, at ERROR: for events that lose something (a message that cannot be delivered). */
    public boolean error(String key, String format, Object... args) {
        return log.isErrorEnabled() && write(key, true, format, args);
    }

    private boolean write(String key, boolean error, String format, Object[] args) {
        long now = nanoClock.getAsLong();
        Window window = window(key, now);
        long next = window.nextLineNanos.get();
        if (now - next < 0 || !window.nextLineNanos.compareAndSet(next, now + intervalNanos)) {
            window.error = error;
            window.lastFormat = format;
            window.lastArgs = args;
            window.held.incrementAndGet();
            suppressed.incrementAndGet();
            return false;
        }
        emit(error, format, args, window.held.getAndSet(0));
        return true;
    }

    /**
     * Writes, for every key whose interval has passed with events held back, the last of them with the count of
     * the others; called every second by a shared daemon thread.
     */
    public void flush() {
        long now = nanoClock.getAsLong();
        for (Window window : windows.values()) {
            long next = window.nextLineNanos.get();
            if (window.held.get() == 0 || now - next < 0
                    || !window.nextLineNanos.compareAndSet(next, now + intervalNanos)) {
                continue;
            }
            long held = window.held.getAndSet(0);
            if (held > 0) {
                // the last held event is the line itself; the count says how many came before it
                suppressed.decrementAndGet();
                emit(window.error, window.lastFormat, window.lastArgs, held - 1);
            }
        }
    }

    private void emit(boolean error, String format, Object[] args, long held) {
        written.incrementAndGet();
        String line = held == 0 ? format : format + SUPPRESSED;
        Object[] values = held == 0 ? args : withCount(args, held);
        if (error) {
            log.error(line, values);
        } else {
            log.warn(line, values);
        }
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

    private static void flushAll() {
        List<RateLimitedLog> live;
        synchronized (LIVE) {
            live = new ArrayList<>(LIVE);
        }
        for (RateLimitedLog limiter : live) {
            try {
                limiter.flush();
            } catch (RuntimeException e) {
                // a logging back end that fails must not stop the other limiters' flushes
            }
        }
    }
}
