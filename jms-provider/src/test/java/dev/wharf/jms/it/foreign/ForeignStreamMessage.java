package dev.wharf.jms.it.foreign;

import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.StreamMessage;
import java.util.ArrayList;
import java.util.List;

/** The other provider's stream message: a list of values, write-only until {@link #reset()}. */
public final class ForeignStreamMessage extends ForeignMessage implements StreamMessage {

    private final List<Object> values = new ArrayList<>();
    private int position = -1;

    @Override
    public void reset() {
        position = 0;
    }

    @Override
    public void clearBody() {
        values.clear();
        position = -1;
    }

    /** A stream message body cannot be had with getBody (as the interface says). */
    @Override
    Object body() throws JMSException {
        throw new MessageFormatException("a stream message has no body for getBody");
    }

    @Override
    public Object readObject() throws JMSException {
        if (position < 0) {
            throw new MessageNotReadableException("the message is write-only; reset() first");
        }
        if (position >= values.size()) {
            throw new MessageEOFException("end of the stream");
        }
        Object v = values.get(position++);
        return v instanceof byte[] b ? b.clone() : v;
    }

    private <T> T read(Class<T> type) throws JMSException {
        Object v = readObject();
        if (!type.isInstance(v)) {
            position--;
            throw new MessageFormatException("the next value is not a " + type.getSimpleName());
        }
        return type.cast(v);
    }

    @Override
    public boolean readBoolean() throws JMSException {
        return read(Boolean.class);
    }

    @Override
    public byte readByte() throws JMSException {
        return read(Byte.class);
    }

    @Override
    public short readShort() throws JMSException {
        return read(Short.class);
    }

    @Override
    public char readChar() throws JMSException {
        return read(Character.class);
    }

    @Override
    public int readInt() throws JMSException {
        return read(Integer.class);
    }

    @Override
    public long readLong() throws JMSException {
        return read(Long.class);
    }

    @Override
    public float readFloat() throws JMSException {
        return read(Float.class);
    }

    @Override
    public double readDouble() throws JMSException {
        return read(Double.class);
    }

    @Override
    public String readString() throws JMSException {
        Object v = readObject();
        return v == null ? null : v.toString();
    }

    @Override
    public int readBytes(byte[] value) throws JMSException {
        byte[] b = read(byte[].class);
        int n = Math.min(b.length, value.length);
        System.arraycopy(b, 0, value, 0, n);
        return n;
    }

    private void add(Object value) {
        values.add(value);
    }

    @Override
    public void writeBoolean(boolean value) {
        add(value);
    }

    @Override
    public void writeByte(byte value) {
        add(value);
    }

    @Override
    public void writeShort(short value) {
        add(value);
    }

    @Override
    public void writeChar(char value) {
        add(value);
    }

    @Override
    public void writeInt(int value) {
        add(value);
    }

    @Override
    public void writeLong(long value) {
        add(value);
    }

    @Override
    public void writeFloat(float value) {
        add(value);
    }

    @Override
    public void writeDouble(double value) {
        add(value);
    }

    @Override
    public void writeString(String value) {
        add(value);
    }

    @Override
    public void writeBytes(byte[] value) {
        add(value.clone());
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) {
        byte[] part = new byte[length];
        System.arraycopy(value, offset, part, 0, length);
        add(part);
    }

    @Override
    public void writeObject(Object value) {
        add(value instanceof byte[] b ? b.clone() : value);
    }
}
