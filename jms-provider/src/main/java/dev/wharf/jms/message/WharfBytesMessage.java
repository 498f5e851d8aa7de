package dev.wharf.jms.message;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import java.util.Arrays;

/**
 * A message whose body is a stream of bytes written and read like {@code DataOutputStream} and
 * {@code DataInputStream} (big-endian, {@code writeUTF} in modified UTF-8 with a 2-byte length).
 *
 * <p>A new or cleared message is write-only; {@link #reset()} makes it read-only and rewinds it; a received
 * message is read-only. A read that finds too few bytes throws {@link MessageEOFException} and, like every failed
 * read, leaves the position where it was.
 */
public class WharfBytesMessage extends WharfMessage implements BytesMessage {

    private static final byte[] EMPTY = new byte[0];

    private byte[] buf = EMPTY;
    private int length;
    private int position;

    public WharfBytesMessage() {
    }

    @Override
    public long getBodyLength() throws JMSException {
        checkBodyReadable();
        return length;
    }

    @Override
    public void reset() {
        bodyReadOnly = true;
        position = 0;
    }

    // ---------------------------------------------------------------- reading

    @Override
    public boolean readBoolean() throws JMSException {
        return buf[take(1, "boolean")] != 0;
    }

    @Override
    public byte readByte() throws JMSException {
        return buf[take(1, "byte")];
    }

    @Override
    public int readUnsignedByte() throws JMSException {
        return buf[take(1, "unsigned byte")] & 0xFF;
    }

    @Override
    public short readShort() throws JMSException {
        return (short) readBigEndian(take(2, "short"), 2);
    }

    @Override
    public int readUnsignedShort() throws JMSException {
        return (int) readBigEndian(take(2, "unsigned short"), 2) & 0xFFFF;
    }

    @Override
    public char readChar() throws JMSException {
        return (char) readBigEndian(take(2, "char"), 2);
    }

    @Override
    public int readInt() throws JMSException {
        return (int) readBigEndian(take(4, "int"), 4);
    }

    @Override
    public long readLong() throws JMSException {
        return readBigEndian(take(8, "long"), 8);
    }

    @Override
    public float readFloat() throws JMSException {
        return Float.intBitsToFloat((int) readBigEndian(take(4, "float"), 4));
    }

    @Override
    public double readDouble() throws JMSException {
        return Double.longBitsToDouble(readBigEndian(take(8, "double"), 8));
    }

    /**
     * Reads a string written by {@link #writeUTF}: a 2-byte length and that many bytes of modified UTF-8.
     *
     * @throws MessageFormatException when the bytes are not modified UTF-8 (the position does not move)
     */
    @Override
    public String readUTF() throws JMSException {
        checkBodyReadable();
        if (length - position < 2) {
            throw eof(2, "UTF string length");
        }
        int utfLength = (int) readBigEndian(position, 2) & 0xFFFF;
        if (length - position - 2 < utfLength) {
            throw eof(2 + utfLength, "UTF string");
        }
        StringBuilder sb = new StringBuilder(utfLength);
        int i = position + 2;
        int end = i + utfLength;
        while (i < end) {
            int b = buf[i] & 0xFF;
            if (b < 0x80) {
                sb.append((char) b);
                i++;
            } else if ((b & 0xE0) == 0xC0 && i + 1 < end && (buf[i + 1] & 0xC0) == 0x80) {
                sb.append((char) (((b & 0x1F) << 6) | (buf[i + 1] & 0x3F)));
                i += 2;
            } else if ((b & 0xF0) == 0xE0 && i + 2 < end && (buf[i + 1] & 0xC0) == 0x80
                    && (buf[i + 2] & 0xC0) == 0x80) {
                sb.append((char) (((b & 0x0F) << 12) | ((buf[i + 1] & 0x3F) << 6) | (buf[i + 2] & 0x3F)));
                i += 3;
            } else {
                throw new MessageFormatException("The bytes at position " + i + " are not modified UTF-8; the"
                        + " string was not written with writeUTF, read it with the method it was written with.");
            }
        }
        position = end;
        return sb.toString();
    }

