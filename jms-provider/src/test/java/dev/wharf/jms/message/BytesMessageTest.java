package dev.wharf.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** BytesMessage: DataOutputStream-compatible layout, modes, EOF handling and partial reads. */
class BytesMessageTest {

    private static WharfBytesMessage written() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        m.writeBoolean(true);
        m.writeByte((byte) -2);
        m.writeShort((short) -300);
        m.writeChar('\u20ac');
        m.writeInt(Integer.MIN_VALUE);
        m.writeLong(Long.MAX_VALUE);
        m.writeFloat(-0.0f);
        m.writeDouble(Double.NaN);
        m.writeUTF("h\u00e9llo \u0000 \ud83d\ude00");
        m.writeBytes(new byte[] {1, 2, 3});
        m.writeBytes(new byte[] {9, 4, 5, 6, 9}, 1, 3);
        m.writeByte((byte) 0xF0);
        m.writeShort((short) 0xFFFE);
        return m;
    }

    @Test
    void readsBackEveryTypeAfterReset() throws JMSException {
        WharfBytesMessage m = written();
        m.reset();
        assertThat(m.readBoolean()).isTrue();
        assertThat(m.readByte()).isEqualTo((byte) -2);
        assertThat(m.readShort()).isEqualTo((short) -300);
        assertThat(m.readChar()).isEqualTo('\u20ac');
        assertThat(m.readInt()).isEqualTo(Integer.MIN_VALUE);
        assertThat(m.readLong()).isEqualTo(Long.MAX_VALUE);
        assertThat(Float.floatToRawIntBits(m.readFloat())).isEqualTo(Float.floatToRawIntBits(-0.0f));
        assertThat(m.readDouble()).isNaN();
        assertThat(m.readUTF()).isEqualTo("h\u00e9llo \u0000 \ud83d\ude00");
        byte[] three = new byte[3];
        assertThat(m.readBytes(three)).isEqualTo(3);
        assertThat(three).containsExactly(1, 2, 3);
        assertThat(m.readBytes(three)).isEqualTo(3);
        assertThat(three).containsExactly(4, 5, 6);
        assertThat(m.readUnsignedByte()).isEqualTo(0xF0);
        assertThat(m.readUnsignedShort()).isEqualTo(0xFFFE);
        assertThat(m.readBytes(three)).isEqualTo(-1);
    }

    @Test
    void layoutIsTheSameAsDataOutputStream() throws JMSException, IOException {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(expected)) {
            out.writeBoolean(true);
            out.writeByte(-2);
            out.writeShort(-300);
            out.writeChar('\u20ac');
            out.writeInt(Integer.MIN_VALUE);
            out.writeLong(Long.MAX_VALUE);
            out.writeFloat(-0.0f);
            out.writeDouble(Double.NaN);
            out.writeUTF("h\u00e9llo \u0000 \ud83d\ude00");
            out.write(new byte[] {1, 2, 3});
            out.write(new byte[] {4, 5, 6});
            out.writeByte(0xF0);
            out.writeShort(0xFFFE);
        }
        WharfBytesMessage m = written();
        assertThat(m.getBody(byte[].class)).isEqualTo(expected.toByteArray());
    }

    @Test
    void aNewMessageIsWriteOnly() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        m.writeInt(1);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageNotReadableException.class)
                .hasMessageContaining("reset()");
        assertThatThrownBy(m::getBodyLength).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(() -> m.readBytes(new byte[1])).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(m::readUTF).isInstanceOf(MessageNotReadableException.class);
        m.reset();
        assertThat(m.getBodyLength()).isEqualTo(4);
        assertThatThrownBy(() -> m.writeInt(2)).isInstanceOf(MessageNotWriteableException.class)
                .hasMessageContaining("clearBody()");
        assertThatThrownBy(() -> m.writeBytes(new byte[1])).isInstanceOf(MessageNotWriteableException.class);
        assertThatThrownBy(() -> m.writeObject("x")).isInstanceOf(MessageNotWriteableException.class);
        assertThatThrownBy(() -> m.writeUTF("x")).isInstanceOf(MessageNotWriteableException.class);
    }

    @Test
    void resetRewindsAReadOnlyMessage() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        m.writeLong(77);
        m.reset();
        assertThat(m.readLong()).isEqualTo(77);
        m.reset();
        assertThat(m.readLong()).isEqualTo(77);
    }

    @Test
    void clearBodyEmptiesAndMakesWriteOnly() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        m.writeLong(77);
        m.reset();
        m.clearBody();
        assertThatThrownBy(m::readLong).isInstanceOf(MessageNotReadableException.class);
        m.writeByte((byte) 5);
        m.reset();
        assertThat(m.getBodyLength()).isEqualTo(1);
        assertThat(m.readByte()).isEqualTo((byte) 5);
    }

    @Test
    void readingPastTheEndThrowsEofAndKeepsThePosition() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        m.writeShort((short) 0x0102);
        m.writeByte((byte) 3);
        m.reset();
        assertThatThrownBy(m::readInt).isInstanceOf(MessageEOFException.class).hasMessageContaining("needs 4 bytes");
        assertThatThrownBy(m::readLong).isInstanceOf(MessageEOFException.class);
        assertThat(m.readShort()).isEqualTo((short) 0x0102);
        assertThatThrownBy(m::readShort).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readChar).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readFloat).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readDouble).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readUnsignedShort).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readUTF).isInstanceOf(MessageEOFException.class);
        assertThat(m.readByte()).isEqualTo((byte) 3);
        assertThatThrownBy(m::readByte).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readBoolean).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readUnsignedByte).isInstanceOf(MessageEOFException.class);
    }

    @Test
    void aTruncatedUtfStringThrowsEofAndKeepsThePosition() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        m.writeShort((short) 10);
        m.writeBytes("abc".getBytes());
        m.reset();
        assertThatThrownBy(m::readUTF).isInstanceOf(MessageEOFException.class);
        assertThat(m.readShort()).isEqualTo((short) 10);
    }

    @Test
    void malformedUtfThrowsMessageFormatExceptionAndKeepsThePosition() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        m.writeShort((short) 2);
        m.writeByte((byte) 0xC3);
        m.writeByte((byte) 0x41);
        m.reset();
        assertThatThrownBy(m::readUTF).isInstanceOf(MessageFormatException.class);
        assertThat(m.readShort()).isEqualTo((short) 2);
    }

    @Test
    void readBytesFillsTheBufferAndThenReturnsLessAndThenMinusOne() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        m.writeBytes(new byte[] {1, 2, 3, 4, 5});
        m.reset();
        byte[] buf = new byte[2];
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(buf).containsExactly(1, 2);
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(buf).containsExactly(3, 4);
        assertThat(m.readBytes(buf)).isEqualTo(1);
        assertThat(buf[0]).isEqualTo((byte) 5);
        assertThat(m.readBytes(buf)).isEqualTo(-1);
    }

    @Test
    void readBytesWithLengthReadsAtMostThatMany() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        m.writeBytes(new byte[] {1, 2, 3, 4, 5});
        m.reset();
        byte[] buf = new byte[4];
        assertThat(m.readBytes(buf, 3)).isEqualTo(3);
        assertThat(buf).containsExactly(1, 2, 3, 0);
        assertThat(m.readBytes(buf, 0)).isEqualTo(0);
        assertThat(m.readBytes(buf, 4)).isEqualTo(2);
        assertThat(m.readBytes(buf, 4)).isEqualTo(-1);
        assertThatThrownBy(() -> m.readBytes(buf, 5)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> m.readBytes(buf, -1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void writeObjectWritesWrappersStringsAndBytes() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        for (Object o : List.of(true, (byte) 1, (short) 2, 'c', 3, 4L, 5f, 6d, "s", new byte[] {7})) {
            m.writeObject(o);
        }
        m.reset();
        assertThat(m.readBoolean()).isTrue();
        assertThat(m.readByte()).isEqualTo((byte) 1);
        assertThat(m.readShort()).isEqualTo((short) 2);
        assertThat(m.readChar()).isEqualTo('c');
        assertThat(m.readInt()).isEqualTo(3);
        assertThat(m.readLong()).isEqualTo(4L);
        assertThat(m.readFloat()).isEqualTo(5f);
        assertThat(m.readDouble()).isEqualTo(6d);
        assertThat(m.readUTF()).isEqualTo("s");
        assertThat(m.readByte()).isEqualTo((byte) 7);
        WharfBytesMessage w = new WharfBytesMessage();
        assertThatThrownBy(() -> w.writeObject(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> w.writeObject(new Object())).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> w.writeObject(List.of())).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void writeUtfRefusesStringsLongerThan65535EncodedBytes() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        m.writeUTF("a".repeat(65535));
        assertThatThrownBy(() -> m.writeUTF("\u00e9".repeat(40000))).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining("65535");
        m.reset();
        assertThat(m.readUTF()).hasSize(65535);
        assertThat(m.getBodyLength()).isEqualTo(65537);
    }

    @Test
    void writeBytesChecksItsRange() {
        WharfBytesMessage m = new WharfBytesMessage();
        assertThatThrownBy(() -> m.writeBytes(new byte[3], 2, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> m.writeBytes(new byte[3], -1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aReceivedMessageIsReadOnlyAndAtItsStart() throws JMSException {
        WharfBytesMessage m = Wire.roundTrip(written());
        assertThat(m.isBodyReadOnly()).isTrue();
        assertThat(m.getBodyLength()).isEqualTo(written().getBody(byte[].class).length);
        assertThat(m.readBoolean()).isTrue();
        assertThatThrownBy(() -> m.writeInt(1)).isInstanceOf(MessageNotWriteableException.class);
        m.clearBody();
        m.writeInt(1);
        m.reset();
        assertThat(m.readInt()).isEqualTo(1);
    }

    @Test
    void growsPastItsInitialCapacity() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        for (int i = 0; i < 100_000; i++) {
            m.writeInt(i);
        }
        m.reset();
        assertThat(m.getBodyLength()).isEqualTo(400_000);
        for (int i = 0; i < 100_000; i++) {
            assertThat(m.readInt()).isEqualTo(i);
        }
    }
}
