package dev.wharf.security;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a client signs its requests with: a user name and the key derived from the password (the password itself
 * is dropped once the key is derived and never leaves the process). {@link #toString()} shows the user only.
 *
 * <p>Immutable and thread-safe.
 */
public final class Credentials {

    private final String user;
    private final byte[] key;

    private Credentials(String user, byte[] key) {
        this.user = user;
        this.key = key;
    }

    /**
     * Credentials of {@code user} with {@code password}; derives the key (slow on purpose, about 0.1 s).
     *
     * @throws IllegalArgumentException a blank user name or a password shorter than 8 characters
     */
    public static Credentials of(String user, String password) {
        Objects.requireNonNull(password, "password");
        char[] chars = password.toCharArray();
        try {
            return new Credentials(user, PasswordHasher.deriveKey(user, chars));
        } finally {
            Arrays.fill(chars, '\0');
        }
    }

    /**
     * Parses RocketMQ's {@code innerClientAuthenticationCredentials} form,
     * <code>{"accessKey":"user","secretKey":"password"}</code>, or the shorter {@code user:password}.
     *
     * @param key the setting's name, for the error message
     * @throws IllegalArgumentException the value is in neither form
     */
    public static Credentials parse(String value, String key) {
        String text = value == null ? "" : value.trim();
        String user;
        String password;
        if (text.startsWith("{")) {
            user = jsonString(text, "accessKey");
            password = jsonString(text, "secretKey");
        } else {
            int colon = text.indexOf(':');
            user = colon > 0 ? text.substring(0, colon) : null;
            password = colon > 0 ? text.substring(colon + 1) : null;
        }
        if (user == null || password == null) {
            throw new IllegalArgumentException(key + " must be {\"accessKey\":\"<user>\",\"secretKey\":\"<password>\"}"
                    + " or <user>:<password>; the value given is neither (not shown: it holds a password)");
        }
        return of(user, password);
    }

    /** The user these credentials speak for. */
    public String user() {
        return user;
    }

    /**
     * The signature of a request whose header fields already hold {@link RequestSignature#ACCESS_KEY} (this user) and
     * {@link RequestSignature#TIMESTAMP}; see {@link RequestSignature} for what is signed.
     */
    public String signature(int code, Map<String, String> fields, byte[] body, List<ByteBuffer> buffers) {
        return RequestSignature.sign(key, code, fields, body, buffers);
    }

    @Override
    public String toString() {
        return "Credentials{user=" + user + "}";
    }

    /** A flat JSON object's string member; enough for the two-member credential setting, not a JSON parser. */
    private static String jsonString(String json, String name) {
        String quoted = "\"" + name + "\"";
        int at = json.indexOf(quoted);
        if (at < 0) {
            return null;
        }
        int colon = json.indexOf(':', at + quoted.length());
        int open = colon < 0 ? -1 : json.indexOf('"', colon + 1);
        if (open < 0) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        for (int i = open + 1; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '\\' && i + 1 < json.length()) {
                out.append(json.charAt(++i));
            } else if (c == '"') {
                return out.toString();
            } else {
                out.append(c);
            }
        }
        return null;
    }
}
