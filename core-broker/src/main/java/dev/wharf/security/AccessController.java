package dev.wharf.security;

import dev.wharf.common.SystemTopics;
import java.security.MessageDigest;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Decides requests: {@link #authenticate} checks who signed a request, {@link #authorize} whether that user may do an
 * action on a resource. Both answer with a result, never an exception (refusals come at the request rate).
 *
 * <p>Authorization: a super user may do everything; otherwise a matching DENY policy refuses, then a matching ALLOW
 * policy grants, and anything not granted is refused. The broker's internal topics (scheduled delivery, transaction
 * halves, acknowledgement log) are closed to everyone but super users.
 *
 * <p>Thread-safe.
 */
public final class AccessController {

    /** The outcome of {@link #authenticate}: a user, or the reason there is none. */
    public record Authentication(User user, String failure) {

        public boolean succeeded() {
            return user != null;
        }
    }

    /** A key nobody holds, used for unknown users so their refusal costs what a wrong signature costs. */
    private static final byte[] NOBODY = new byte[PasswordHasher.KEY_BITS / 8];

    private final AclStore users;
    private final long replayWindowMillis;
    private final LongSupplier clock;

    /**
     * @param replayWindowMillis how far a request's signing time may lie from the server's clock, either way
     */
    public AccessController(AclStore users, long replayWindowMillis, LongSupplier clock) {
        this.users = users;
        this.replayWindowMillis = replayWindowMillis;
        this.clock = clock;
    }

    public AclStore users() {
        return users;
    }

    /** Checks the signature fields of a request (see {@link RequestSignature}). */
    public Authentication authenticate(int code, Map<String, String> fields, byte[] body) {
        Checked checked = check(code, fields, body, true);
        return checked.entry() == null ? new Authentication(null, checked.failure())
                : new Authentication(checked.entry().user(), null);
    }

    /**
     * Opens a session for a connection whose handshake request (its fields signed as any request, see
     * {@link RequestSignature}) the caller has matched to the nonce this server issued for the connection. Does not
     * look at the users file's modification time (called on an I/O thread): the requests of the session do that.
     */
    public SessionOpening openSession(int code, Map<String, String> fields) {
        Checked checked = check(code, fields, null, false);
        return checked.entry() == null ? new SessionOpening(null, checked.failure())
                : new SessionOpening(new Session(checked.entry()), null);
    }

    /** The outcome of {@link #openSession}: a session, or the reason there is none. */
    public record SessionOpening(Session session, String failure) {

        public boolean succeeded() {
            return session != null;
        }
    }

    /**
     * The user of a request that came on a connection with {@code session}: the session's user as the users file
     * holds it now (rights reloaded), unless the file no longer holds that user or holds it with another password,
     * which ends the session. On the request path: no allocation while the file is unchanged.
     */
    public Authentication resume(Session session) {
        String ended = session.ended();
        if (ended != null) {
            return new Authentication(null, ended);
        }
        AclStore.Entry now = users.find(session.user());
        Authentication same = session.answerFor(now);
        if (same != null) {
            return same;
        }
        if (now == null || !MessageDigest.isEqual(now.key(), session.provenKey())) {
            String reason = "the session of user '" + session.user() + "' on this connection has ended: the users"
                    + " file no longer holds that user, or holds it with another password; connect and authenticate"
                    + " again";
            session.end(reason);
            return new Authentication(null, reason);
        }
        return session.renew(now);
    }

    /**
     * The signature (as {@link RequestSignature#sign}) of {@code fields} made with the key {@code session} was
     * proven with: the server's half of the session handshake. Looks nothing up (called on an I/O thread).
     */
    public String sessionProof(Session session, int code, Map<String, String> fields) {
        return RequestSignature.sign(session.provenKey(), code, fields, null, null);
    }

    /** The entry that signed a request, or the failure. */
    private record Checked(AclStore.Entry entry, String failure) {
    }

    /** {@code reload}: whether the users file may be reloaded first (not on an I/O thread). */
    private Checked check(int code, Map<String, String> fields, byte[] body, boolean reload) {
        String user = fields.get(RequestSignature.ACCESS_KEY);
        String signature = fields.get(RequestSignature.SIGNATURE);
        String timestamp = fields.get(RequestSignature.TIMESTAMP);
        if (user == null || signature == null || timestamp == null) {
            return new Checked(null, "the request carries no credentials (fields " + RequestSignature.ACCESS_KEY
                    + ", " + RequestSignature.TIMESTAMP + ", " + RequestSignature.SIGNATURE + ") and its connection"
                    + " no authenticated session; this server requires authentication: configure a user name and"
                    + " password on the client");
        }
        long signedAt;
        try {
            signedAt = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return new Checked(null, "the request's " + RequestSignature.TIMESTAMP + " is not a number");
        }
        long skew = Math.abs(clock.getAsLong() - signedAt);
        if (skew > replayWindowMillis) {
            return new Checked(null, "the request of user '" + user + "' was signed " + skew + " ms away from"
                    + " this server's time, outside the " + replayWindowMillis + " ms window; synchronise the clocks"
                    + " (NTP) of client and server");
        }
        AclStore.Entry entry = reload ? users.find(user) : users.current(user);
        boolean valid = RequestSignature.verify(entry == null ? NOBODY : entry.key(), code, fields, body, signature);
        if (entry == null || !valid) {
            // one message for both, so a caller cannot tell which user names exist
            return new Checked(null, "authentication of user '" + user + "' failed: unknown user or wrong"
                    + " password");
        }
        return new Checked(entry, null);
    }

    /**
     * The signature (as {@link RequestSignature#sign}) of {@code fields} made with {@code user}'s key, for the
     * server's half of a challenge-response handshake (replication): the server proves it knows the user's key. An
     * unknown user gets a signature with a key nobody holds, so the answer does not tell which users exist.
     */
    public String countersign(String user, int code, Map<String, String> fields) {
        AclStore.Entry entry = users.find(user);
        return RequestSignature.sign(entry == null ? NOBODY : entry.key(), code, fields, null, null);
    }

    /** Null when {@code user} may do {@code action} on {@code resource}, else the sentence that says why not. */
    public String authorize(User user, Resource resource, Action action) {
        if (user.superUser()) {
            return null;
        }
        if (resource.type() == ResourceType.TOPIC && isInternalTopic(resource.name())) {
            return "user '" + user.name() + "' may not " + action + " " + resource + ": it is an internal topic of"
                    + " the broker, open to super users only";
        }
        boolean allowed = false;
        for (Policy p : user.policies()) {
            if (p.covers(resource, action)) {
                if (!p.allow()) {
                    return "user '" + user.name() + "' is denied " + action + " on " + resource + " by the policy "
                            + p;
                }
                allowed = true;
            }
        }
        return allowed ? null : "user '" + user.name() + "' lacks " + action + " on " + resource
                + "; grant it with 'wharf admin acl-set --user " + user.name() + " --resource " + resource
                + " --actions " + action + "'";
    }

    private static boolean isInternalTopic(String topic) {
        return SystemTopics.isInternal(topic);
    }
}
