package dev.wharf.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.message.MessageExt;
import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** MapMessage: the 3.11.3 conversion table by name, names, copies, modes and the typed body on the wire. */
class MapMessageTest {

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> cells() {
        return StreamMessageTest.cells();
    }

    private static void set(WharfMapMessage m, String type, Object v) throws JMSException {
        switch (type) {
            case "boolean" -> m.setBoolean("k", (Boolean) v);
            case "byte" -> m.setByte("k", (Byte) v);
            case "short" -> m.setShort("k", (Short) v);
            case "char" -> m.setChar("k", (Character) v);
            case "int" -> m.setInt("k", (Integer) v);
            case "long" -> m.setLong("k", (Long) v);
            case "float" -> m.setFloat("k", (Float) v);
            case "double" -> m.setDouble("k", (Double) v);
            case "String" -> m.setString("k", (String) v);
            default -> m.setBytes("k", (byte[]) v);
        }
    }

    private static Object get(WharfMapMessage m, String type) throws JMSException {
        return switch (type) {
            case "boolean" -> m.getBoolean("k");
            case "byte" -> m.getByte("k");
            case "short" -> m.getShort("k");
            case "char" -> m.getChar("k");
            case "int" -> m.getInt("k");
            case "long" -> m.getLong("k");
            case "float" -> m.getFloat("k");
            case "double" -> m.getDouble("k");
            case "String" -> m.getString("k");
            default -> m.getBytes("k");
        };
    }

    @ParameterizedTest(name = "{0} read as {1}: {2}")
    @MethodSource("cells")
    void everyCellOfTheTable(String written, String readAs, boolean allowed) throws JMSException {
        WharfMapMessage sent = new WharfMapMessage();
        set(sent, written, StreamMessageTest.sample(written));
        for (WharfMapMessage m : new WharfMapMessage[] {sent, Wire.roundTrip(sent)}) {
            if (allowed) {
                assertThat(get(m, readAs)).isEqualTo(StreamMessageTest.expected(StreamMessageTest.sample(written),
                        readAs));
            } else {
                assertThatThrownBy(() -> get(m, readAs)).isInstanceOf(MessageFormatException.class)
                        .hasMessageContaining("Map entry \"k\"");
            }
        }
    }

    @Test
    void absentEntriesReadAsValueOfNull() throws JMSException {
        WharfMapMessage m = new WharfMapMessage();
        assertThat(m.itemExists("x")).isFalse();
        assertThat(m.getBoolean("x")).isFalse();
        assertThat(m.getString("x")).isNull();
        assertThat(m.getBytes("x")).isNull();
        assertThat(m.getObject("x")).isNull();
        assertThatThrownBy(() -> m.getInt("x")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getLong("x")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getDouble("x")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> m.getChar("x")).isInstanceOf(NullPointerException.class);
    }

    @Test
    void namesMustBeNonEmpty() {
        WharfMapMessage m = new WharfMapMessage();
        assertThatThrownBy(() -> m.setInt(null, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.setString("", "v")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.setObject("", 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anyStringIsAName() throws JMSException {
        WharfMapMessage m = new WharfMapMessage();
        m.setString("with space / and \u0001 separators", "v");
        m.setString("NULL", "keyword");
        WharfMapMessage r = Wire.roundTrip(m);
        assertThat(r.getString("with space / and \u0001 separators")).isEqualTo("v");
        assertThat(r.getString("NULL")).isEqualTo("keyword");
    }

    @Test
    void setObjectAcceptsWrappersStringBytesAndNull() throws JMSException {
        WharfMapMessage m = new WharfMapMessage();
        Object[] values = {true, (byte) 1, (short) 2, 'c', 3, 4L, 5f, 6d, "s", null};
        for (int i = 0; i < values.length; i++) {
            m.setObject("k" + i, values[i]);
        }
        m.setObject("bytes", new byte[] {1});
        assertThatThrownBy(() -> m.setObject("bad", new Object())).isInstanceOf(MessageFormatException.class);
        assertThat(m.itemExists("bad")).isFalse();
        WharfMapMessage r = Wire.roundTrip(m);
        for (int i = 0; i < values.length; i++) {
            assertThat(r.getObject("k" + i)).isEqualTo(values[i]);
        }
        assertThat(r.itemExists("k9")).isTrue();
        assertThat((byte[]) r.getObject("bytes")).containsExactly(1);
        assertThat(Collections.list(r.getMapNames())).hasSize(11);
    }

    @Test
    void bytesAreCopiedInAndOut() throws JMSException {
        byte[] original = {1, 2, 3, 4};
        WharfMapMessage m = new WharfMapMessage();
        m.setBytes("b", original);
        m.setBytes("part", original, 1, 2);
        original[0] = 9;
        byte[] out = m.getBytes("b");
        assertThat(out).containsExactly(1, 2, 3, 4);
        out[0] = 8;
        assertThat(m.getBytes("b")).containsExactly(1, 2, 3, 4);
        assertThat(m.getBytes("part")).containsExactly(2, 3);
        ((byte[]) m.getObject("b"))[1] = 7;
        assertThat(m.getBytes("b")).containsExactly(1, 2, 3, 4);
        assertThatThrownBy(() -> m.setBytes("x", original, 3, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aMapIsReadableWhileWritableAndReadOnlyWhenReceived() throws JMSException {
        WharfMapMessage m = new WharfMapMessage();
        m.setInt("a", 1);
        assertThat(m.getInt("a")).isEqualTo(1);
        WharfMapMessage r = Wire.roundTrip(m);
        assertThat(r.getInt("a")).isEqualTo(1);
        assertThatThrownBy(() -> r.setInt("b", 2)).isInstanceOf(MessageNotWriteableException.class);
        assertThatThrownBy(() -> r.setObject("b", new Object())).isInstanceOf(MessageNotWriteableException.class);
        r.clearBody();
        assertThat(r.itemExists("a")).isFalse();
        r.setInt("b", 2);
        assertThat(Collections.list(r.getMapNames())).containsExactly("b");
    }

    @Test
    void aDamagedBodyFailsTheReadNotTheDelivery() throws JMSException {
        WharfMapMessage m = new WharfMapMessage();
        m.setString("a", "b");
        dev.wharf.common.message.Message wire = Wire.send(m);
        wire.setBody(new byte[] {1, 0, 0, 0, 5, 9});
        MessageExt ext = StoredRecords.storeAndRead(wire, 1L);
        WharfMapMessage r = (WharfMapMessage) Wire.CODEC.fromWharf(ext, 1, null, null);
        assertThatThrownBy(() -> r.getString("a")).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining("damaged");
        assertThat(r.isBodyAssignableTo(java.util.Map.class)).isFalse();
    }
}