    /** Reads up to {@code value.length} bytes; see {@link #readBytes(byte[], int)}. */
    @Override
    public int readBytes(byte[] value) throws JMSException {
        return readBytes(value, value.length);
    }

    /**
     * Reads up to {@code length} bytes into the start of {@code value}.
     *
     * @return the number of bytes read, less than {@code length} when the body ends first, or -1 when no byte was
     *         left
     * @throws IndexOutOfBoundsException when {@code length} is negative or larger than {@code value.length}
     */
    @Override
    public int readBytes(byte[] value, int length) throws JMSException {
        checkBodyReadable();
        if (length < 0 || length > value.length) {
            throw new IndexOutOfBoundsException("Cannot read " + length + " bytes into an array of "
                    + value.length + "; pass a length from 0 to the array's length.");
        }
        int remaining = this.length - position;
        if (remaining == 0) {
            return -1;
        }
        int n = Math.min(length, remaining);
        System.arraycopy(buf, position, value, 0, n);
        position += n;
        return n;
    }

    private int take(int n, String what) throws JMSException {
        checkBodyReadable();
        if (length - position < n) {
            throw eof(n, what);
        }
        int at = position;
        position += n;
        return at;
    }

    private MessageEOFException eof(int needed, String what) {
        return new MessageEOFException("Reading a " + what + " needs " + needed + " bytes at position " + position
                + ", but the body has only " + (length - position) + " left; the reader and the writer of this"
                + " message disagree about its layout.");
    }

    private long readBigEndian(int at, int size) {
        long v = 0;
        for (int i = 0; i < size; i++) {
            v = (v << 8) | (buf[at + i] & 0xFF);
        }
        // Sign-extend so that (short)/(int) casts of the result keep their meaning.
        int shift = 64 - size * 8;
        return (v << shift) >> shift;
    }

