package dev.wharf.security;

import dev.wharf.security.AccessController.Authentication;

/**
 * A connection's proof of who it speaks for, made once by a challenge-response (see {@link
 * AccessController#openSession}); the requests that follow on the connection carry no signature of their own. It
 * remembers the key the user proved to hold, so a reload of the users file that deletes the user or gives it another
 * password ends the session ({@link AccessController#resume}), while one that only changes its rights keeps it,
 * with the new rights. An ended session stays ended.
 *
 * <p>Thread-safe: requests of one connection may be checked on several threads at once.
 */
public final class Session {

    /** The users-file entry the session last resumed with, and the answer made from it (reused, not rebuilt). */
    private record Current(AclStore.Entry entry, Authentication authentication) {
    }

    private final String user;
    private final byte[] provenKey;
    private volatile Current current;
    private volatile String ended;

    Session(AclStore.Entry entry) {
        this.user = entry.user().name();
        this.provenKey = entry.key();
        this.current = new Current(entry, new Authentication(entry.user(), null));
    }

    /** The name of the user the connection authenticated as. */
    public String user() {
        return user;
    }

    /** Null while the session holds, else the sentence that says why it ended. */
    public String ended() {
        return ended;
    }

    byte[] provenKey() {
        return provenKey;
    }

    /** The answer for {@code entry} when it is the one the session knows, else null. */
    Authentication answerFor(AclStore.Entry entry) {
        Current c = current;
        return c.entry() == entry ? c.authentication() : null;
    }

    /** The session continues with a reloaded entry of its user (same key, rights possibly changed). */
    Authentication renew(AclStore.Entry entry) {
        Authentication answer = new Authentication(entry.user(), null);
        current = new Current(entry, answer);
        return answer;
    }

    void end(String reason) {
        ended = reason;
    }

    @Override
    public String toString() {
        return "Session{user=" + user + (ended != null ? ", ended" : "") + "}";
    }
}
