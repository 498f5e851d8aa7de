package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Headers over a message's life (Jakarta Messaging 3.1, 3.4 and 7.9): the send stamps JMSTimestamp,
 * JMSDeliveryTime and JMSExpiration from one clock reading, the receiver sees the same values, a message that
 * expires before its delivery time is never delivered, a sent message stays the application's to change, and a
 * received one has read-only properties and body until cleared while its headers stay writable.
 */
@Timeout(60)
class HeaderLifecycleTest {

    private static final VmNames VM = new VmNames("headers");
    private static String url;
    private static Connection connection;
    private static Session session;

    @BeforeAll
    static void start() throws Exception {
        url = VM.url();
        connection = new WharfConnectionFactory(url).createConnection();
        connection.start();
        session = connection.createSession();
    }

    @AfterAll
    static void stop() throws Exception {
        connection.close();
        VM.stopAll();
    }

    @Test
    void deliveryTimeAndExpirationAreTheSendTimePlusDelayAndTimeToLive() throws Exception {
        Queue q = session.createQueue("headers-arithmetic");
        MessageProducer p = session.createProducer(q);
        p.setDeliveryDelay(300);
        TextMessage m = session.createTextMessage("timed");
        long before = System.currentTimeMillis();
        p.send(m, DeliveryMode.PERSISTENT, 6, 60_000);
        long after = System.currentTimeMillis();
        assertThat(m.getJMSTimestamp()).isBetween(before, after);
        assertThat(m.getJMSDeliveryTime()).as("3.4.13, 7.9").isEqualTo(m.getJMSTimestamp() + 300);
        assertThat(m.getJMSExpiration()).as("3.4.9").isEqualTo(m.getJMSTimestamp() + 60_000);
        Message got = session.createConsumer(q).receive(5_000);
        assertThat(got).isNotNull();
        assertThat(System.currentTimeMillis()).as("not before its delivery time").isGreaterThanOrEqualTo(
                m.getJMSDeliveryTime());
        assertThat(got.getJMSTimestamp()).isEqualTo(m.getJMSTimestamp());
        assertThat(got.getJMSDeliveryTime()).isEqualTo(m.getJMSDeliveryTime());
        assertThat(got.getJMSExpiration()).isEqualTo(m.getJMSExpiration());
        assertThat(got.getJMSPriority()).isEqualTo(6);
        assertThat(got.getJMSDestination()).isEqualTo(q);
        assertThat(got.getJMSRedelivered()).isFalse();
        assertThat(got.getIntProperty("JMSXDeliveryCount")).as("3.5.11").isEqualTo(1);
    }

    @Test
    void withoutTimeToLiveOrDelayOrTimestampTheHeadersSayZeroOrNow() throws Exception {
        Queue q = session.createQueue("headers-zero");
        MessageProducer p = session.createProducer(q);
        TextMessage plain = session.createTextMessage("plain");
        p.send(plain);
        assertThat(plain.getJMSExpiration()).as("time to live 0 means no expiration").isZero();
        assertThat(plain.getJMSDeliveryTime()).as("no delay: delivered from the send on").isEqualTo(
                plain.getJMSTimestamp());
        p.setDisableMessageTimestamp(true);
        TextMessage stampless = session.createTextMessage("stampless");
        long before = System.currentTimeMillis();
        p.send(stampless);
        assertThat(stampless.getJMSTimestamp()).as("3.4.4 disabled timestamp").isZero();
        assertThat(stampless.getJMSDeliveryTime()).isGreaterThanOrEqualTo(before);
        MessageConsumer consumer = session.createConsumer(q);
        Message gotPlain = consumer.receive(5_000);
        Message gotStampless = consumer.receive(5_000);
        assertThat(gotPlain.getJMSTimestamp()).isEqualTo(plain.getJMSTimestamp());
        assertThat(gotPlain.getJMSExpiration()).isZero();
        assertThat(gotStampless.getJMSTimestamp()).as("the receiver sees the disabled timestamp too").isZero();
    }

    @Test
    void aMessageThatExpiresBeforeItsDeliveryTimeIsNeverDelivered() throws Exception {
        Queue q = session.createQueue("headers-expire-delayed");
        MessageProducer p = session.createProducer(q);
        p.setDeliveryDelay(400);
        p.setTimeToLive(100);
        TextMessage doomed = session.createTextMessage("doomed");
        p.send(doomed);
        assertThat(doomed.getJMSExpiration()).isLessThan(doomed.getJMSDeliveryTime());
        p.setTimeToLive(0);
        p.send(session.createTextMessage("kept"));
        MessageConsumer consumer = session.createConsumer(q);
        TextMessage got = (TextMessage) consumer.receive(5_000);
        assertThat(got.getText()).isEqualTo("kept");
        assertThat(consumer.receive(300)).isNull();
    }

    @Test
    void aSentMessageStaysTheApplicationsAndLaterChangesDoNotReachTheSentCopy() throws Exception {
        Queue q = session.createQueue("headers-reuse");
        MessageProducer p = session.createProducer(q);
        TextMessage m = session.createTextMessage("one");
        m.setIntProperty("n", 1);
        p.send(m);
        String firstId = m.getJMSMessageID();
        m.setText("two");
        m.setIntProperty("n", 2);
        m.setJMSType("changed");
        p.send(m);
        assertThat(m.getJMSMessageID()).as("every send assigns a new id").isNotEqualTo(firstId);
        MessageConsumer consumer = session.createConsumer(q);
        TextMessage first = (TextMessage) consumer.receive(5_000);
        TextMessage second = (TextMessage) consumer.receive(5_000);
        assertThat(first.getText()).isEqualTo("one");
        assertThat(first.getIntProperty("n")).isEqualTo(1);
        assertThat(first.getJMSType()).isNull();
        assertThat(first.getJMSMessageID()).isEqualTo(firstId);
        assertThat(second.getText()).isEqualTo("two");
        assertThat(second.getIntProperty("n")).isEqualTo(2);
    }

    @Test
    void aReceivedMessageHasReadOnlyPropertiesAndBodyUntilClearedAndWritableHeaders() throws Exception {
        Queue q = session.createQueue("headers-received-modes");
        TextMessage m = session.createTextMessage("body");
        m.setStringProperty("p", "v");
        session.createProducer(q).send(m);
        TextMessage got = (TextMessage) session.createConsumer(q).receive(5_000);
        assertThatThrownBy(() -> got.setStringProperty("p", "w")).isInstanceOf(MessageNotWriteableException.class);
        assertThatThrownBy(() -> got.setText("w")).isInstanceOf(MessageNotWriteableException.class);
        got.setJMSCorrelationID("headers stay writable");
        assertThat(got.getJMSCorrelationID()).isEqualTo("headers stay writable");
        got.clearProperties();
        assertThat(got.getPropertyNames().hasMoreElements()).as("3.5.7 clearProperties empties").isFalse();
        got.setStringProperty("p", "w");
        assertThat(got.getText()).as("clearProperties leaves the body").isEqualTo("body");
        assertThatThrownBy(() -> got.setText("w")).isInstanceOf(MessageNotWriteableException.class);
        got.clearBody();
        assertThat(got.getText()).as("3.11.1 clearBody empties").isNull();
        got.setText("w");
        assertThat(got.getStringProperty("p")).as("clearBody leaves the properties").isEqualTo("w");
        assertThat(got.getJMSCorrelationID()).as("and the headers").isEqualTo("headers stay writable");
    }
}
