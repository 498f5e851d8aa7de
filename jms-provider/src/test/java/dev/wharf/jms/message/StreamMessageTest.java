package dev.wharf.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** StreamMessage: the 3.11.3 conversion table, pointer rules after failures, readBytes in pieces, modes. */
class StreamMessageTest {

    static final List<String> TYPES = List.of("boolean", "byte", "short", "char", "int", "long", "float", "double",
            "String", "byte[]");

    /** Rows: written as; columns in {@link #TYPES} order. */
    static final String[] TABLE = {
        "boolean X.......X.",
        "byte    .XX.XX..X.",
        "short   ..X.XX..X.",
        "char    ...X....X.",
        "int     ....XX..X.",
        "long    .....X..X.",
        "float   ......XXX.",
        "double  .......XX.",
        "String  XXX.XXXXX.",
        "byte[]  .........X",
    };

    static Object sample(String type) {
        return switch (type) {
            case "boolean" -> false;
            case "byte" -> (byte) 100;
            case "short" -> (short) -32000;
            case "char" -> 'Z';
            case "int" -> -5;
            case "long" -> Long.MIN_VALUE;
            case "float" -> Float.MAX_VALUE;
            case "double" -> -0.0d;
            case "String" -> "17";
            default -> new byte[] {1, 2};
        };
    }

    static Stream<Arguments> cells() {
        List<Arguments> out = new ArrayList<>();
        for (String row : TABLE) {
            String written = row.substring(0, 8).strip();
            for (int c = 0; c < TYPES.size(); c++) {
                out.add(Arguments.of(written, TYPES.get(c), row.charAt(8 + c) == 'X'));
            }
        }
        return out.stream();
    }

    static Object expected(Object v, String readAs) {
        if (readAs.equals("String")) {
            return String.valueOf(v);
        }
        if (v instanceof String s) {
            return switch (readAs) {
                case "boolean" -> Boolean.valueOf(s);
                case "byte" -> Byte.valueOf(s);
                case "short" -> Short.valueOf(s);
                case "int" -> Integer.valueOf(s);
                case "long" -> Long.valueOf(s);
                case "float" -> Float.valueOf(s);
                default -> Double.valueOf(s);
            };
        }
        if (v instanceof Number n && !(v instanceof Float && readAs.equals("float"))) {
            return switch (readAs) {
                case "short" -> n.shortValue();
                case "int" -> n.intValue();
                case "long" -> n.longValue();
                case "double" -> v instanceof Float f ? (double) f : n.doubleValue();
                default -> v;
            };
        }
        return v;
    }

    private static void write(WharfStreamMessage m, String type, Object v) throws JMSException {
        switch (type) {
            case "boolean" -> m.writeBoolean((Boolean) v);
            case "byte" -> m.writeByte((Byte) v);
            case "short" -> m.writeShort((Short) v);
            case "char" -> m.writeChar((Character) v);
            case "int" -> m.writeInt((Integer) v);
            case "long" -> m.writeLong((Long) v);
            case "float" -> m.writeFloat((Float) v);
            case "double" -> m.writeDouble((Double) v);
            case "String" -> m.writeString((String) v);
            default -> m.writeBytes((byte[]) v);
        }
    }

    private static Object read(WharfStreamMessage m, String type) throws JMSException {
        return switch (type) {
            case "boolean" -> m.readBoolean();
            case "byte" -> m.readByte();
            case "short" -> m.readShort();
            case "char" -> m.readChar();
            case "int" -> m.readInt();
            case "long" -> m.readLong();
            case "float" -> m.readFloat();
            case "double" -> m.readDouble();
            case "String" -> m.readString();
            default -> {
                byte[] buf = new byte[16];
                int n = m.readBytes(buf);
                yield java.util.Arrays.copyOf(buf, n);
            }
        };
    }

    @ParameterizedTest(name = "{0} read as {1}: {2}")
    @MethodSource("cells")
    void everyCellOfTheTable(String written, String readAs, boolean allowed) throws JMSException {
        WharfStreamMessage m = new WharfStreamMessage();
        write(m, written, sample(written));
        m.writeString("next");
        m.reset();
        if (allowed) {
            assertThat(read(m, readAs)).isEqualTo(expected(sample(written), readAs));
            assertThat(m.readString()).isEqualTo("next");
        } else {
            assertThatThrownBy(() -> read(m, readAs)).isInstanceOf(MessageFormatException.class)
                    .hasMessageContaining("Stream field 1");
            // The pointer did not move: the field can be read again as what it is.
            assertThat(m.readObject()).isEqualTo(sample(written));
            assertThat(m.readString()).isEqualTo("next");
        }
    }

