package dev.wharf.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.destination.WharfQueue;
import dev.wharf.jms.destination.WharfTopic;
import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Header fields, clearBody/clearProperties effects and acknowledge. */
class HeadersTest {

    @Test
    void defaults() {
        WharfMessage m = new WharfMessage();
        assertThat(m.getJMSMessageID()).isNull();
        assertThat(m.getJMSTimestamp()).isZero();
        assertThat(m.getJMSCorrelationID()).isNull();
        assertThat(m.getJMSCorrelationIDAsBytes()).isNull();
        assertThat(m.getJMSReplyTo()).isNull();
        assertThat(m.getJMSDestination()).isNull();
        assertThat(m.getJMSDeliveryMode()).isEqualTo(Message.DEFAULT_DELIVERY_MODE);
        assertThat(m.getJMSRedelivered()).isFalse();
        assertThat(m.getJMSType()).isNull();
        assertThat(m.getJMSExpiration()).isZero();
        assertThat(m.getJMSDeliveryTime()).isZero();
        assertThat(m.getJMSPriority()).isEqualTo(Message.DEFAULT_PRIORITY);
        assertThat(m.getPropertyNames().hasMoreElements()).isFalse();
        assertThat(m.isPropertiesReadOnly()).isFalse();
        assertThat(m.bodyType()).isEqualTo(BodyType.MESSAGE);
    }

    @Test
    void everyHeaderIsSettable() {
        WharfMessage m = new WharfMessage();
        m.setJMSMessageID("ID:1");
        m.setJMSTimestamp(5);
        m.setJMSCorrelationID("c");
        m.setJMSReplyTo(new WharfQueue("r"));
        m.setJMSDestination(new WharfTopic("d"));
        m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        m.setJMSRedelivered(true);
        m.setJMSType("t");
        m.setJMSExpiration(6);
        m.setJMSDeliveryTime(7);
        m.setJMSPriority(9);
        assertThat(m.getJMSMessageID()).isEqualTo("ID:1");
        assertThat(m.getJMSTimestamp()).isEqualTo(5);
        assertThat(m.getJMSCorrelationID()).isEqualTo("c");
        assertThat(m.getJMSReplyTo()).isEqualTo(new WharfQueue("r"));
        assertThat(m.getJMSDestination()).isEqualTo(new WharfTopic("d"));
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(m.getJMSRedelivered()).isTrue();
        assertThat(m.getJMSType()).isEqualTo("t");
        assertThat(m.getJMSExpiration()).isEqualTo(6);
        assertThat(m.getJMSDeliveryTime()).isEqualTo(7);
        assertThat(m.getJMSPriority()).isEqualTo(9);
        assertThat(m.toString()).contains("ID:1", "topic://d", "t");
    }

    @Test
    void correlationIdAsBytesAndAsString() {
        WharfMessage m = new WharfMessage();
        m.setJMSCorrelationID("abc\u00e9");
        assertThat(m.getJMSCorrelationIDAsBytes()).isEqualTo("abc\u00e9".getBytes(StandardCharsets.UTF_8));
        byte[] raw = {(byte) 0xFF, 0, 65};
        m.setJMSCorrelationIDAsBytes(raw);
        raw[0] = 1;
        assertThat(m.getJMSCorrelationIDAsBytes()).containsExactly(0xFF, 0, 65);
        m.getJMSCorrelationIDAsBytes()[0] = 2;
        assertThat(m.getJMSCorrelationIDAsBytes()).containsExactly(0xFF, 0, 65);
        assertThat(m.getJMSCorrelationID()).isEqualTo(new String(new byte[] {(byte) 0xFF, 0, 65},
                StandardCharsets.UTF_8));
        m.setJMSCorrelationIDAsBytes(null);
        assertThat(m.getJMSCorrelationID()).isNull();
        assertThat(m.getJMSCorrelationIDAsBytes()).isNull();
    }

    @Test
    void clearBodyLeavesHeadersAndPropertiesAlone() throws JMSException {
        WharfTextMessage m = new WharfTextMessage("body");
        m.setJMSType("t");
        m.setIntProperty("p", 1);
        m.clearBody();
        assertThat(m.getText()).isNull();
        assertThat(m.getJMSType()).isEqualTo("t");
        assertThat(m.getIntProperty("p")).isEqualTo(1);
    }

    @Test
    void clearPropertiesLeavesHeadersAndBodyAlone() throws JMSException {
        WharfTextMessage m = new WharfTextMessage("body");
        m.setJMSType("t");
        m.setIntProperty("p", 1);
        m.setStringProperty("JMSXGroupID", "g");
        m.clearProperties();
        assertThat(m.propertyExists("p")).isFalse();
        assertThat(m.propertyExists("JMSXGroupID")).isFalse();
        assertThat(m.getText()).isEqualTo("body");
        assertThat(m.getJMSType()).isEqualTo("t");
    }

    @Test
    void headersOfAReceivedMessageStayWritable() throws JMSException {
        WharfTextMessage r = Wire.roundTrip(new WharfTextMessage("x"));
        r.setJMSType("changed");
        r.setJMSPriority(1);
        r.setJMSCorrelationID("c");
        assertThat(r.getJMSType()).isEqualTo("changed");
        assertThat(r.getJMSPriority()).isEqualTo(1);
        assertThat(r.isBodyReadOnly()).isTrue();
    }

    @Test
    void acknowledgeIsANoOpForAMessageThatWasNotReceived() throws JMSException {
        WharfMessage m = new WharfMessage();
        assertThat(m.getAcknowledger()).isNull();
        m.acknowledge();
    }

    @Test
    void acknowledgeDelegatesToTheAcknowledgerAndPassesItsExceptionOn() throws Exception {
        List<WharfMessage> acked = new ArrayList<>();
        WharfMessage sent = new WharfMessage();
        WharfMessage r = Wire.CODEC.fromWharf(Wire.store(sent), 1, null, acked::add);
        r.acknowledge();
        r.acknowledge();
        assertThat(acked).containsExactly(r, r);
        r.setAcknowledger(message -> {
            throw new IllegalStateException("The session is closed.");
        });
        assertThatThrownBy(r::acknowledge).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void propertyNamesAreASnapshot() throws JMSException {
        WharfMessage m = new WharfMessage();
        m.setIntProperty("a", 1);
        var names = m.getPropertyNames();
        m.setIntProperty("b", 2);
        assertThat(Collections.list(names)).containsExactly("a");
    }
}
