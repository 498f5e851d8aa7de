package dev.wharf.common.message;

/**
 * The broker's message id: 16 bytes (store host IPv4 4, port 4, commit-log offset 8) as 32 upper-case hex
 * characters, so the id alone locates the record in the right broker's commit log.
 */
public final class MessageId {

    public static final int LENGTH = 32;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private MessageId() {
    }

    public static String create(long storeHost, long commitLogOffset) {
        char[] out = new char[LENGTH];
        writeHex(out, 0, storeHost);
        writeHex(out, 16, commitLogOffset);
        return new String(out);
    }

    /** The packed store host of a broker message id. */
    public static long storeHost(String msgId) {
        return parseHex(check(msgId), 0);
    }

    /** The commit-log offset of a broker message id. */
    public static long commitLogOffset(String msgId) {
        return parseHex(check(msgId), 16);
    }

    /** Whether the string has the shape of a broker message id. */
    public static boolean isValid(String msgId) {
        if (msgId == null || msgId.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < LENGTH; i++) {
            if (Character.digit(msgId.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    private static String check(String msgId) {
        if (!isValid(msgId)) {
            throw new IllegalArgumentException("\"" + msgId + "\" is not a broker message id: expected "
                    + LENGTH + " hexadecimal characters (as printed by send or query).");
        }
        return msgId;
    }

    private static void writeHex(char[] out, int at, long value) {
        for (int i = 15; i >= 0; i--) {
            out[at + i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
    }

    private static long parseHex(String s, int at) {
        long value = 0;
        for (int i = 0; i < 16; i++) {
            value = (value << 4) | Character.digit(s.charAt(at + i), 16);
        }
        return value;
    }
}
