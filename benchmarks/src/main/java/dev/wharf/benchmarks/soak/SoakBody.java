package dev.wharf.benchmarks.soak;

import java.nio.charset.StandardCharsets;

/**
 * Message bodies that carry their own id and can be checked byte for byte on receipt: {@code soak:ID:} followed
 * by filler bytes computed from the id, so that a delivered body that differs in any byte is recognised as
 * corrupted without keeping the bodies.
 */
final class SoakBody {

    private static final byte[] PREFIX = "soak:".getBytes(StandardCharsets.US_ASCII);

    private SoakBody() {
    }

    static byte[] of(long id, int size) {
        byte[] head = ("soak:" + id + ":").getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[Math.max(size, head.length)];
        System.arraycopy(head, 0, body, 0, head.length);
        for (int i = head.length; i < body.length; i++) {
            body[i] = filler(id, i);
        }
        return body;
    }

    /** The id a body names, or -1 when it is not a soak body. */
    static long idOf(byte[] body) {
        if (body == null || body.length < PREFIX.length + 2) {
            return -1;
        }
        for (int i = 0; i < PREFIX.length; i++) {
            if (body[i] != PREFIX[i]) {
                return -1;
            }
        }
        long id = 0;
        int i = PREFIX.length;
        for (; i < body.length && body[i] != ':'; i++) {
            int d = body[i] - '0';
            if (d < 0 || d > 9 || i - PREFIX.length > 18) {
                return -1;
            }
            id = id * 10 + d;
        }
        return i < body.length && i > PREFIX.length ? id : -1;
    }

    /** Whether {@code body} is exactly what {@link #of} makes for its id and {@code size}. */
    static boolean intact(byte[] body, long id, int size) {
        byte[] head = ("soak:" + id + ":").getBytes(StandardCharsets.US_ASCII);
        if (body.length != Math.max(size, head.length)) {
            return false;
        }
        for (int i = 0; i < head.length; i++) {
            if (body[i] != head[i]) {
                return false;
            }
        }
        for (int i = head.length; i < body.length; i++) {
            if (body[i] != filler(id, i)) {
                return false;
            }
        }
        return true;
    }

    private static byte filler(long id, int i) {
        long x = id * 0x9E3779B97F4A7C15L + i * 0xBF58476D1CE4E5B9L;
        x ^= x >>> 29;
        return (byte) ('a' + Math.floorMod(x, 26));
    }
}
