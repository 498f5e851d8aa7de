package dev.wharf.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.spec.KeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Stretches a password into the signing key the server stores and the client signs with (PBKDF2-HMAC-SHA256 from
 * the JDK). The stored form is {@code pbkdf2-sha256$<iterations>$<salt, base64>$<key, base64>}.
 *
 * <p>The salt is derived from the user name rather than drawn at random, so that a client can compute its key
 * without first asking the server for a salt (no handshake round trip, which keeps every request self-contained
 * as RocketMQ's signed requests are). It still differs per user and per system, which is what defeats precomputed
 * tables; the iteration count makes each guess against a stolen file cost a fraction of a second. The stored key
 * itself signs requests, so the users file must be readable by the server alone.
 *
 * <p>Stateless and thread-safe.
 */
public final class PasswordHasher {

    /** Prefix of the stored form, naming the algorithm. */
    public static final String SCHEME = "pbkdf2-sha256";
    /** PBKDF2 rounds of this scheme: clients and servers must agree, so it is part of the scheme, not a setting. */
    public static final int ITERATIONS = 120_000;
    /** Bits of the derived key (one SHA-256 block of output). */
    public static final int KEY_BITS = 256;
    private static final String SALT_DOMAIN = "wharf-user:";
    private static final int MIN_PASSWORD_LENGTH = 8;

    private PasswordHasher() {
    }

    /**
     * The signing key of {@code user} with {@code password}; slow on purpose (about 0.1 s).
     *
     * @throws IllegalArgumentException a blank user name, or a password shorter than 8 characters
     */
    public static byte[] deriveKey(String user, char[] password) {
        checkUser(user);
        Objects.requireNonNull(password, "password");
        if (password.length < MIN_PASSWORD_LENGTH) {
            throw new IllegalArgumentException("the password of user '" + user + "' is shorter than "
                    + MIN_PASSWORD_LENGTH + " characters; choose a longer one");
        }
        return pbkdf2(password, salt(user), ITERATIONS);
    }

    /** The stored form of {@code user}'s password (what the users file keeps instead of the password). */
    public static String hash(String user, char[] password) {
        byte[] key = deriveKey(user, password);
        try {
            return format(salt(user), ITERATIONS, key);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /**
     * The signing key held in a stored form.
     *
     * @throws IllegalArgumentException the form is not {@code pbkdf2-sha256$iterations$salt$key}, or was made for
     *                                  another user name or iteration count (the client could not sign with it)
     */
    public static byte[] keyOf(String user, String stored) {
        String[] parts = stored == null ? new String[0] : stored.split("\\$");
        if (parts.length != 4 || !SCHEME.equals(parts[0])) {
            throw new IllegalArgumentException("the password of user '" + user + "' is not in the form " + SCHEME
                    + "$iterations$salt$key; set it with 'wharf admin user-create' instead of editing the file");
        }
        byte[] salt;
        byte[] key;
        int iterations;
        try {
            iterations = Integer.parseInt(parts[1]);
            salt = Base64.getDecoder().decode(parts[2]);
            key = Base64.getDecoder().decode(parts[3]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the password hash of user '" + user + "' is damaged ("
                    + e.getMessage() + "); set the password again with 'wharf admin user-create'", e);
        }
        if (iterations != ITERATIONS || !MessageDigest.isEqual(salt, salt(user)) || key.length != KEY_BITS / 8) {
            throw new IllegalArgumentException("the password hash of user '" + user + "' was made for another user"
                    + " name or scheme version; set the password again with 'wharf admin user-create'");
        }
        return key;
    }

    /** Whether {@code password} is {@code user}'s (constant-time comparison). */
    public static boolean matches(String user, char[] password, String stored) {
        byte[] expected = keyOf(user, stored);
        byte[] actual = deriveKey(user, password);
        try {
            return MessageDigest.isEqual(expected, actual);
        } finally {
            Arrays.fill(actual, (byte) 0);
        }
    }

    static byte[] salt(String user) {
        return (SALT_DOMAIN + user).getBytes(StandardCharsets.UTF_8);
    }

    static void checkUser(String user) {
        if (user == null || user.isBlank() || user.chars().anyMatch(c -> Character.isISOControl(c) || c == ':')) {
            throw new IllegalArgumentException("user name '" + user + "' is blank or contains a control character or"
                    + " ':'; use letters, digits, '-', '_' or '.'");
        }
    }

    private static String format(byte[] salt, int iterations, byte[] key) {
        Base64.Encoder b64 = Base64.getEncoder();
        return SCHEME + "$" + iterations + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(key);
    }

    private static byte[] pbkdf2(char[] password, byte[] salt, int iterations) {
        KeySpec spec = new PBEKeySpec(password, salt, iterations, KEY_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM lacks PBKDF2WithHmacSHA256, which every Java 17 JDK has: "
                    + e.getMessage(), e);
        } finally {
            ((PBEKeySpec) spec).clearPassword();
        }
    }
}
