package dev.wharf.remoting.codec;

import dev.wharf.common.util.RateLimitedLog;
import io.netty.channel.Channel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bytes of unfinished frames all connections of one endpoint may hold together. A frame is buffered until
 * its last byte arrives, so without a bound forty peers that each announce a 16 MiB frame and stop halfway hold
 * 640 MiB of the server's (direct) memory. Each connection's decoder reports what it holds after every read
 * through its {@link Account}; when the total passes the limit, the connections holding the most are closed, one
 * log line each, until the total is back under the limit. The largest holders go first so that a client in the
 * middle of one ordinary message is the last to be hit by a flood of huge unfinished ones.
 *
 * <p>Accounts hold the capacity of the buffers that keep unfinished frames, not just the bytes received: Netty
 * grows a buffer ahead of its data (to the next power of two, or by 4 MiB steps above 4 MiB), and that is
 * the memory the frames really take.
 *
 * <p>One connection alone never holds more than one unfinished frame, so {@code maxFrameLength} bounds it; this
 * budget bounds them all. Thread-safe: accounts are updated from every I/O thread.
 */
public final class PartialFrameBudget {

    private static final Logger log = LoggerFactory.getLogger(PartialFrameBudget.class);
    /** The bytes of an account that was closed (released or evicted). */
    private static final long CLOSED = -1;

    private final long limit;
    private final String limitKey;
    private final RateLimitedLog warnings;
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong evictions = new AtomicLong();
    private final Set<Account> accounts = ConcurrentHashMap.newKeySet();

    /**
     * @param limit    the most bytes of unfinished frames held at once, by all connections together
     * @param limitKey the setting that holds {@code limit}, named in the log line of a closed connection
     */
    public PartialFrameBudget(long limit, String limitKey, RateLimitedLog warnings) {
        if (limit < 1) {
            throw new IllegalArgumentException(limitKey + " must be positive, got " + limit);
        }
        this.limit = limit;
        this.limitKey = limitKey;
        this.warnings = warnings;
    }

    /** A budget that only counts: for endpoints with few, trusted connections (clients). */
    public static PartialFrameBudget unlimited() {
        return new PartialFrameBudget(Long.MAX_VALUE, "no limit", RateLimitedLog.of(log));
    }

    /** Opens the account of a new connection. */
    public Account open(Channel channel) {
        Account account = new Account(channel);
        accounts.add(account);
        return account;
    }

    /** Bytes of unfinished frames held now, by all connections. */
    public long heldBytes() {
        return held.get();
    }

    public long limit() {
        return limit;
    }

    /** Connections closed so far because the budget was exhausted. */
    public long evictions() {
        return evictions.get();
    }

    private void enforce() {
        while (held.get() > limit) {
            Account largest = null;
            long most = 0;
            for (Account account : accounts) {
                long bytes = account.bytes.get();
                if (bytes > most) {
                    most = bytes;
                    largest = account;
                }
            }
            if (largest == null) {
                return;
            }
            long total = held.get();
            long freed = largest.release();
            if (freed > 0) {
                evictions.incrementAndGet();
                warnings.warn("budget", "Closing connection from {}: unfinished frames of all connections hold {}"
                        + " bytes, over the limit of {} ({}); this connection held the most ({} bytes). Raise {} if"
                        + " many clients send large messages at once.", ChannelAddress.remote(largest.channel),
                        total, limit, limitKey, freed, limitKey);
                largest.channel.close();
            }
        }
    }

    /** What one connection holds; updated by its decoder on its I/O thread, read and evicted from any. */
    public final class Account {

        private final Channel channel;
        private final AtomicLong bytes = new AtomicLong();

        private Account(Channel channel) {
            this.channel = channel;
        }

        /**
         * Records that the connection now holds {@code now} bytes of an unfinished frame; if that exhausts the
         * budget, the largest holders (maybe this one) are closed.
         */
        public void hold(long now) {
            long before;
            do {
                before = bytes.get();
                if (before == CLOSED || before == now) {
                    return;
                }
            } while (!bytes.compareAndSet(before, now));
            if (held.addAndGet(now - before) > limit) {
                enforce();
            }
        }

        /** Whether the account was closed (the connection released or evicted). */
        public boolean closed() {
            return bytes.get() == CLOSED;
        }

        /**
         * Closes the account, giving its bytes back; idempotent.
         *
         * @return the bytes given back, or -1 if it was closed already
         */
        public long release() {
            long before = bytes.getAndSet(CLOSED);
            if (before == CLOSED) {
                return CLOSED;
            }
            held.addAndGet(-before);
            accounts.remove(this);
            return before;
        }
    }
}
