package dev.wharf.remoting.auth;

import dev.wharf.security.Session;
import dev.wharf.security.User;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the {@link AclGuard} keeps about one connection (its guard state): the nonce of a challenge in progress, the
 * session once authenticated, and the authorization decisions made for the connection's user, which stay valid until
 * the users file is reloaded (a reload makes new {@link User} objects, so the cache is keyed by that object).
 *
 * <p>Thread-safe.
 */
final class ConnectionAuth {

    /** Decisions kept per connection at most; a connection touching more resources decides the rest each time. */
    static final int MAX_DECISIONS = 256;
    /** The cached answer "allowed" (a denial is its sentence). */
    static final String ALLOWED = "";

    /** The decisions made for one user object. */
    private record Decisions(User user, ConcurrentHashMap<RequestAccess.Need, String> byNeed) {
    }

    private final AtomicReference<String> challenge = new AtomicReference<>();
    private volatile Session session;
    private volatile Decisions decisions;

    /** Issues a fresh challenge for the connection, replacing any earlier one. */
    String challenge() {
        String nonce = SessionHandshake.nonce();
        challenge.set(nonce);
        return nonce;
    }

    /** The challenge issued last, which can be answered once; null if none is open. */
    String takeChallenge() {
        return challenge.getAndSet(null);
    }

    Session session() {
        return session;
    }

    void bind(Session opened) {
        session = opened;
    }

    /** The cached decision of {@code need} for {@code user}: null when not decided yet. */
    String decision(User user, RequestAccess.Need need) {
        Decisions d = decisions;
        return d != null && d.user() == user ? d.byNeed().get(need) : null;
    }

    void remember(User user, RequestAccess.Need need, String denial) {
        Decisions d = decisions;
        if (d == null || d.user() != user) {
            d = new Decisions(user, new ConcurrentHashMap<>());
            decisions = d;
        }
        if (d.byNeed().size() < MAX_DECISIONS) {
            d.byNeed().put(need, denial == null ? ALLOWED : denial);
        }
    }
}
