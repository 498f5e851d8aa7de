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
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
        WharfObjectMessage m = receivedWith(policy,
                new ConcurrentHashMap<>(Map.of("order", new Order(1, "a", 1))));
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining("java.util.concurrent.ConcurrentHashMap")
                .hasMessageContaining("deserializationAllowList").hasMessageContaining(FIXTURES);
        assertThat(m.isBodyAssignableTo(Map.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(Object.class)).isInstanceOf(MessageFormatException.class);
        WharfObjectMessage uri = receivedWith(policy, URI.create("http://wharf.dev/"));
        assertThatThrownBy(uri::getObject).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining("java.net.URI");
        // the trusted JDK packages come with any allow list
        assertThat(receivedWith(policy, new ArrayList<>(List.of(new Order(1, "a", 1)))).getObject())
                .isEqualTo(List.of(new Order(1, "a", 1)));
    }

    @Test
    void theDenyListWinsOverTheAllowList() throws JMSException {
        DeserializationPolicy policy = DeserializationPolicy.of("*", FIXTURES + ".Order");
        WharfObjectMessage m = receivedWith(policy, new Order(1, "a", 1));
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining(FIXTURES + ".Order");
        assertThat(policy.isAllowed(FIXTURES + ".Order$Line")).isFalse();
        assertThat(policy.isAllowed("java.util.ArrayList")).isTrue();
        assertThat(policy.isAllowed("com.example.Anything")).isTrue();
        DeserializationPolicy denyOnly = DeserializationPolicy.of(null, "java.util");
        assertThat(denyOnly.isAllowed("java.util.Date")).as("a deny list beats the trusted packages").isFalse();
        assertThat(denyOnly.isAllowed("java.lang.String")).isTrue();
        assertThat(denyOnly.isAllowed(FIXTURES + ".Order")).isFalse();
        assertThatThrownBy(receivedWith(denyOnly, new Date(0))::getObject).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void theDefaultTrustsFourJdkPackagesOnly() throws JMSException {
        DeserializationPolicy policy = DeserializationPolicy.of(" ", null);
        assertThat(policy).isSameAs(DeserializationPolicy.DEFAULT);
        assertThat(policy.allowsAll()).isFalse();
        for (String trusted : List.of("java.lang.String", "java.lang.Integer", "java.util.ArrayList",
                "java.util.HashMap", "java.time.Instant", "java.math.BigDecimal",
                "java.util.ImmutableCollections$MapN")) {
            assertThat(policy.isAllowed(trusted)).as(trusted).isTrue();
        }
        for (String untrusted : List.of("java.lang.invoke.SerializedLambda", "java.lang.reflect.Proxy",
                "java.util.concurrent.ConcurrentHashMap", "java.net.URL",
                "javax.management.BadAttributeValueExpException",
                "org.apache.commons.collections.functors.InvokerTransformer", FIXTURES + ".Order",
                "java.utilities.X")) {
            assertThat(policy.isAllowed(untrusted)).as(untrusted).isFalse();
        }
        Map<String, Object> basics = new HashMap<>(Map.of("when", Instant.EPOCH, "amount", new BigDecimal("1.50"),
                "items", new ArrayList<>(List.of(1, 2)), "ints", new int[] {3}));
        Map<?, ?> received = (Map<?, ?>) receivedWith(policy, (Serializable) basics).getObject();
        assertThat(received.get("when")).isEqualTo(Instant.EPOCH);
        assertThat(received.get("amount")).isEqualTo(new BigDecimal("1.50"));
        assertThat(received.get("items")).isEqualTo(List.of(1, 2));
        WharfObjectMessage order = receivedWith(policy, new Order(1, "tea", 2));
        assertThatThrownBy(order::getObject).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining(FIXTURES + ".Order").hasMessageContaining("deserializationAllowList")
                .hasMessageContaining("java.lang, java.math, java.time, java.util");
        assertThat(DeserializationPolicy.of("*", "")).isSameAs(DeserializationPolicy.ALLOW_ALL);
        assertThat(DeserializationPolicy.ALLOW_ALL.allowsAll()).isTrue();
        assertThat(DeserializationPolicy.ALLOW_ALL.isAllowed("any.Thing")).isTrue();
        // a message the application makes itself holds its own object: no policy needed to read it back
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
