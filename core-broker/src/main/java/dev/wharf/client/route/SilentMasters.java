package dev.wharf.client.route;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Master addresses that left a send unanswered, and whether a send may go to one now. A master that is paused
 * (SIGSTOP, a long GC) or cut off keeps its connection open and answers nothing; every send to it waits for its
 * whole attempt timeout, while the controllers elect another replica. After one unanswered send, the address is
 * held for a quiet period: sends to its broker name wait for a route naming another master instead of sending
 * (they stored nothing, so they retry without duplicates). After the quiet period one send at a time probes the
 * address; an answer clears it at once, another silence starts a new quiet period (a probe that never reports
 * frees the turn after a quiet period). So a master that was only slow
 * costs at most one quiet period, and a paused one costs each producer one timed-out attempt, not one per send.
 *
 * <p>Keyed by address, not broker name: the new master of the same broker name is another address and is used as
 * soon as the route names it. Thread-safe; lock-free.
 */
public final class SilentMasters {

    /** What a send to an address may do now. */
    public enum Permit {
        /** No recent silence: send. */
        SEND,
        /** Silent recently; this send is the one probe: send, then report {@link #answered} or {@link #silent}. */
        PROBE,
        /** Silent recently (or another send is probing): do not send; wait for a route change. */
        HOLD
    }

    private static final class Silence {
        final long quietUntil;
        /** When the current probe began, or 0 when none is out (a probe lost without report expires). */
        final AtomicLong probingSince = new AtomicLong();

        Silence(long quietUntil) {
            this.quietUntil = quietUntil;
        }
    }

    private final Map<String, Silence> silences = new ConcurrentHashMap<>();
    private final long quietMillis;
    private final LongSupplier clock;

    /** @param quietMillis how long after a silence no send goes to the address (then one probe at a time) */
    public SilentMasters(long quietMillis) {
        this(quietMillis, System::currentTimeMillis);
    }

    /** With a clock in milliseconds (tests pass their own). */
    public SilentMasters(long quietMillis, LongSupplier clock) {
        if (quietMillis < 0) {
            throw new IllegalArgumentException("quietMillis must be at least 0, got " + quietMillis);
        }
        this.quietMillis = quietMillis;
        this.clock = clock;
    }

    /** Whether a send may go to {@code address} now; a {@link Permit#PROBE} must be followed by a report. */
    public Permit permit(String address) {
        Silence s = silences.get(address);
        if (s == null) {
            return Permit.SEND;
        }
        if (clock.getAsLong() < s.quietUntil) {
            return Permit.HOLD;
        }
        long now = clock.getAsLong();
        long since = s.probingSince.get();
        boolean free = since == 0 || now - since >= quietMillis;
        return free && s.probingSince.compareAndSet(since, Math.max(1, now)) ? Permit.PROBE : Permit.HOLD;
    }

    /** A send to {@code address} went out and got no answer in time: hold the address for the quiet period. */
    public void silent(String address) {
        silences.put(address, new Silence(clock.getAsLong() + quietMillis));
    }

    /** {@code address} answered a send (any answer, even a refusal): it is not silent. */
    public void answered(String address) {
        if (!silences.isEmpty()) {
            silences.remove(address);
        }
    }

    /** A probe ended without an answer either way (no connection, say): let another send probe. */
    public void probeEnded(String address) {
        Silence s = silences.get(address);
        if (s != null) {
            s.probingSince.set(0);
        }
    }

    /** Whether {@code address} is held now (for messages). */
    public boolean isHeld(String address) {
        Silence s = silences.get(address);
        return s != null && (clock.getAsLong() < s.quietUntil || s.probingSince.get() != 0);
    }

    public long quietMillis() {
        return quietMillis;
    }
}