    @ParameterizedTest(name = "{0} read as {1}: {2}")
    @MethodSource("cells")
    void everyCellAfterTheWire(String written, String readAs, boolean allowed) throws JMSException {
        WharfStreamMessage sent = new WharfStreamMessage();
        write(sent, written, sample(written));
        WharfStreamMessage m = Wire.roundTrip(sent);
        if (allowed) {
            assertThat(read(m, readAs)).isEqualTo(expected(sample(written), readAs));
        } else {
            assertThatThrownBy(() -> read(m, readAs)).isInstanceOf(MessageFormatException.class);
        }
    }

    @Test
    void aStringThatDoesNotParseThrowsNumberFormatExceptionAndThePointerStays() throws JMSException {
        WharfStreamMessage m = new WharfStreamMessage();
        m.writeString("abc");
        m.reset();
        for (String type : List.of("byte", "short", "int", "long", "float", "double")) {
            assertThatThrownBy(() -> read(m, type)).as(type).isInstanceOf(NumberFormatException.class);
        }
        assertThat(m.readString()).isEqualTo("abc");
    }

    @Test
    void nullValuesReadAsValueOfNull() throws JMSException {
        WharfStreamMessage m = new WharfStreamMessage();
        m.writeObject(null);
        m.writeString(null);
        m.writeObject(null);
        m.writeObject(null);
        m.reset();
        assertThat(m.readBoolean()).isFalse();
        assertThat(m.readString()).isNull();
        assertThatThrownBy(m::readInt).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(m::readFloat).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(m::readChar).isInstanceOf(NullPointerException.class);
        assertThat(m.readObject()).isNull();
        assertThat(m.readBytes(new byte[4])).isEqualTo(-1);
        assertThatThrownBy(m::readObject).isInstanceOf(MessageEOFException.class);
    }

    @Test
    void readBytesReadsAFieldInPieces() throws JMSException {
        WharfStreamMessage m = new WharfStreamMessage();
        m.writeBytes(new byte[] {1, 2, 3, 4, 5});
        m.writeBytes(new byte[] {6, 7});
        m.writeBytes(new byte[0]);
        m.writeInt(9);
        m.reset();
        byte[] buf = new byte[2];
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(buf).containsExactly(1, 2);
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(buf).containsExactly(3, 4);
        assertThat(m.readBytes(buf)).isEqualTo(1);
        assertThat(buf[0]).isEqualTo((byte) 5);
        // Second field fills the buffer exactly: the next call returns -1 and ends the field.
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(buf).containsExactly(6, 7);
        assertThat(m.readBytes(buf)).isEqualTo(-1);
        // An empty field reads as 0.
        assertThat(m.readBytes(buf)).isEqualTo(0);
        assertThat(m.readInt()).isEqualTo(9);
        assertThatThrownBy(() -> m.readBytes(buf)).isInstanceOf(MessageEOFException.class);
    }

    @Test
    void aLargerBufferReadsTheWholeFieldAtOnce() throws JMSException {
        WharfStreamMessage m = new WharfStreamMessage();
        m.writeBytes(new byte[] {4, 115, (byte) 255});
        m.writeBoolean(true);
        m.reset();
        byte[] buf = new byte[4];
        assertThat(m.readBytes(buf)).isEqualTo(3);
        assertThat(m.readBoolean()).isTrue();
    }

    @Test
    void otherReadsFailWhileAByteFieldIsPartlyRead() throws JMSException {
        WharfStreamMessage m = new WharfStreamMessage();
        m.writeBytes(new byte[] {1, 2, 3});
        m.writeInt(5);
        m.reset();
        byte[] buf = new byte[1];
        assertThat(m.readBytes(buf)).isEqualTo(1);
        assertThatThrownBy(m::readObject).isInstanceOf(MessageFormatException.class).hasMessageContaining("partly");
        assertThatThrownBy(m::readInt).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(m::readString).isInstanceOf(MessageFormatException.class);
        assertThat(m.readBytes(buf)).isEqualTo(1);
        assertThat(m.readBytes(buf)).isEqualTo(1);
        assertThat(m.readBytes(buf)).isEqualTo(-1);
        assertThat(m.readInt()).isEqualTo(5);
    }

