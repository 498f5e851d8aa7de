package dev.wharf.common.message;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Client-side unique message ids: 16 bytes as 32 hex characters, an 8-byte prefix fixed per JVM (IPv4 address,
 * process id, random) and an 8-byte counter seeded from the clock, so ids are unique across processes and
 * restarts without coordination. Thread-safe.
 */
public final class UniqueIdGenerator {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    private static final char[] PREFIX = prefix();
    private static final AtomicLong COUNTER = new AtomicLong(System.currentTimeMillis() << 20);

    private UniqueIdGenerator() {
    }

    public static String next() {
        char[] out = new char[32];
        System.arraycopy(PREFIX, 0, out, 0, 16);
        long value = COUNTER.getAndIncrement();
        for (int i = 31; i >= 16; i--) {
            out[i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
        return new String(out);
    }

    private static char[] prefix() {
        byte[] ip;
        try {
            ip = InetAddress.getLocalHost().getAddress();
        } catch (Exception e) {
            ip = new byte[4];
        }
        long pid = ProcessHandle.current().pid();
        int random = new SecureRandom().nextInt();
        long prefix = ((long) (ip.length >= 4 ? ((ip[0] & 0xFF) << 24 | (ip[1] & 0xFF) << 16 | (ip[2] & 0xFF) << 8 | (ip[3] & 0xFF)) : 0) << 32)
                ^ ((pid & 0xFFFF) << 16) ^ (random & 0xFFFFFFFFL);
        char[] out = new char[16];
        for (int i = 15; i >= 0; i--) {
            out[i] = HEX[(int) (prefix & 0xF)];
            prefix >>>= 4;
        }
        return out;
    }
}
