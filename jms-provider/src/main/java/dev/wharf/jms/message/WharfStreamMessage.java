package dev.wharf.jms.message;

import dev.wharf.jms.message.body.TypedValueReader;
import dev.wharf.jms.message.body.TypedValueWriter;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.StreamMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * A message whose body is a sequence of typed values, read in order through the conversion table of
 * {@link ValueConversions}.
 *
 * <p>Write-only when new or cleared; {@link #reset()} makes it read-only and rewinds it. A read that fails with
 * {@link MessageFormatException}, {@link NumberFormatException} or {@link NullPointerException} does not move the
 * position, so the field can be read again as another type (3.11.3). {@link #readBytes(byte[])} reads a byte[]
 * field in pieces; once started, the field must be read to its end (a call returning less than the buffer
 * length, or -1) before any other read, which otherwise throws {@link MessageFormatException}.
 * {@link #getBody(Class)} always throws {@link MessageFormatException}: a stream has no single body object.
 */
public class WharfStreamMessage extends WharfMessage implements StreamMessage {

    private List<Object> values = new ArrayList<>();
    /** Received body not yet decoded (null once decoded). */
    private byte[] encoded;
    private int index;
    /** Bytes of the current byte[] field already handed out by readBytes, or -1 when no field is in progress. */
    private int bytesRead = -1;

    public WharfStreamMessage() {
    }

    @Override
    public void reset() {
        bodyReadOnly = true;
        index = 0;
        bytesRead = -1;
    }

    // ---------------------------------------------------------------- reading

    private List<Object> fields() throws JMSException {
        if (encoded != null) {
            values = TypedBodies.decode(encoded, TypedValueReader::decodeStream, "stream");
            encoded = null;
        }
        return values;
    }

    /** The next field, without moving past it. */
    private Object peek() throws JMSException {
        checkBodyReadable();
        List<Object> fields = fields();
        if (bytesRead >= 0) {
            throw new MessageFormatException("Field " + (index + 1) + " is a byte[] that readBytes has only partly"
                    + " read; call readBytes until it returns less than the buffer length or -1 before reading the"
                    + " next field.");
        }
        if (index >= fields.size()) {
            throw new MessageEOFException("The stream message has no field " + (index + 1) + "; it holds "
                    + fields.size() + " fields.");
        }
        return fields.get(index);
    }

    private String field() {
        return "Stream field " + (index + 1);
    }

    /** The next field as the conversion reads it; the position moves only when the conversion succeeded. */
    private <T> T next(ValueConversions.Conversion<T> conversion) throws JMSException {
        T v = conversion.convert(peek(), field());
        index++;
        return v;
    }

    @Override
    public boolean readBoolean() throws JMSException {
        return next(ValueConversions::toBoolean);
    }

    @Override
    public byte readByte() throws JMSException {
        return next(ValueConversions::toByte);
    }

    @Override
    public short readShort() throws JMSException {
        return next(ValueConversions::toShort);
    }

    @Override
    public char readChar() throws JMSException {
        return next(ValueConversions::toChar);
    }

    @Override
    public int readInt() throws JMSException {
        return next(ValueConversions::toInt);
    }

    @Override
    public long readLong() throws JMSException {
        return next(ValueConversions::toLong);
    }

    @Override
    public float readFloat() throws JMSException {
        return next(ValueConversions::toFloat);
    }

    @Override
    public double readDouble() throws JMSException {
        return next(ValueConversions::toDouble);
    }

    @Override
    public String readString() throws JMSException {
        return next(ValueConversions::toString);
    }

    /**
     * Reads the next piece of a byte[] field.
     *
     * @return the number of bytes copied; less than {@code value.length} when the field ended with this piece; -1
     *         when the field was already read to its end by pieces that filled the buffer, or when the field is
     *         null; 0 for an empty field
     */
    @Override
    public int readBytes(byte[] value) throws JMSException {
        checkBodyReadable();
        List<Object> fields = fields();
        if (bytesRead < 0) {
            if (index >= fields.size()) {
                throw new MessageEOFException("The stream message has no field " + (index + 1) + "; it holds "
                        + fields.size() + " fields.");
            }
            Object v = fields.get(index);
            if (v == null) {
                index++;
                return -1;
            }
            ValueConversions.toBytes(v, field());
            bytesRead = 0;
        }
        byte[] field = (byte[]) fields.get(index);
        int remaining = field.length - bytesRead;
        if (remaining == 0 && bytesRead > 0) {
            finishBytesField();
            return -1;
        }
        int n = Math.min(value.length, remaining);
        System.arraycopy(field, bytesRead, value, 0, n);
        bytesRead += n;
        if (n < value.length || field.length == 0) {
            finishBytesField();
        }
        return n;
    }

    private void finishBytesField() {
        bytesRead = -1;
        index++;
    }

    /** The next field as its wrapper, String, a copy of its byte[], or null. */
    @Override
    public Object readObject() throws JMSException {
        Object v = peek();
        index++;
        return v instanceof byte[] b ? b.clone() : v;
    }

    // ---------------------------------------------------------------- writing

    private void append(Object value) throws JMSException {
        checkBodyWritable();
        fields().add(value);
    }

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        append(value);
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        append(value);
    }

    @Override
    public void writeShort(short value) throws JMSException {
        append(value);
    }

    @Override
    public void writeChar(char value) throws JMSException {
        append(value);
    }

    @Override
    public void writeInt(int value) throws JMSException {
        append(value);
    }

    @Override
    public void writeLong(long value) throws JMSException {
        append(value);
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        append(value);
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        append(value);
    }

    /** Writes a String field; null is a field of its own that reads back as null. */
    @Override
    public void writeString(String value) throws JMSException {
        append(value);
    }

    /** Writes a copy of {@code value} as one byte[] field. */
    @Override
    public void writeBytes(byte[] value) throws JMSException {
        append(value.clone());
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        append(TypedBodies.copyOfRange(value, offset, length));
    }

    /**
     * Writes a primitive wrapper (Character included), String, byte[] (copied) or null.
     *
     * @throws MessageFormatException for any other class
     */
    @Override
    public void writeObject(Object value) throws JMSException {
        if (value instanceof byte[] b) {
            append(b.clone());
            return;
        }
        if (!TypedBodies.canHold(value)) {
            checkBodyWritable();
            throw new MessageFormatException("A stream message cannot hold a " + value.getClass().getName()
                    + "; write primitives, their wrappers, String or byte[].");
        }
        append(value);
    }

    // ---------------------------------------------------------------- body plumbing

    @Override
    public BodyType bodyType() {
        return BodyType.STREAM;
    }

    @Override
    void clearBodyContent() {
        values = new ArrayList<>();
        encoded = null;
        index = 0;
        bytesRead = -1;
    }

    @Override
    void afterReceipt() {
        index = 0;
        bytesRead = -1;
    }

    @Override
    <T> T bodyAs(Class<T> c) throws MessageFormatException {
        throw new MessageFormatException("A stream message has no single body object; read its fields with the"
                + " read methods instead of getBody.");
    }

    /** Always false for a stream message, as the specification says. */
    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) {
        return false;
    }

    @Override
    byte[] encodeBody() {
        return encoded != null ? encoded : TypedValueWriter.encodeStream(values);
    }

    @Override
    void decodeBody(byte[] body) {
        values = new ArrayList<>();
        encoded = body == null || body.length == 0 ? null : body;
        index = 0;
        bytesRead = -1;
    }
}
