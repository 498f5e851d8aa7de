package dev.wharf.jms.message.body;

import static dev.wharf.jms.message.body.TypedBodyDescriptor.*;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Writes map and stream bodies in the {@link TypedBodyDescriptor} layout. Values must be null or one of
 * Boolean, Byte, Short, Character, Integer, Long, Float, Double, String, byte[]; the message classes enforce that
 * before a value gets here. Not thread-safe; one instance per body.
 */
public final class TypedValueWriter {

    private byte[] buf;
    private int size;

    private TypedValueWriter(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    /** Encodes a map body; entries keep the map's iteration order. */
    public static byte[] encodeMap(Map<String, ?> map) {
        TypedValueWriter w = new TypedValueWriter(ENTRIES_OFFSET + map.size() * 16);
        w.header(map.size());
        for (Map.Entry<String, ?> e : map.entrySet()) {
            w.string(e.getKey());
            w.value(e.getValue());
        }
        return w.toByteArray();
    }

    /** Encodes a stream body. */
    public static byte[] encodeStream(List<?> values) {
        TypedValueWriter w = new TypedValueWriter(ENTRIES_OFFSET + values.size() * 8);
        w.header(values.size());
        for (Object v : values) {
            w.value(v);
        }
        return w.toByteArray();
    }

    private void header(int count) {
        put(VERSION);
        putInt(count);
    }

    private void value(Object v) {
        if (v == null) {
            put(TYPE_NULL);
        } else if (v instanceof Boolean b) {
            put(TYPE_BOOLEAN);
            put((byte) (b ? 1 : 0));
        } else if (v instanceof Byte b) {
            put(TYPE_BYTE);
            put(b);
        } else if (v instanceof Short s) {
            put(TYPE_SHORT);
            putShort(s);
        } else if (v instanceof Character c) {
            put(TYPE_CHAR);
            putShort((short) c.charValue());
        } else if (v instanceof Integer i) {
            put(TYPE_INT);
            putInt(i);
        } else if (v instanceof Long l) {
            put(TYPE_LONG);
            putLong(l);
        } else if (v instanceof Float f) {
            put(TYPE_FLOAT);
            putInt(Float.floatToRawIntBits(f));
        } else if (v instanceof Double d) {
            put(TYPE_DOUBLE);
            putLong(Double.doubleToRawLongBits(d));
        } else if (v instanceof String s) {
            put(TYPE_STRING);
            string(s);
        } else if (v instanceof byte[] bytes) {
            put(TYPE_BYTES);
            putInt(bytes.length);
            ensure(bytes.length);
            System.arraycopy(bytes, 0, buf, size, bytes.length);
            size += bytes.length;
        } else {
            throw new IllegalArgumentException("A " + v.getClass().getName()
                    + " cannot be written into a map or stream body.");
        }
    }

    /** LENGTH (4) + modified UTF-8: every char on its own, NUL as two bytes. */
    private void string(String s) {
        int lengthAt = size;
        putInt(0);
        ensure(s.length() * 3);
        int start = size;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x0001 && c <= 0x007F) {
                buf[size++] = (byte) c;
            } else if (c <= 0x07FF) {
                buf[size++] = (byte) (0xC0 | (c >> 6));
                buf[size++] = (byte) (0x80 | (c & 0x3F));
            } else {
                buf[size++] = (byte) (0xE0 | (c >> 12));
                buf[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buf[size++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        int length = size - start;
        buf[lengthAt] = (byte) (length >>> 24);
        buf[lengthAt + 1] = (byte) (length >>> 16);
        buf[lengthAt + 2] = (byte) (length >>> 8);
        buf[lengthAt + 3] = (byte) length;
    }

    private void put(byte b) {
        ensure(1);
        buf[size++] = b;
    }

    private void putShort(short v) {
        ensure(2);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
    }

    private void putInt(int v) {
        ensure(4);
        buf[size++] = (byte) (v >>> 24);
        buf[size++] = (byte) (v >>> 16);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
    }

    private void putLong(long v) {
        putInt((int) (v >>> 32));
        putInt((int) v);
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            long wanted = Math.max((long) buf.length * 2, (long) size + more);
            if (wanted > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("The message body would exceed 2 GB; send less data per message.");
            }
            buf = Arrays.copyOf(buf, (int) wanted);
        }
    }

    private byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }
}
