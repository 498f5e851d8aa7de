package dev.wharf.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The HMAC-SHA256 signature of one request. What is signed, in this order (integers big-endian, strings UTF-8):
 * <pre>
 *   "WHARF-HMAC-SHA256-1"               scheme tag
 *   int32 request code
 *   int32 field count                   header fields, {@link #SIGNATURE} excluded, sorted by name
 *   { int32 name length, name bytes, int32 value length, value bytes } per field
 *   int32 body length, body bytes       (length -1 when there is no body)
 * </pre>
 * Every part is length-prefixed, so no two different requests share a signed form (a value holding a separator
 * cannot pose as two fields). The access key and the timestamp are header fields, hence signed too.
 *
 * <p>Thread-safe: each thread reuses its own {@link Mac}.
 */
public final class RequestSignature {

    /** Header field naming the user (RocketMQ's name). */
    public static final String ACCESS_KEY = "AccessKey";
    /** Header field carrying the base64 signature (RocketMQ's name). */
    public static final String SIGNATURE = "Signature";
    /** Header field carrying the signing time, epoch milliseconds; bounds replays to the server's window. */
    public static final String TIMESTAMP = "AuthTimestamp";

    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] TAG = "WHARF-HMAC-SHA256-1".getBytes(StandardCharsets.UTF_8);
    private static final ThreadLocal<KeyedMac> MACS = ThreadLocal.withInitial(() -> new KeyedMac(newMac()));

    /**
     * A thread's Mac and the key it was last initialised with: a client signs, and a server checks most requests,
     * with one user's key again and again, and initialising costs about as much as signing a small request.
     */
    private static final class KeyedMac {
        final Mac mac;
        byte[] key;

        KeyedMac(Mac mac) {
            this.mac = mac;
        }
    }

    private RequestSignature() {
    }

    /** The base64 signature of a request with these parts, made with {@code key}. */
    public static String sign(byte[] key, int code, Map<String, String> fields, byte[] body, List<ByteBuffer> buffers) {
        return Base64.getEncoder().encodeToString(mac(key, code, fields, body, buffers));
    }

    /** Whether {@code signature} (base64) is the signature of these parts with {@code key}; constant-time. */
    public static boolean verify(byte[] key, int code, Map<String, String> fields, byte[] body, String signature) {
        byte[] claimed;
        try {
            claimed = Base64.getDecoder().decode(signature);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(mac(key, code, fields, body, null), claimed);
    }

    private static byte[] mac(byte[] key, int code, Map<String, String> fields, byte[] body, List<ByteBuffer> buffers) {
        KeyedMac keyed = MACS.get();
        Mac mac = keyed.mac;
        if (keyed.key != key) { // the same array: keys are decoded once per users-file load or credential
            try {
                mac.init(new SecretKeySpec(key, ALGORITHM));
            } catch (GeneralSecurityException e) {
                keyed.key = null;
                throw new IllegalStateException("cannot initialise " + ALGORITHM + ": " + e.getMessage(), e);
            }
            keyed.key = key;
        } else {
            mac.reset(); // cheap, and nothing left over from a signature that failed half-way
        }
        mac.update(TAG);
        updateInt(mac, code);
        String[] names = fields.keySet().toArray(new String[0]);
        Arrays.sort(names);
        int count = 0;
        for (String name : names) {
            if (!SIGNATURE.equals(name)) {
                count++;
            }
        }
        updateInt(mac, count);
        for (String name : names) {
            if (SIGNATURE.equals(name)) {
                continue;
            }
            updateString(mac, name);
            updateString(mac, fields.get(name));
        }
        if (buffers != null) {
            int length = 0;
            for (ByteBuffer b : buffers) {
                length += b.remaining();
            }
            updateInt(mac, length);
            for (ByteBuffer b : buffers) {
                mac.update(b.duplicate());
            }
        } else if (body == null) {
            updateInt(mac, -1);
        } else {
            updateInt(mac, body.length);
            mac.update(body);
        }
        return mac.doFinal();
    }

    private static void updateString(Mac mac, String value) {
        byte[] bytes = value == null ? new byte[0] : value.getBytes(StandardCharsets.UTF_8);
        updateInt(mac, bytes.length);
        mac.update(bytes);
    }

    private static void updateInt(Mac mac, int value) {
        mac.update((byte) (value >>> 24));
        mac.update((byte) (value >>> 16));
        mac.update((byte) (value >>> 8));
        mac.update((byte) value);
    }

    private static Mac newMac() {
        try {
            return Mac.getInstance(ALGORITHM);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM lacks " + ALGORITHM + ", which every Java 17 JDK has", e);
        }
    }
}
