package dev.wharf.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.message.MessageExt;
import dev.wharf.jms.message.fixtures.NotSerializablePart;
import dev.wharf.jms.message.fixtures.Order;
import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ObjectMessage and TextMessage bodies, and the deserialization allow and deny lists. */
class ObjectMessageTest {

    private static final String FIXTURES = "dev.wharf.jms.message.fixtures";

    private static WharfObjectMessage receivedWith(DeserializationPolicy policy, Serializable object)
            throws JMSException {
        WharfObjectMessage sent = new WharfObjectMessage();
        sent.setObject(object);
        MessageExt ext = Wire.store(sent);
        return (WharfObjectMessage) new JmsMessageCodec(policy, Clock.systemUTC()).fromWharf(ext, 1, null, null);
    }

    @Test
    void theObjectIsCopiedWhenSetAndWhenRead() throws JMSException {
        ArrayList<String> list = new ArrayList<>(List.of("a"));
        WharfObjectMessage m = new WharfObjectMessage();
        m.setObject(list);
        list.add("b");
        @SuppressWarnings("unchecked")
        List<String> first = (List<String>) m.getObject();
        assertThat(first).containsExactly("a");
        first.add("c");
        assertThat(m.getObject()).isEqualTo(List.of("a"));
    }

    @Test
    void roundTripsObjectsAndNull() throws JMSException {
        Order order = new Order(7, "coffee", 3);
        assertThat(receivedWith(DeserializationPolicy.ALLOW_ALL, order).getObject()).isEqualTo(order);
        WharfObjectMessage empty = Wire.roundTrip(new WharfObjectMessage());
        assertThat(empty.getObject()).isNull();
        WharfObjectMessage nulled = new WharfObjectMessage();
        nulled.setObject(order);
        nulled.setObject(null);
        assertThat(((WharfObjectMessage) Wire.roundTrip(nulled)).getObject()).isNull();
    }

    @Test
    void anUnserializableObjectIsRefusedWhenSet() {
        WharfObjectMessage m = new WharfObjectMessage();
        assertThatThrownBy(() -> m.setObject(new NotSerializablePart())).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining(NotSerializablePart.class.getName()).hasMessageContaining("Serializable")
                .hasCauseInstanceOf(java.io.NotSerializableException.class);
    }

    @Test
    void aReceivedObjectMessageIsReadOnly() throws JMSException {
        WharfObjectMessage m = receivedWith(DeserializationPolicy.ALLOW_ALL, "x");
        assertThatThrownBy(() -> m.setObject("y")).isInstanceOf(MessageNotWriteableException.class);
        m.clearBody();
        assertThat(m.getObject()).isNull();
        m.setObject("y");
        assertThat(m.getObject()).isEqualTo("y");
    }

    @Test
    void anAllowListAdmitsItsPackagesNestedClassesAndTheBasicJavaTypes() throws JMSException {
        DeserializationPolicy policy = DeserializationPolicy.of(FIXTURES, null);
        Order order = new Order(1, "tea", 2);
        assertThat(receivedWith(policy, order).getObject()).isEqualTo(order);
        assertThat(receivedWith(policy, new Order[] {order}).getObject()).isEqualTo(new Order[] {order});
        assertThat(receivedWith(policy, 5).getObject()).isEqualTo(5);
        assertThat(receivedWith(policy, new int[] {1, 2}).getObject()).isEqualTo(new int[] {1, 2});
        assertThat(policy.isAllowed(FIXTURES + ".Order$Line")).isTrue();
        assertThat(policy.isAllowed(FIXTURES + "x.Order")).isFalse();
    }

