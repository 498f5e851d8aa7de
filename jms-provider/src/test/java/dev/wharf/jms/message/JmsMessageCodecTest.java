package dev.wharf.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.UniqueIdGenerator;
import dev.wharf.jms.destination.Destinations;
import dev.wharf.jms.destination.WharfQueue;
import dev.wharf.jms.destination.WharfTemporaryQueue;
import dev.wharf.jms.destination.WharfTemporaryTopic;
import dev.wharf.jms.destination.WharfTopic;
import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The wire mapping: every header, property and body through a stored record and back. */
class JmsMessageCodecTest {

    private static WharfTextMessage fullySet() throws JMSException {
        WharfTextMessage m = new WharfTextMessage("body");
        m.setJMSMessageID("ID:" + UniqueIdGenerator.next());
        m.setJMSTimestamp(Wire.NOW - 5);
        m.setJMSCorrelationID("corr-1");
        m.setJMSReplyTo(new WharfTemporaryQueue("TMP_reply", null));
        m.setJMSDestination(new WharfQueue("orders"));
        m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        m.setJMSType("car");
        m.setJMSExpiration(Wire.NOW + 60_000);
        m.setJMSDeliveryTime(Wire.NOW - 5);
        m.setJMSPriority(7);
        m.setStringProperty("JMSXGroupID", "g1");
        m.setIntProperty("JMSXGroupSeq", 2);
        m.setStringProperty("color", "blue");
        m.setIntProperty("weight", 2600);
        return m;
    }

