package dev.wharf.security;

import dev.wharf.common.SystemTopics;
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
        String user = fields.get(RequestSignature.ACCESS_KEY);
        String signature = fields.get(RequestSignature.SIGNATURE);
        String timestamp = fields.get(RequestSignature.TIMESTAMP);
        if (user == null || signature == null || timestamp == null) {
            return new Authentication(null, "the request carries no credentials (fields " + RequestSignature.ACCESS_KEY
                    + ", " + RequestSignature.TIMESTAMP + ", " + RequestSignature.SIGNATURE + "); this server requires"
                    + " authentication: configure a user name and password on the client");
        }
        long signedAt;
        try {
            signedAt = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return new Authentication(null, "the request's " + RequestSignature.TIMESTAMP + " is not a number");
        }
        long skew = Math.abs(clock.getAsLong() - signedAt);
        if (skew > replayWindowMillis) {
            return new Authentication(null, "the request of user '" + user + "' was signed " + skew + " ms away from"
                    + " this server's time, outside the " + replayWindowMillis + " ms window; synchronise the clocks"
                    + " (NTP) of client and server");
        }
        AclStore.Entry entry = users.find(user);
        boolean valid = RequestSignature.verify(entry == null ? NOBODY : entry.key(), code, fields, body, signature);
        if (entry == null || !valid) {
            // one message for both, so a caller cannot tell which user names exist
            return new Authentication(null, "authentication of user '" + user + "' failed: unknown user or wrong"
                    + " password");
        }
        return new Authentication(entry.user(), null);
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
