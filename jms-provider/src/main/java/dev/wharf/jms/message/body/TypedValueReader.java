package dev.wharf.jms.message.body;

import static dev.wharf.jms.message.body.TypedBodyDescriptor.*;

import java.io.EOFException;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Reads map and stream bodies written by {@link TypedValueWriter}. An empty body (a message from a client that
 * sent no body) reads as an empty map or stream. A truncated body throws {@link EOFException}, any other damage
 * {@link StreamCorruptedException}; both name the byte offset. Not thread-safe; one instance per body.
 */
public final class TypedValueReader {

    private final ByteBuffer in;

    private TypedValueReader(byte[] body) {
        this.in = ByteBuffer.wrap(body);
    }

    public static LinkedHashMap<String, Object> decodeMap(byte[] body) throws IOException {
        LinkedHashMap<String, Object> map = new LinkedHashMap<>();
        if (body == null || body.length == 0) {
            return map;
        }
        TypedValueReader r = new TypedValueReader(body);
        try {
            int count = r.header();
            for (int i = 0; i < count; i++) {
                String name = r.string();
                map.put(name, r.value());
            }
            r.end();
        } catch (BufferUnderflowException e) {
            throw r.truncated();
        }
        return map;
    }

    public static List<Object> decodeStream(byte[] body) throws IOException {
        if (body == null || body.length == 0) {
            return new ArrayList<>();
        }
        TypedValueReader r = new TypedValueReader(body);
        try {
            int count = r.header();
            List<Object> values = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                values.add(r.value());
            }
            r.end();
            return values;
        } catch (BufferUnderflowException e) {
            throw r.truncated();
        }
    }

    private int header() throws IOException {
        byte version = in.get();
        if (version != VERSION) {
            throw new StreamCorruptedException("The body has layout version " + version + ", but this client reads"
                    + " version " + VERSION + " only; use a client at least as new as the sender.");
        }
        int count = in.getInt();
        // Every entry takes at least one byte, so a larger count is damage, not a reason to allocate.
        if (count < 0 || count > in.remaining()) {
            throw new StreamCorruptedException("The body announces " + count + " entries but has only "
                    + in.remaining() + " bytes left at offset " + COUNT_OFFSET + ".");
        }
        return count;
    }

    private void end() throws StreamCorruptedException {
        if (in.hasRemaining()) {
            throw new StreamCorruptedException("The body has " + in.remaining() + " unexpected bytes after its"
                    + " last entry at offset " + in.position() + ".");
        }
    }

    private Object value() throws IOException {
        int at = in.position();
        byte type = in.get();
        return switch (type) {
            case TYPE_NULL -> null;
            case TYPE_BOOLEAN -> {
                byte b = in.get();
                if (b != 0 && b != 1) {
                    throw new StreamCorruptedException("Boolean value " + b + " at offset " + (at + 1)
                            + " is neither 0 nor 1.");
                }
                yield b == 1;
            }
            case TYPE_BYTE -> in.get();
            case TYPE_SHORT -> in.getShort();
            case TYPE_CHAR -> in.getChar();
            case TYPE_INT -> in.getInt();
            case TYPE_LONG -> in.getLong();
            case TYPE_FLOAT -> Float.intBitsToFloat(in.getInt());
            case TYPE_DOUBLE -> Double.longBitsToDouble(in.getLong());
            case TYPE_STRING -> string();
            case TYPE_BYTES -> {
                byte[] bytes = new byte[length()];
                in.get(bytes);
                yield bytes;
            }
            default -> throw new StreamCorruptedException("Unknown value type " + type + " at offset " + at + ".");
        };
    }

    private int length() throws IOException {
        int at = in.position();
        int length = in.getInt();
        if (length < 0) {
            throw new StreamCorruptedException("Negative length " + length + " at offset " + at + ".");
        }
        if (length > in.remaining()) {
            throw new EOFException("Length " + length + " at offset " + at + " exceeds the " + in.remaining()
                    + " bytes left.");
        }
        return length;
    }

    private String string() throws IOException {
        int length = length();
        int start = in.position();
        int end = start + length;
        byte[] a = in.array();
        StringBuilder sb = new StringBuilder(length);
        int i = start;
        while (i < end) {
            int b = a[i] & 0xFF;
            if (b < 0x80 && b != 0) {
                sb.append((char) b);
                i++;
            } else if ((b & 0xE0) == 0xC0 && i + 1 < end && (a[i + 1] & 0xC0) == 0x80) {
                sb.append((char) (((b & 0x1F) << 6) | (a[i + 1] & 0x3F)));
                i += 2;
            } else if ((b & 0xF0) == 0xE0 && i + 2 < end && (a[i + 1] & 0xC0) == 0x80 && (a[i + 2] & 0xC0) == 0x80) {
                sb.append((char) (((b & 0x0F) << 12) | ((a[i + 1] & 0x3F) << 6) | (a[i + 2] & 0x3F)));
                i += 3;
            } else {
                throw new StreamCorruptedException("Malformed string byte 0x" + Integer.toHexString(b)
                        + " at offset " + i + ".");
            }
        }
        in.position(end);
        return sb.toString();
    }

    private EOFException truncated() {
        return new EOFException("The body ends early at offset " + in.position() + " of " + in.limit() + ".");
    }
}