    @Test
    void readBytesOnAnotherTypeFailsWithoutMoving() throws JMSException {
        WharfStreamMessage m = new WharfStreamMessage();
        m.writeString("s");
        m.reset();
        assertThatThrownBy(() -> m.readBytes(new byte[2])).isInstanceOf(MessageFormatException.class);
        assertThat(m.readString()).isEqualTo("s");
    }

    @Test
    void readObjectReturnsCopiesOfByteArrays() throws JMSException {
        byte[] original = {1, 2};
        WharfStreamMessage m = new WharfStreamMessage();
        m.writeBytes(original);
        original[0] = 99;
        m.reset();
        byte[] first = (byte[]) m.readObject();
        assertThat(first).containsExactly(1, 2);
        first[1] = 77;
        m.reset();
        assertThat((byte[]) m.readObject()).containsExactly(1, 2);
    }

    @Test
    void writeObjectAcceptsWrappersStringBytesAndNullOnly() throws JMSException {
        WharfStreamMessage m = new WharfStreamMessage();
        for (Object o : new Object[] {true, (byte) 1, (short) 2, 'c', 3, 4L, 5f, 6d, "s", new byte[] {7}, null}) {
            m.writeObject(o);
        }
        assertThatThrownBy(() -> m.writeObject(new Object())).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.writeObject(new StringBuilder())).isInstanceOf(MessageFormatException.class);
        m.writeBytes(new byte[] {9, 8, 7, 6}, 1, 2);
        m.reset();
        for (int i = 0; i < 9; i++) {
            m.readObject();
        }
        assertThat((byte[]) m.readObject()).containsExactly(7);
        assertThat(m.readObject()).isNull();
        assertThat((byte[]) m.readObject()).containsExactly(8, 7);
        assertThatThrownBy(m::readObject).isInstanceOf(MessageEOFException.class);
    }

    @Test
    void modes() throws JMSException {
        WharfStreamMessage m = new WharfStreamMessage();
        m.writeInt(1);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(() -> m.readBytes(new byte[1])).isInstanceOf(MessageNotReadableException.class);
        m.reset();
        assertThatThrownBy(() -> m.writeInt(2)).isInstanceOf(MessageNotWriteableException.class);
        assertThatThrownBy(() -> m.writeObject(new Object())).isInstanceOf(MessageNotWriteableException.class);
        assertThat(m.readInt()).isEqualTo(1);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageEOFException.class);
        m.reset();
        assertThat(m.readInt()).isEqualTo(1);
        m.clearBody();
        assertThatThrownBy(m::readInt).isInstanceOf(MessageNotReadableException.class);
        m.writeInt(3);
        m.reset();
        assertThat(m.readInt()).isEqualTo(3);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageEOFException.class);
    }

    @Test
    void aReceivedStreamIsReadOnlyAndDecodesEveryValueExactly() throws JMSException {
        WharfStreamMessage sent = new WharfStreamMessage();
        Object[] values = {Float.NaN, -0.0f, Double.MIN_VALUE, Double.NEGATIVE_INFINITY, Long.MIN_VALUE,
            "\u0000\u0001\u0002\ud800 lone surrogate", "", '\uffff', Byte.MIN_VALUE, Short.MAX_VALUE, null,
            new byte[0], new byte[] {-1}};
        for (Object v : values) {
            sent.writeObject(v);
        }
        WharfStreamMessage m = Wire.roundTrip(sent);
        assertThatThrownBy(() -> m.writeInt(1)).isInstanceOf(MessageNotWriteableException.class);
        for (Object v : values) {
            Object r = m.readObject();
            if (v instanceof Float f) {
                assertThat(Float.floatToRawIntBits((Float) r)).isEqualTo(Float.floatToRawIntBits(f));
            } else {
                assertThat(r).isEqualTo(v);
            }
        }
    }
}