    @Test
    void aClassOutsideTheAllowListIsRefusedWithAnExplanation() throws JMSException {
        DeserializationPolicy policy = DeserializationPolicy.of(FIXTURES, "");
        WharfObjectMessage m = receivedWith(policy, new ArrayList<>(List.of(new Order(1, "a", 1))));
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining("java.util.ArrayList").hasMessageContaining("deserializationAllowList");
        assertThat(m.isBodyAssignableTo(List.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(Object.class)).isInstanceOf(MessageFormatException.class);
        WharfObjectMessage date = receivedWith(policy, new Date(0));
        assertThatThrownBy(date::getObject).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining("java.util.Date");
    }

    @Test
    void theDenyListWinsOverTheAllowList() throws JMSException {
        DeserializationPolicy policy = DeserializationPolicy.of("*", FIXTURES + ".Order");
        WharfObjectMessage m = receivedWith(policy, new Order(1, "a", 1));
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining(FIXTURES + ".Order");
        assertThat(policy.isAllowed(FIXTURES + ".Order$Line")).isFalse();
        assertThat(policy.isAllowed("java.util.ArrayList")).isTrue();
        DeserializationPolicy denyOnly = DeserializationPolicy.of(null, "java.util");
        assertThat(denyOnly.isAllowed("java.util.Date")).isFalse();
        assertThat(denyOnly.isAllowed("java.utilities.X")).isTrue();
        assertThat(denyOnly.isAllowed(FIXTURES + ".Order")).isTrue();
        assertThatThrownBy(receivedWith(denyOnly, new Date(0))::getObject).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void theDefaultAllowsEverything() {
        assertThat(DeserializationPolicy.of(" ", null)).isSameAs(DeserializationPolicy.ALLOW_ALL);
        assertThat(DeserializationPolicy.ALLOW_ALL.allowsAll()).isTrue();
        assertThat(DeserializationPolicy.ALLOW_ALL.isAllowed("any.Thing")).isTrue();
        assertThat(new WharfObjectMessage().getDeserializationPolicy()).isSameAs(DeserializationPolicy.ALLOW_ALL);
    }

    @Test
    void malformedListEntriesAreRefused() {
        for (String bad : new String[] {"com..example", "1abc", "com.example.", "a b", "com/example"}) {
            assertThatThrownBy(() -> DeserializationPolicy.of(bad, null)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deserializationAllowList");
            assertThatThrownBy(() -> DeserializationPolicy.of(null, bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deserializationDenyList");
        }
        assertThat(DeserializationPolicy.of(" com.a , com.b ,", "x.Y").toString()).contains("com.a", "com.b", "x.Y");
    }

    @Test
    void aMissingClassAndDamagedBytesAreMessageFormatExceptions() throws JMSException {
        WharfObjectMessage sent = new WharfObjectMessage();
        sent.setObject(new Order(1, "a", 1));
        dev.wharf.common.message.Message wire = Wire.send(sent);
        byte[] body = wire.getBody();
        String s = new String(body, StandardCharsets.ISO_8859_1);
        int at = s.indexOf(FIXTURES + ".Order");
        body[at + FIXTURES.length() + 5] = 'X';
        WharfObjectMessage missing = (WharfObjectMessage) Wire.CODEC.fromWharf(StoredRecords.storeAndRead(wire, 1), 1,
                null, null);
        assertThatThrownBy(missing::getObject).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining("class path");
        wire.setBody(new byte[] {(byte) 0xAC, (byte) 0xED, 0, 5, 1});
        WharfObjectMessage damaged = (WharfObjectMessage) Wire.CODEC.fromWharf(StoredRecords.storeAndRead(wire, 1), 1,
                null, null);
        assertThatThrownBy(damaged::getObject).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining("damaged");
    }

    @Test
    void textMessagesRoundTripIncludingNullAndEmpty() throws JMSException {
        for (String text : new String[] {"hello", "", null, "\u0000\u0001\u0002 \u00e9 \ud83d\ude00",
            "x".repeat(200_000)}) {
            WharfTextMessage r = Wire.roundTrip(new WharfTextMessage(text));
            assertThat(r.getText()).isEqualTo(text);
        }
    }

    @Test
    void aReceivedTextMessageIsReadOnlyUntilCleared() throws JMSException {
        WharfTextMessage r = Wire.roundTrip(new WharfTextMessage("a"));
        assertThatThrownBy(() -> r.setText("b")).isInstanceOf(MessageNotWriteableException.class);
        r.clearBody();
        assertThat(r.getText()).isNull();
        r.setText("b");
        assertThat(r.getText()).isEqualTo("b");
    }
}
