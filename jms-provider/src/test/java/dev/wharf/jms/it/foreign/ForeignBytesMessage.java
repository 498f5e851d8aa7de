package dev.wharf.jms.it.foreign;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * The other provider's bytes message: write-only until {@link #reset()}, then read-only with a read position;
 * reading before reset, or writing after it, is refused as the interface says.
 */
public final class ForeignBytesMessage extends ForeignMessage implements BytesMessage {

    private ByteArrayOutputStream written = new ByteArrayOutputStream();
    private DataOutputStream out = new DataOutputStream(written);
    private byte[] data;
    private DataInputStream in;
    private int resets;

    /** How many times reset() was called. */
    public int resets() {
        return resets;
    }

    @Override
    public void reset() {
        resets++;
        if (data == null) {
            data = written.toByteArray();
            written = null;
            out = null;
        }
        in = new DataInputStream(new ByteArrayInputStream(data));
    }

    @Override
    public void clearBody() {
        written = new ByteArrayOutputStream();
        out = new DataOutputStream(written);
        data = null;
        in = null;
    }

    @Override
    Object body() throws JMSException {
        if (data == null) {
            throw new MessageNotReadableException("reset() first");
        }
        return data.length == 0 ? null : data.clone();
    }

    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) {
        return c.isAssignableFrom(byte[].class);
    }

    @Override
    public long getBodyLength() throws JMSException {
        if (data == null) {
            throw new MessageNotReadableException("the message is write-only; reset() first");
        }
        return data.length;
    }

    private DataInputStream in() throws JMSException {
        if (in == null) {
            throw new MessageNotReadableException("the message is write-only; reset() first");
        }
        return in;
    }

    private DataOutputStream out() throws JMSException {
        if (out == null) {
            throw new MessageNotWriteableException("the message is read-only; clearBody() first");
        }
        return out;
    }

    private interface Read<T> {
        T read(DataInputStream in) throws IOException;
    }

    private interface Write {
        void write(DataOutputStream out) throws IOException;
    }

    private <T> T read(Read<T> r) throws JMSException {
        DataInputStream i = in();
        try {
            return r.read(i);
        } catch (EOFException e) {
            throw new MessageEOFException("end of the bytes");
        } catch (IOException e) {
            throw new JMSException(e.toString());
        }
    }

    private void write(Write w) throws JMSException {
        DataOutputStream o = out();
        try {
            w.write(o);
        } catch (IOException e) {
            throw new JMSException(e.toString());
        }
    }

    @Override
    public boolean readBoolean() throws JMSException {
        return read(DataInputStream::readBoolean);
    }

    @Override
    public byte readByte() throws JMSException {
        return read(DataInputStream::readByte);
    }

    @Override
    public int readUnsignedByte() throws JMSException {
        return read(DataInputStream::readUnsignedByte);
    }

    @Override
    public short readShort() throws JMSException {
        return read(DataInputStream::readShort);
    }

    @Override
    public int readUnsignedShort() throws JMSException {
        return read(DataInputStream::readUnsignedShort);
    }

    @Override
    public char readChar() throws JMSException {
        return read(DataInputStream::readChar);
    }

    @Override
    public int readInt() throws JMSException {
        return read(DataInputStream::readInt);
    }

    @Override
    public long readLong() throws JMSException {
        return read(DataInputStream::readLong);
    }

    @Override
    public float readFloat() throws JMSException {
        return read(DataInputStream::readFloat);
    }

    @Override
    public double readDouble() throws JMSException {
        return read(DataInputStream::readDouble);
    }

    @Override
    public String readUTF() throws JMSException {
        return read(i -> i.readUTF());
    }

    @Override
    public int readBytes(byte[] value) throws JMSException {
        return readBytes(value, value.length);
    }

    @Override
    public int readBytes(byte[] value, int length) throws JMSException {
        return read(i -> i.read(value, 0, length));
    }

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        write(o -> o.writeBoolean(value));
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        write(o -> o.writeByte(value));
    }

    @Override
    public void writeShort(short value) throws JMSException {
        write(o -> o.writeShort(value));
    }

    @Override
    public void writeChar(char value) throws JMSException {
        write(o -> o.writeChar(value));
    }

    @Override
    public void writeInt(int value) throws JMSException {
        write(o -> o.writeInt(value));
    }

    @Override
    public void writeLong(long value) throws JMSException {
        write(o -> o.writeLong(value));
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        write(o -> o.writeFloat(value));
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        write(o -> o.writeDouble(value));
    }

    @Override
    public void writeUTF(String value) throws JMSException {
        write(o -> o.writeUTF(value));
    }

    @Override
    public void writeBytes(byte[] value) throws JMSException {
        write(o -> o.write(value));
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        write(o -> o.write(value, offset, length));
    }

    @Override
    public void writeObject(Object value) throws JMSException {
        if (value instanceof Integer i) {
            writeInt(i);
        } else if (value instanceof Long l) {
            writeLong(l);
        } else if (value instanceof String s) {
            writeUTF(s);
        } else if (value instanceof byte[] b) {
            writeBytes(b);
        } else {
            throw new jakarta.jms.MessageFormatException("this provider writes only int, long, String and byte[]"
                    + " objects, not " + value);
        }
    }
}
