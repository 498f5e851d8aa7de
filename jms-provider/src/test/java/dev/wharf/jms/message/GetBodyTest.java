package dev.wharf.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code getBody(Class)} and {@code isBodyAssignableTo(Class)} for every body type, with and without a body. */
class GetBodyTest {

    private static final List<Class<?>> ANY = List.of(Object.class, String.class, byte[].class, Map.class,
            Integer.class, Serializable.class, HashMap.class);

    @Test
    void aPlainMessageReturnsNullForEveryClass() throws JMSException {
        WharfMessage m = new WharfMessage();
        for (Class<?> c : ANY) {
            assertThat(m.getBody(c)).isNull();
            assertThat(m.isBodyAssignableTo(c)).isTrue();
        }
    }

    @Test
    void emptyBodiesReturnNullForEveryClass() throws JMSException {
        for (WharfMessage m : List.of(new WharfTextMessage(), new WharfObjectMessage(), new WharfMapMessage(),
                new WharfBytesMessage())) {
            for (Class<?> c : ANY) {
                assertThat(m.getBody(c)).as(m.getClass().getSimpleName() + " as " + c).isNull();
                assertThat(m.isBodyAssignableTo(c)).isTrue();
            }
        }
    }

    @Test
    void text() throws JMSException {
        WharfTextMessage m = new WharfTextMessage("hi");
        assertThat(m.getBody(String.class)).isEqualTo("hi");
        assertThat(m.getBody(CharSequence.class)).isEqualTo("hi");
        assertThat(m.getBody(Object.class)).isEqualTo("hi");
        assertThat(m.getBody(Comparable.class)).isEqualTo("hi");
        assertThat(m.isBodyAssignableTo(Serializable.class)).isTrue();
        assertThat(m.isBodyAssignableTo(byte[].class)).isFalse();
        assertThatThrownBy(() -> m.getBody(Integer.class)).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining("String.class");
        assertThatThrownBy(() -> m.getBody(StringBuilder.class)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void object() throws JMSException {
        WharfObjectMessage m = new WharfObjectMessage();
        m.setObject(42);
        assertThat(m.getBody(Integer.class)).isEqualTo(42);
        assertThat(m.getBody(Number.class)).isEqualTo(42);
        assertThat(m.getBody(Serializable.class)).isEqualTo(42);
        assertThat(m.isBodyAssignableTo(Number.class)).isTrue();
        assertThat(m.isBodyAssignableTo(String.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(String.class)).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining("java.lang.Integer");
    }

    @Test
    void map() throws JMSException {
        WharfMapMessage m = new WharfMapMessage();
        m.setInt("a", 1);
        m.setBytes("b", new byte[] {2});
        @SuppressWarnings("unchecked")
        Map<String, Object> body = m.getBody(Map.class);
        assertThat(body).containsEntry("a", 1).containsKey("b");
        body.put("c", 3);
        ((byte[]) body.get("b"))[0] = 9;
        assertThat(m.itemExists("c")).isFalse();
        assertThat(m.getBytes("b")).containsExactly(2);
        assertThat(m.getBody(Object.class)).isInstanceOf(Map.class);
        assertThat(m.isBodyAssignableTo(Map.class)).isTrue();
        assertThat(m.isBodyAssignableTo(HashMap.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(HashMap.class)).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.getBody(String.class)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void bytesAreReturnedWholeAndTheMessageIsResetBeforeAndAfter() throws JMSException {
        WharfBytesMessage m = new WharfBytesMessage();
        m.writeInt(0x01020304);
        assertThat(m.getBody(byte[].class)).containsExactly(1, 2, 3, 4);
        // getBody reset the message: it is now readable from the start.
        assertThat(m.readShort()).isEqualTo((short) 0x0102);
        assertThat(m.getBody(Object.class)).isEqualTo(new byte[] {1, 2, 3, 4});
        assertThat(m.readInt()).isEqualTo(0x01020304);
        assertThat(m.isBodyAssignableTo(byte[].class)).isTrue();
        assertThat(m.isBodyAssignableTo(String.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(String.class)).isInstanceOf(MessageFormatException.class);
        byte[] body = m.getBody(byte[].class);
        body[0] = 9;
        assertThat(m.getBody(byte[].class)[0]).isEqualTo((byte) 1);
    }

    @Test
    void aStreamNeverHasABodyObject() throws JMSException {
        WharfStreamMessage m = new WharfStreamMessage();
        assertThatThrownBy(() -> m.getBody(Object.class)).isInstanceOf(MessageFormatException.class);
        m.writeInt(1);
        for (Class<?> c : ANY) {
            assertThat(m.isBodyAssignableTo(c)).isFalse();
            assertThatThrownBy(() -> m.getBody(c)).isInstanceOf(MessageFormatException.class);
        }
    }

    @Test
    void receivedBodiesBehaveTheSame() throws JMSException {
        WharfTextMessage t = Wire.roundTrip(new WharfTextMessage("x"));
        assertThat(t.getBody(String.class)).isEqualTo("x");
        WharfBytesMessage b = new WharfBytesMessage();
        b.writeByte((byte) 1);
        WharfBytesMessage rb = Wire.roundTrip(b);
        assertThat(rb.getBody(byte[].class)).containsExactly(1);
        assertThat(rb.readByte()).isEqualTo((byte) 1);
        WharfMessage plain = Wire.roundTrip(new WharfMessage());
        assertThat(plain.getBody(String.class)).isNull();
    }

    @Test
    void aNullClassIsRefused() {
        assertThatThrownBy(() -> new WharfTextMessage("x").getBody(null)).isInstanceOf(MessageFormatException.class);
    }
}
