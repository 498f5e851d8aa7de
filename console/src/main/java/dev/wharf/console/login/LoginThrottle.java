package dev.wharf.console.login;

import dev.wharf.console.ConsoleSettings;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The brake on password guessing: after {@code loginMaxFailures} failed sign-ins within {@code loginWindow} from one
 * client address, or for one user name, further attempts from that address or for that name are refused until the
 * oldest of those failures leaves the window. Counting per name as well stops guessing spread over many addresses;
 * counting per address stops one address trying many names. A success clears the address's and the name's
 * failures. At most {@link #MAX_KEYS} addresses and names are remembered (expired ones are dropped first), so a
 * flood of made-up names cannot fill the memory. Thread-safe.
 */
@Component
public class LoginThrottle {

    static final int MAX_KEYS = 10_000;
    private static final long SWEEP_INTERVAL_MILLIS = 1_000;

    private final int maxFailures;
    private final long windowMillis;
    private final LongSupplier clock;
    private final Map<String, Deque<Long>> failures = new ConcurrentHashMap<>();
    private volatile long lastSweep;

    @Autowired
    public LoginThrottle(ConsoleSettings settings) {
        this(settings.loginMaxFailures(), settings.loginWindow().toMillis(), System::currentTimeMillis);
    }

    LoginThrottle(int maxFailures, long windowMillis, LongSupplier clock) {
        if (maxFailures < 1 || windowMillis < 1) {
            throw new IllegalStateException("wharf.console.login-max-failures must be at least 1 and"
                    + " wharf.console.login-window positive; they are " + maxFailures + " and " + windowMillis + " ms");
        }
        this.maxFailures = maxFailures;
        this.windowMillis = windowMillis;
        this.clock = clock;
    }

    /** Milliseconds until a sign-in from {@code address} as {@code user} may be tried again; 0: now. */
    public long retryAfterMillis(String address, String user) {
        long now = clock.getAsLong();
        return Math.max(wait(addressKey(address), now), wait(userKey(user), now));
    }

    /** Notes a failed sign-in. */
    public void failed(String address, String user) {
        long now = clock.getAsLong();
        if (failures.size() >= MAX_KEYS && now - lastSweep >= SWEEP_INTERVAL_MILLIS) {
            lastSweep = now; // a sweep walks every key: at most one per interval, however fast failures come
            dropExpired(now);
        }
        note(addressKey(address), now);
        note(userKey(user), now);
    }

    /** A sign-in succeeded: the address and the name start afresh. */
    public void succeeded(String address, String user) {
        failures.remove(addressKey(address));
        failures.remove(userKey(user));
    }

    /** Addresses and names with failures remembered now. */
    int size() {
        return failures.size();
    }

    /** Forgets every failure, so that every address and name may try again at once (tests). */
    public void clear() {
        failures.clear();
    }

    private long wait(String key, long now) {
        Deque<Long> times = failures.get(key);
        if (times == null) {
            return 0;
        }
        synchronized (times) {
            prune(times, now);
            return times.size() < maxFailures ? 0 : times.peekFirst() + windowMillis - now;
        }
    }

    private void note(String key, long now) {
        if (failures.size() >= MAX_KEYS && !failures.containsKey(key)) {
            // still full of live entries: forget some key rather than grow without bound
            Iterator<String> it = failures.keySet().iterator();
            if (it.hasNext()) {
                it.next();
                it.remove();
            }
        }
        Deque<Long> times = failures.computeIfAbsent(key, k -> new ArrayDeque<>());
        synchronized (times) {
            prune(times, now);
            times.addLast(now);
            while (times.size() > maxFailures) {
                times.removeFirst(); // only the newest maxFailures decide when the brake lets go
            }
        }
    }

    private void prune(Deque<Long> times, long now) {
        while (!times.isEmpty() && times.peekFirst() <= now - windowMillis) {
            times.removeFirst();
        }
    }

    private void dropExpired(long now) {
        failures.entrySet().removeIf(e -> {
            synchronized (e.getValue()) {
                prune(e.getValue(), now);
                return e.getValue().isEmpty();
            }
        });
    }

    private static String addressKey(String address) {
        return "address " + address;
    }

    private static String userKey(String user) {
        return "user " + (user == null ? "" : user.trim());
    }
}