    // ---------------------------------------------------------------- writing

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        writeBigEndian(value ? 1 : 0, 1);
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        writeBigEndian(value, 1);
    }

    @Override
    public void writeShort(short value) throws JMSException {
        writeBigEndian(value, 2);
    }

    @Override
    public void writeChar(char value) throws JMSException {
        writeBigEndian(value, 2);
    }

    @Override
    public void writeInt(int value) throws JMSException {
        writeBigEndian(value, 4);
    }

    @Override
    public void writeLong(long value) throws JMSException {
        writeBigEndian(value, 8);
    }

    /** Writes the bits of {@code Float.floatToIntBits}, as {@code DataOutputStream} does. */
    @Override
    public void writeFloat(float value) throws JMSException {
        writeBigEndian(Float.floatToIntBits(value), 4);
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        writeBigEndian(Double.doubleToLongBits(value), 8);
    }

    /**
     * Writes a 2-byte length and the string in modified UTF-8.
     *
     * @throws MessageFormatException when the encoded string exceeds 65535 bytes
     */
    @Override
    public void writeUTF(String value) throws JMSException {
        checkBodyWritable();
        int utfLength = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            utfLength += (c >= 0x0001 && c <= 0x007F) ? 1 : (c <= 0x07FF ? 2 : 3);
        }
        if (utfLength > 0xFFFF) {
            throw new MessageFormatException("writeUTF can write at most 65535 encoded bytes, but this string needs "
                    + utfLength + "; write it with writeBytes, or use a text message.");
        }
        ensure(2 + utfLength);
        buf[length++] = (byte) (utfLength >>> 8);
        buf[length++] = (byte) utfLength;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 0x0001 && c <= 0x007F) {
                buf[length++] = (byte) c;
            } else if (c <= 0x07FF) {
                buf[length++] = (byte) (0xC0 | (c >> 6));
                buf[length++] = (byte) (0x80 | (c & 0x3F));
            } else {
                buf[length++] = (byte) (0xE0 | (c >> 12));
                buf[length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buf[length++] = (byte) (0x80 | (c & 0x3F));
            }
        }
    }

    @Override
    public void writeBytes(byte[] value) throws JMSException {
        writeBytes(value, 0, value.length);
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        checkBodyWritable();
        if (offset < 0 || length < 0 || offset > value.length - length) {
            throw new IndexOutOfBoundsException("Cannot write " + length + " bytes from offset " + offset
                    + " of an array of " + value.length + ".");
        }
        ensure(length);
        System.arraycopy(value, offset, buf, this.length, length);
        this.length += length;
    }

    /**
     * Writes a Boolean, Byte, Short, Character, Integer, Long, Float, Double, String (as {@link #writeUTF}) or
     * byte[] with the matching write method.
     *
     * @throws NullPointerException   when {@code value} is null
     * @throws MessageFormatException for any other class
     */
    @Override
    public void writeObject(Object value) throws JMSException {
        if (value == null) {
            throw new NullPointerException("writeObject cannot write null into a bytes message; a bytes message has"
                    + " no representation for null.");
        }
        if (value instanceof Boolean v) {
            writeBoolean(v);
        } else if (value instanceof Byte v) {
            writeByte(v);
        } else if (value instanceof Short v) {
            writeShort(v);
        } else if (value instanceof Character v) {
            writeChar(v);
        } else if (value instanceof Integer v) {
            writeInt(v);
        } else if (value instanceof Long v) {
            writeLong(v);
        } else if (value instanceof Float v) {
            writeFloat(v);
        } else if (value instanceof Double v) {
            writeDouble(v);
        } else if (value instanceof String v) {
            writeUTF(v);
        } else if (value instanceof byte[] v) {
            writeBytes(v);
        } else {
            throw new MessageFormatException("A bytes message cannot hold a " + value.getClass().getName()
                    + "; write primitives, their wrappers, String or byte[].");
        }
    }

    private void writeBigEndian(long v, int size) throws JMSException {
        checkBodyWritable();
        ensure(size);
        for (int i = size - 1; i >= 0; i--) {
            buf[length++] = (byte) (v >>> (i * 8));
        }
    }

    private void ensure(int more) throws MessageFormatException {
        if (length + more > buf.length) {
            long wanted = Math.max(Math.max(64L, (long) buf.length * 2), (long) length + more);
            if (wanted > Integer.MAX_VALUE - 8) {
                throw new MessageFormatException("A bytes message body cannot exceed 2 GB; send less data per"
                        + " message.");
            }
            buf = Arrays.copyOf(buf, (int) wanted);
        }
    }

    // ---------------------------------------------------------------- body plumbing

    @Override
    public BodyType bodyType() {
        return BodyType.BYTES;
    }

    @Override
    void clearBodyContent() {
        buf = EMPTY;
        length = 0;
        position = 0;
    }

    @Override
    void afterReceipt() {
        position = 0;
    }

    /** The whole body as byte[]; like the specification says, this resets the message before and after. */
    @Override
    <T> T bodyAs(Class<T> c) throws JMSException {
        if (length == 0) {
            return null;
        }
        if (!c.isAssignableFrom(byte[].class)) {
            throw notAssignable("bytes message", c, "byte[].class or Object.class");
        }
        reset();
        byte[] copy = Arrays.copyOf(buf, length);
        reset();
        return c.cast(copy);
    }

    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) {
        return length == 0 || ((Class<?>) c).isAssignableFrom(byte[].class);
    }

    @Override
    byte[] encodeBody() {
        return Arrays.copyOf(buf, length);
    }

    @Override
    void decodeBody(byte[] body) {
        buf = body == null ? EMPTY : body;
        length = buf.length;
        position = 0;
    }
}