    @Test
    void everyHeaderRoundTrips() throws JMSException {
        WharfTextMessage sent = fullySet();
        WharfTextMessage r = Wire.roundTrip(sent);
        assertThat(r.getJMSMessageID()).isEqualTo(sent.getJMSMessageID());
        assertThat(r.getJMSTimestamp()).isEqualTo(sent.getJMSTimestamp());
        assertThat(r.getJMSCorrelationID()).isEqualTo("corr-1");
        assertThat(r.getJMSReplyTo()).isEqualTo(new WharfTemporaryQueue("TMP_reply", null));
        assertThat(r.getJMSDestination()).isEqualTo(new WharfQueue("orders"));
        assertThat(r.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(r.getJMSType()).isEqualTo("car");
        assertThat(r.getJMSExpiration()).isEqualTo(Wire.NOW + 60_000);
        assertThat(r.getJMSDeliveryTime()).isEqualTo(Wire.NOW - 5);
        assertThat(r.getJMSPriority()).isEqualTo(7);
        assertThat(r.getJMSRedelivered()).isFalse();
        assertThat(r.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
        assertThat(r.getStringProperty("JMSXGroupID")).isEqualTo("g1");
        assertThat(r.getObjectProperty("JMSXGroupSeq")).isEqualTo(2);
        assertThat(r.getText()).isEqualTo("body");
        assertThat(Collections.list(r.getPropertyNames())).containsExactlyInAnyOrder("JMSXGroupID", "JMSXGroupSeq",
                "color", "weight", "JMSXDeliveryCount");
    }

    @Test
    void defaultsAndEveryDestinationKindRoundTrip() throws JMSException {
        for (var d : List.of(new WharfQueue("q"), new WharfTopic("t"), new WharfTemporaryQueue("tq", null),
                new WharfTemporaryTopic("tt", null))) {
            WharfMessage m = new WharfMessage();
            m.setJMSReplyTo(d);
            m.setJMSDestination(d);
            WharfMessage r = Wire.roundTrip(m);
            assertThat(r.getJMSReplyTo()).isEqualTo(d);
            assertThat(r.getJMSDestination()).isEqualTo(d);
            assertThat(r.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
            assertThat(r.getJMSPriority()).isEqualTo(4);
            assertThat(r.getJMSExpiration()).isZero();
            assertThat(r.getJMSType()).isNull();
            assertThat(r.getJMSCorrelationID()).isNull();
        }
        for (int priority = 0; priority <= 9; priority++) {
            WharfMessage m = new WharfMessage();
            m.setJMSPriority(priority);
            assertThat(Wire.roundTrip(m).getJMSPriority()).isEqualTo(priority);
        }
    }

    @Test
    void redeliveryComesFromTheDeliveryCount() throws JMSException {
        MessageExt ext = Wire.store(fullySet());
        WharfMessage third = Wire.CODEC.fromWharf(ext, 3, null, null);
        assertThat(third.getJMSRedelivered()).isTrue();
        assertThat(third.getIntProperty("JMSXDeliveryCount")).isEqualTo(3);
        assertThatThrownBy(() -> Wire.CODEC.fromWharf(ext, 0, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deliveryCount");
    }

    @Test
    void theStoredPropertiesAreWhatTheBrokerEvaluatesSelectorsOn() throws JMSException {
        WharfTextMessage sent = fullySet();
        sent.setBooleanProperty("flag", true);
        sent.setDoubleProperty("ratio", 0.5);
        Map<String, String> p = Wire.send(sent).getProperties();
        assertThat(p).containsEntry(MessageProperties.TAGS, "car")
                .containsEntry(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, sent.getJMSMessageID().substring(3))
                .containsEntry("JMSDeliveryMode", "NON_PERSISTENT")
                .containsEntry(MessageProperties.WAIT_STORE_MSG_OK, "false")
                .containsEntry("JMSPriority", "7")
                .containsEntry("JMSCorrelationID", "corr-1")
                .containsEntry("JMSExpiration", Long.toString(Wire.NOW + 60_000))
                .containsEntry("JMSDeliveryTime", Long.toString(Wire.NOW - 5))
                .containsEntry("JMSReplyTo", "temp-queue://TMP_reply")
                .containsEntry("JMSDestination", "queue://orders")
                .containsEntry("JMSXGroupID", "g1")
                .containsEntry("JMSXGroupSeq", "2")
                .containsEntry("color", "blue")
                .containsEntry("weight", "2600")
                .containsEntry("flag", "true")
                .containsEntry("ratio", "0.5")
                .containsEntry("JMS_Wharf_BodyType", "text")
                .doesNotContainKeys("JMSXDeliveryCount", MessageProperties.DELIVER_TIME_MS, "JMS_Wharf_NullBody");
        assertThat(new HashSet<>(Arrays.asList(p.get("WHARF_PROPERTY_TYPES").split(","))))
                .containsExactlyInAnyOrder("JMSPriority:I", "JMSXGroupSeq:I", "weight:I", "flag:Z", "ratio:D");
    }

    /**
     * What the broker's selector evaluation needs is all in the stored record: a property source built only from
     * the stored properties and the born timestamp, the way the contract says the broker resolves identifiers,
     * gives the selector engine the same values the sender set.
     */
    @Test
    void theStoredFormIsEnoughToEvaluateSelectors() throws JMSException {
        WharfTextMessage sent = fullySet();
        sent.setBooleanProperty("flag", true);
        sent.setDoubleProperty("ratio", 0.5);
        sent.setLongProperty("big", Long.MAX_VALUE);
        sent.setStringProperty("odd", "x\u0001y");
        MessageExt stored = Wire.store(sent);
        Map<String, String> p = stored.getProperties();
        Map<String, Character> types = WireProperties.parseTypes(p.get(WireProperties.PROPERTY_TYPES));
        dev.wharf.filter.PropertySource source = name -> switch (name) {
            case "JMSType" -> p.get(MessageProperties.TAGS);
            case "JMSMessageID" -> p.containsKey(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID)
                    ? "ID:" + p.get(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID) : null;
            case "JMSTimestamp" -> stored.getBornTimestamp();
            default -> {
                String v = p.get(name);
                Character t = types.get(name);
                yield v == null || t == null ? v : WireProperties.parse(t, v);
            }
        };
        for (String selector : List.of(
                "JMSType = 'car' AND color = 'blue' AND weight > 2500",
                "JMSPriority >= 7 AND JMSDeliveryMode = 'NON_PERSISTENT'",
                "JMSCorrelationID = 'corr-1' AND JMSMessageID = '" + sent.getJMSMessageID() + "'",
                "JMSTimestamp = " + sent.getJMSTimestamp(),
                "flag = TRUE AND ratio < 1.0 AND ratio > 0.49 AND big = 9223372036854775807",
                "JMSXGroupID = 'g1' AND JMSXGroupSeq = 2",
                "missing IS NULL AND color IN ('red', 'blue') AND color LIKE 'bl%'")) {
            assertThat(dev.wharf.filter.SelectorParser.parse(selector).matches(source)).as(selector).isTrue();
        }
        for (String selector : List.of("weight = '2600'", "JMSPriority < 7", "JMSDeliveryMode = 'PERSISTENT'",
                "JMSType = 'bike'", "odd = 'x'")) {
            assertThat(dev.wharf.filter.SelectorParser.parse(selector).matches(source)).as(selector).isFalse();
        }
    }

    @Test
    void aPersistentMessageWaitsForTheStore() throws JMSException {
        Map<String, String> p = Wire.send(new WharfMessage()).getProperties();
        assertThat(p).containsEntry("JMSDeliveryMode", "PERSISTENT").doesNotContainKey(MessageProperties.WAIT_STORE_MSG_OK)
                .containsEntry("WHARF_PROPERTY_TYPES", "JMSPriority:I").doesNotContainKey(MessageProperties.TAGS)
                .doesNotContainKey(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID);
    }

    @Test
    void aFutureDeliveryTimeAsksTheBrokerToHoldTheMessage() throws JMSException {
        WharfMessage later = new WharfMessage();
        later.setJMSDeliveryTime(Wire.NOW + 10_000);
        assertThat(Wire.send(later).getDeliverTimeMs()).isEqualTo(Wire.NOW + 10_000);
        WharfMessage now = new WharfMessage();
        now.setJMSDeliveryTime(Wire.NOW);
        assertThat(Wire.send(now).getProperties()).doesNotContainKey(MessageProperties.DELIVER_TIME_MS);
    }

    @Test
    void typedPropertiesRoundTripExactlyIncludingExtremes() throws JMSException {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("bTrue", true);
        values.put("bFalse", false);
        values.put("byteMin", Byte.MIN_VALUE);
        values.put("byteMax", Byte.MAX_VALUE);
        values.put("shortMin", Short.MIN_VALUE);
        values.put("intMin", Integer.MIN_VALUE);
        values.put("intMax", Integer.MAX_VALUE);
        values.put("longMin", Long.MIN_VALUE);
        values.put("longMax", Long.MAX_VALUE);
        values.put("fNaN", Float.NaN);
        values.put("fNegZero", -0.0f);
        values.put("fMin", Float.MIN_VALUE);
        values.put("fMax", Float.MAX_VALUE);
        values.put("fInf", Float.NEGATIVE_INFINITY);
        values.put("fThird", 1f / 3);
        values.put("dNaN", Double.NaN);
        values.put("dNegZero", -0.0d);
        values.put("dMin", Double.MIN_VALUE);
        values.put("dMinNormal", Double.MIN_NORMAL);
        values.put("dMax", Double.MAX_VALUE);
        values.put("dInf", Double.POSITIVE_INFINITY);
        values.put("dTenth", 0.1);
        values.put("sEmpty", "");
        values.put("sNumeric", "123");
        values.put("sTrue", "true");
        values.put("sSeparators", "a\u0001b\u0002c\u0000d");
        values.put("sLooksEscaped", "\u00001x");
        values.put("sUnicode", "\u00e9\ud83d\ude00 \u4e2d");
        WharfMessage m = new WharfMessage();
        for (Map.Entry<String, Object> e : values.entrySet()) {
            m.setObjectProperty(e.getKey(), e.getValue());
        }
        WharfMessage r = Wire.roundTrip(m);
        for (Map.Entry<String, Object> e : values.entrySet()) {
            Object got = r.getObjectProperty(e.getKey());
            assertThat(got).as(e.getKey()).isInstanceOf(e.getValue().getClass()).isEqualTo(e.getValue());
            if (got instanceof Float f) {
                assertThat(Float.floatToIntBits(f)).isEqualTo(Float.floatToIntBits((Float) e.getValue()));
            }
            if (got instanceof Double d) {
                assertThat(Double.doubleToLongBits(d)).isEqualTo(Double.doubleToLongBits((Double) e.getValue()));
            }
        }
    }

    @Test
    void separatorsAreEncodedReversiblyAndPlainStringsAreStoredVerbatim() throws JMSException {
        WharfMessage m = new WharfMessage();
        m.setStringProperty("sep", "a\u0001b\u0002c");
        m.setStringProperty("plain", "x y");
        m.setJMSType("t\u0001");
        m.setJMSCorrelationID("c\u0002");
        Map<String, String> p = Wire.send(m).getProperties();
        p.forEach((k, v) -> assertThat(v).as(k).doesNotContain("\u0001", "\u0002"));
        assertThat(p.get("plain")).isEqualTo("x y");
        assertThat(WireProperties.unescape(p.get("sep"))).isEqualTo("a\u0001b\u0002c");
        WharfMessage r = Wire.roundTrip(m);
        assertThat(r.getStringProperty("sep")).isEqualTo("a\u0001b\u0002c");
        assertThat(r.getJMSType()).isEqualTo("t\u0001");
        assertThat(r.getJMSCorrelationID()).isEqualTo("c\u0002");
    }

    @Test
    void escapingIsReversibleForEveryMixOfTheThreeCharacters() {
        String alphabet = "\u0000\u0001\u00020a";
        for (int n = 0; n < 5 * 5 * 5 * 5; n++) {
            StringBuilder sb = new StringBuilder();
            for (int k = n, i = 0; i < 4; i++, k /= 5) {
                sb.append(alphabet.charAt(k % 5));
            }
            String s = sb.toString();
            String stored = WireProperties.escape(s);
            assertThat(stored).doesNotContain("\u0001", "\u0002");
            assertThat(WireProperties.unescape(stored)).isEqualTo(s);
        }
    }

    @Test
    void nullPropertiesAreNotSent() throws JMSException {
        WharfMessage m = new WharfMessage();
        m.setStringProperty("n", null);
        m.setStringProperty("s", "v");
        assertThat(Wire.send(m).getProperties()).doesNotContainKey("n");
        WharfMessage r = Wire.roundTrip(m);
        assertThat(r.propertyExists("n")).isFalse();
        assertThat(r.getStringProperty("s")).isEqualTo("v");
    }

    @Test
    void aByteCorrelationIdComesBackExactly() throws JMSException {
        byte[] raw = {(byte) 0xFF, 0, 1, 2, (byte) 0x80};
        WharfMessage m = new WharfMessage();
        m.setJMSCorrelationIDAsBytes(raw);
        WharfMessage r = Wire.roundTrip(m);
        assertThat(r.getJMSCorrelationIDAsBytes()).containsExactly(raw);
        assertThat(r.getJMSCorrelationID()).isEqualTo(new String(raw, StandardCharsets.UTF_8));
    }

    @Test
    void everyBodyTypeRoundTrips() throws JMSException {
        WharfBytesMessage bytes = new WharfBytesMessage();
        bytes.writeBytes(new byte[] {0, 1, 2, (byte) 255});
        WharfBytesMessage rb = Wire.roundTrip(bytes);
        assertThat(rb.getBody(byte[].class)).containsExactly(0, 1, 2, 255);

        WharfMapMessage map = new WharfMapMessage();
        map.setDouble("d", Double.NaN);
        map.setChar("c", '\u0000');
        map.setString("n", null);
        WharfMapMessage rm = Wire.roundTrip(map);
        assertThat(rm.getDouble("d")).isNaN();
        assertThat(rm.getChar("c")).isEqualTo('\u0000');
        assertThat(rm.itemExists("n")).isTrue();
        assertThat(rm.getString("n")).isNull();

        WharfStreamMessage stream = new WharfStreamMessage();
        stream.writeLong(-1);
        WharfStreamMessage rs = Wire.roundTrip(stream);
        assertThat(rs.readLong()).isEqualTo(-1);

        WharfObjectMessage object = new WharfObjectMessage();
        object.setObject(new HashMap<>(Map.of("k", 1)));
        WharfObjectMessage ro = Wire.roundTrip(object);
        assertThat(ro.getObject()).isEqualTo(Map.of("k", 1));

        assertThat(Wire.roundTrip(new WharfMessage()).getClass()).isEqualTo(WharfMessage.class);
        WharfTextMessage nullText = Wire.roundTrip(new WharfTextMessage());
        assertThat(nullText.getText()).isNull();
        assertThat(Wire.send(new WharfTextMessage()).getProperties()).containsEntry("JMS_Wharf_NullBody", "true");
        assertThat(((WharfTextMessage) Wire.roundTrip(new WharfTextMessage(""))).getText()).isEmpty();
    }

    @Test
    void aReceivedMessageCanBeSentOnUnchanged() throws JMSException {
        WharfTextMessage first = Wire.roundTrip(fullySet());
        WharfTextMessage second = Wire.roundTrip(first);
        assertThat(second.getText()).isEqualTo("body");
        assertThat(second.getJMSType()).isEqualTo("car");
        assertThat(second.getStringProperty("color")).isEqualTo("blue");
        assertThat(second.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
        WharfStreamMessage stream = new WharfStreamMessage();
        stream.writeInt(4);
        WharfStreamMessage received = Wire.roundTrip(stream);
        received.readInt();
        WharfStreamMessage again = Wire.roundTrip(received);
        assertThat(again.readInt()).isEqualTo(4);
    }

    @Test
    void foreignMessagesOfEveryTypeAreConverted() throws JMSException {
        TextMessage text = ForeignMessage.create(TextMessage.class, "foreign text");
        text.setJMSMessageID("ID:abc");
        text.setJMSType("typ");
        text.setJMSCorrelationID("corr");
        text.setJMSPriority(2);
        text.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        text.setJMSExpiration(99);
        text.setJMSReplyTo(ForeignMessage.queue("replies"));
        text.setJMSDestination(ForeignMessage.topic("news"));
        text.setStringProperty("s", "v");
        text.setIntProperty("i", 5);
        text.setObjectProperty("JMSXDeliveryCount", 4);
        WharfTextMessage rt = Wire.roundTrip(text);
        assertThat(rt.getText()).isEqualTo("foreign text");
        assertThat(rt.getJMSMessageID()).isEqualTo("ID:abc");
        assertThat(rt.getJMSType()).isEqualTo("typ");
        assertThat(rt.getJMSCorrelationID()).isEqualTo("corr");
        assertThat(rt.getJMSPriority()).isEqualTo(2);
        assertThat(rt.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(rt.getJMSExpiration()).isEqualTo(99);
        assertThat(rt.getJMSReplyTo()).isEqualTo(new WharfQueue("replies"));
        assertThat(rt.getJMSDestination()).isEqualTo(new WharfTopic("news"));
        assertThat(rt.getStringProperty("s")).isEqualTo("v");
        assertThat(rt.getObjectProperty("i")).isEqualTo(5);
        assertThat(rt.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);

        BytesMessage bytes = ForeignMessage.create(BytesMessage.class, new byte[70_000]);
        ((byte[]) ForeignMessage.handler(bytes).body)[69_999] = 7;
        WharfBytesMessage rb = Wire.roundTrip(bytes);
        assertThat(rb.getBodyLength()).isEqualTo(70_000);
        assertThat(rb.getBody(byte[].class)[69_999]).isEqualTo((byte) 7);
        assertThat(ForeignMessage.handler(bytes).resets).isEqualTo(2);

        Map<String, Object> entries = new LinkedHashMap<>();
        entries.put("a", 1);
        entries.put("b", new byte[] {2});
        entries.put("c", 'c');
        MapMessage map = ForeignMessage.create(MapMessage.class, entries);
        WharfMapMessage rm = Wire.roundTrip(map);
        assertThat(rm.getInt("a")).isEqualTo(1);
        assertThat(rm.getBytes("b")).containsExactly(2);
        assertThat(rm.getChar("c")).isEqualTo('c');

        StreamMessage stream = ForeignMessage.create(StreamMessage.class, Arrays.asList("x", 2L, null));
        WharfStreamMessage rs = Wire.roundTrip(stream);
        assertThat(rs.readString()).isEqualTo("x");
        assertThat(rs.readLong()).isEqualTo(2L);
        assertThat(rs.readObject()).isNull();

        ObjectMessage object = ForeignMessage.create(ObjectMessage.class, new java.util.ArrayList<>(List.of(1, 2)));
        WharfObjectMessage ro = Wire.roundTrip(object);
        assertThat(ro.getObject()).isEqualTo(List.of(1, 2));

        jakarta.jms.Message plain = ForeignMessage.create(jakarta.jms.Message.class, null);
        assertThat(Wire.roundTrip(plain).getClass()).isEqualTo(WharfMessage.class);
    }

    @Test
    void foreignDestinationsWithoutAWharfEquivalentAreDropped() throws JMSException {
        TextMessage text = ForeignMessage.create(TextMessage.class, "x");
        text.setJMSReplyTo(ForeignMessage.plainDestination());
        text.setJMSDestination(ForeignMessage.queue("ID:host-1:1:1"));
        WharfTextMessage r = Wire.roundTrip(text);
        assertThat(r.getJMSReplyTo()).isNull();
        assertThat(r.getJMSDestination()).isNull();
        TextMessage temp = ForeignMessage.create(TextMessage.class, "x");
        temp.setJMSReplyTo(ForeignMessage.temporaryQueue("tmp1"));
        assertThat(Wire.roundTrip(temp).getJMSReplyTo()).isEqualTo(new WharfTemporaryQueue("tmp1", null));
    }

    @Test
    void aForeignPropertyWharfCannotCarryIsAMessageFormatException() throws JMSException {
        TextMessage text = ForeignMessage.create(TextMessage.class, "x");
        text.setStringProperty("KEYS", "v");
        assertThatThrownBy(() -> Wire.send(text)).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining("KEYS");
    }

    @Test
    void aMessageFromAPlainClientIsABytesMessageWithStringProperties() throws JMSException {
        Message plain = new Message("orders", "raw".getBytes(StandardCharsets.UTF_8));
        plain.setTags("tagA");
        plain.setKeys("k1 k2");
        plain.putProperty("region", "eu");
        plain.putProperty("count", "3");
        MessageExt ext = StoredRecords.storeAndRead(plain, 1234L);
        WharfMessage r = Wire.CODEC.fromWharf(ext, 1, new WharfQueue("orders"), null);
        assertThat(r).isInstanceOf(WharfBytesMessage.class);
        assertThat(r.getBody(byte[].class)).isEqualTo("raw".getBytes(StandardCharsets.UTF_8));
        assertThat(r.getJMSType()).isEqualTo("tagA");
        assertThat(r.getJMSDestination()).isEqualTo(new WharfQueue("orders"));
        assertThat(r.getJMSMessageID()).isEqualTo("ID:" + ext.getOffsetMsgId());
        assertThat(r.getJMSTimestamp()).isEqualTo(1234L);
        assertThat(r.getJMSDeliveryTime()).isEqualTo(1234L);
        assertThat(r.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(r.getJMSPriority()).isEqualTo(4);
        assertThat(r.getObjectProperty("count")).isEqualTo("3");
        assertThat(Collections.list(r.getPropertyNames())).containsExactlyInAnyOrder("region", "count",
                "JMSXDeliveryCount");
    }

    @Test
    void brokenOrForeignWireValuesDegradeGracefully() throws JMSException {
        Message wire = Wire.send(new WharfTextMessage("t"));
        Map<String, String> p = wire.getProperties();
        p.put("JMS_Wharf_BodyType", "xml");
        p.put("JMSPriority", "high");
        p.put("JMSExpiration", "soon");
        p.put("JMSReplyTo", "mailbox://x");
        p.put("JMSDestination", "queue://bad name");
        p.put("WHARF_PROPERTY_TYPES", "JMSPriority:I,a:I,b:X,,:Z,c:ZZ,d");
        p.put("a", "notanint");
        p.put("b", "bee");
        p.put("c", "true");
        WharfMessage r = Wire.CODEC.fromWharf(StoredRecords.storeAndRead(wire, 1L), 1, new WharfTopic("fallback"),
                null);
        assertThat(r).isInstanceOf(WharfBytesMessage.class);
        assertThat(r.getJMSPriority()).isEqualTo(4);
        assertThat(r.getJMSExpiration()).isZero();
        assertThat(r.getJMSReplyTo()).isNull();
        assertThat(r.getJMSDestination()).isEqualTo(new WharfTopic("fallback"));
        assertThat(r.getObjectProperty("a")).isEqualTo("notanint");
        assertThat(r.getObjectProperty("b")).isEqualTo("bee");
        assertThat(r.getObjectProperty("c")).isEqualTo("true");
    }

    @Test
    void internalPropertiesAreHiddenFromTheApplication() throws JMSException {
        Message wire = Wire.send(fullySet());
        wire.putProperty(MessageProperties.KEYS, "k");
        wire.putProperty(MessageProperties.RETRY_TOPIC, "%RETRY%g");
        wire.putProperty(MessageProperties.REAL_TOPIC, "orders");
        WharfMessage r = Wire.CODEC.fromWharf(StoredRecords.storeAndRead(wire, 1L), 2, null, null);
        Set<String> names = new HashSet<>(Collections.list(r.getPropertyNames()));
        assertThat(names).containsExactlyInAnyOrder("JMSXGroupID", "JMSXGroupSeq", "color", "weight",
                "JMSXDeliveryCount");
    }

    @Test
    void oversizedPropertiesAreRefusedBeforeTheySeeTheNetwork() throws JMSException {
        WharfMessage m = new WharfMessage();
        m.setStringProperty("big", "x".repeat(JmsMessageCodec.MAX_PROPERTIES_BYTES));
        assertThatThrownBy(() -> Wire.send(m)).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining(Integer.toString(JmsMessageCodec.MAX_PROPERTIES_BYTES))
                .hasMessageContaining("body");
        WharfMessage fits = new WharfMessage();
        fits.setStringProperty("big", "x".repeat(JmsMessageCodec.MAX_PROPERTIES_BYTES - 200));
        assertThat(((WharfMessage) Wire.roundTrip(fits)).getStringProperty("big")).hasSize(
                JmsMessageCodec.MAX_PROPERTIES_BYTES - 200);
    }

    @Test
    void badTopicsAndIdsAreRefused() throws JMSException {
        assertThatThrownBy(() -> Wire.CODEC.toWharf(new WharfMessage(), "bad topic"))
                .isInstanceOf(InvalidDestinationException.class);
        WharfMessage m = new WharfMessage();
        m.setJMSMessageID("ID:\u0001");
        assertThatThrownBy(() -> Wire.send(m)).isInstanceOf(MessageFormatException.class);
        m.setJMSMessageID("ID:");
        assertThatThrownBy(() -> Wire.send(m)).isInstanceOf(MessageFormatException.class);
        WharfMessage replyToForeign = new WharfMessage();
        replyToForeign.setJMSReplyTo(ForeignMessage.plainDestination());
        assertThatThrownBy(() -> Wire.send(replyToForeign)).isInstanceOf(InvalidDestinationException.class);
        assertThat(Destinations.toUri(null)).isNull();
    }
}
