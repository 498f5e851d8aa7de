package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.message.fixtures.Order;
import dev.wharf.testing.TestWharf;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every message type, headers and properties end to end through a standalone broker on loopback (wharf://),
 * and time to live (Jakarta Messaging 3.1, 3).
 */
class MessagesTest {

    @TempDir
    static Path store;
    private static TestWharf wharf;
    private static Connection connection;
    private static Session session;

    @BeforeAll
    static void start() throws Exception {
        wharf = TestWharf.loopback(store);
        WharfConnectionFactory factory = new WharfConnectionFactory(wharf.url());
        factory.setDeserializationAllowList(Order.class.getPackageName()); // the test's own message class
        connection = factory.createConnection();
        connection.start();
        session = connection.createSession();
    }

    @AfterAll
    static void stop() throws Exception {
        connection.close();
        wharf.close();
    }

    private static Message roundTrip(String queue, Message m) throws Exception {
        Queue q = session.createQueue(queue);
        MessageProducer p = session.createProducer(q);
        p.send(m);
        Message got = session.createConsumer(q).receive(5_000);
        assertThat(got).isNotNull();
        assertThat(got.getJMSMessageID()).isEqualTo(m.getJMSMessageID());
        return got;
    }

    @Test
    void textWithHeadersAndEveryPropertyType() throws Exception {
        TextMessage m = session.createTextMessage("grüße \u0001 and \uD83D\uDE00");
        Queue replyTo = session.createQueue("messages-replies");
        m.setJMSCorrelationID("corr-1");
        m.setJMSType("order.created");
        m.setJMSReplyTo(replyTo);
        m.setBooleanProperty("flag", true);
        m.setByteProperty("b", (byte) -3);
        m.setShortProperty("s", (short) 300);
        m.setIntProperty("i", 7);
        m.setLongProperty("l", Long.MIN_VALUE);
        m.setFloatProperty("f", 1.5f);
        m.setDoubleProperty("d", -0.0);
        m.setStringProperty("str", "a=b;c");
        m.setStringProperty("JMSXGroupID", "g1");
        m.setIntProperty("JMSXGroupSeq", 1);
        TextMessage got = (TextMessage) roundTrip("messages-text", m);
        assertThat(got.getText()).isEqualTo("grüße \u0001 and \uD83D\uDE00");
        assertThat(got.getJMSCorrelationID()).isEqualTo("corr-1");
        assertThat(got.getJMSType()).isEqualTo("order.created");
        assertThat(got.getJMSReplyTo()).isEqualTo(replyTo);
        assertThat(got.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(got.getJMSPriority()).isEqualTo(4);
        assertThat(got.getJMSTimestamp()).isPositive();
        assertThat(got.getObjectProperty("flag")).isEqualTo(true);
        assertThat(got.getObjectProperty("b")).isEqualTo((byte) -3);
        assertThat(got.getObjectProperty("s")).isEqualTo((short) 300);
        assertThat(got.getObjectProperty("i")).isEqualTo(7);
        assertThat(got.getObjectProperty("l")).isEqualTo(Long.MIN_VALUE);
        assertThat(got.getObjectProperty("f")).isEqualTo(1.5f);
        assertThat(got.getObjectProperty("d")).isEqualTo(-0.0);
        assertThat(got.getStringProperty("str")).isEqualTo("a=b;c");
        assertThat(got.getStringProperty("i")).as("property conversions on receipt").isEqualTo("7");
        assertThat(got.getStringProperty("JMSXGroupID")).isEqualTo("g1");
        assertThatThrownBy(() -> got.setStringProperty("x", "y")).isInstanceOf(MessageNotWriteableException.class);
        assertThatThrownBy(() -> got.setText("y")).isInstanceOf(MessageNotWriteableException.class);
        assertThatThrownBy(() -> got.getIntProperty("str")).isInstanceOf(NumberFormatException.class);
    }

    @Test
    void bytesMapStreamAndObjectBodies() throws Exception {
        BytesMessage bytes = session.createBytesMessage();
        bytes.writeInt(42);
        bytes.writeUTF("utf");
        bytes.writeBytes(new byte[] {1, 2, 3});
        BytesMessage gotBytes = (BytesMessage) roundTrip("messages-bytes", bytes);
        assertThat(gotBytes.getBodyLength()).isEqualTo(4 + 2 + 3 + 3);
        assertThat(gotBytes.readInt()).isEqualTo(42);
        assertThat(gotBytes.readUTF()).isEqualTo("utf");

        MapMessage map = session.createMapMessage();
        map.setInt("count", 3);
        map.setString("name", "wharf");
        map.setBytes("raw", new byte[] {9});
        MapMessage gotMap = (MapMessage) roundTrip("messages-map", map);
        assertThat(gotMap.getInt("count")).isEqualTo(3);
        assertThat(gotMap.getString("count")).isEqualTo("3");
        assertThat(gotMap.getBody(Map.class)).containsEntry("name", "wharf");

        StreamMessage stream = session.createStreamMessage();
        stream.writeString("first");
        stream.writeLong(5L);
        StreamMessage gotStream = (StreamMessage) roundTrip("messages-stream", stream);
        assertThat(gotStream.readString()).isEqualTo("first");
        assertThat(gotStream.readLong()).isEqualTo(5L);

        Order order = new Order(17, "anchor", 2);
        ObjectMessage object = session.createObjectMessage(order);
        ObjectMessage gotObject = (ObjectMessage) roundTrip("messages-object", object);
        assertThat(gotObject.getObject()).isEqualTo(order);
        assertThat(gotObject.getBody(Order.class)).isEqualTo(order);
        assertThatThrownBy(() -> gotObject.getBody(String.class)).isInstanceOf(MessageFormatException.class);

        Message plain = session.createMessage();
        plain.setStringProperty("only", "headers");
        assertThat(roundTrip("messages-plain", plain).getStringProperty("only")).isEqualTo("headers");
    }

    @Test
    void objectMessagesOfClassesOutsideTheAllowListAreRefused() throws Exception {
        WharfConnectionFactory strict = new WharfConnectionFactory(wharf.url());
        strict.setDeserializationAllowList("java.lang");
        try (Connection c = strict.createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = s.createQueue("messages-allow");
            s.createProducer(q).send(s.createObjectMessage(new Order(1, "x", 1)));
            s.createProducer(q).send(s.createObjectMessage("a string"));
            MessageConsumer consumer = s.createConsumer(q);
            ObjectMessage refused = (ObjectMessage) consumer.receive(5_000);
            assertThatThrownBy(refused::getObject).isInstanceOf(MessageFormatException.class)
                    .hasMessageContaining(Order.class.getName());
            assertThat(((ObjectMessage) consumer.receive(5_000)).getObject()).isEqualTo("a string");
        }
    }

    @Test
    void expiredMessagesAreNeverDelivered() throws Exception {
        Queue q = session.createQueue("messages-ttl");
        MessageProducer p = session.createProducer(q);
        TextMessage shortLived = session.createTextMessage("short-lived");
        p.send(shortLived, DeliveryMode.PERSISTENT, 4, 100);
        p.send(session.createTextMessage("long-lived"), DeliveryMode.PERSISTENT, 4, 60_000);
        await().atMost(Duration.ofSeconds(2)).until(() -> System.currentTimeMillis() > shortLived.getJMSExpiration());
        MessageConsumer consumer = session.createConsumer(q);
        TextMessage m = (TextMessage) consumer.receive(5_000);
        assertThat(m.getText()).isEqualTo("long-lived");
        assertThat(m.getJMSExpiration()).isGreaterThan(System.currentTimeMillis());
        assertThat(consumer.receive(300)).isNull();
    }

    @Test
    void nonPersistentMessagesArriveToo() throws Exception {
        Queue q = session.createQueue("messages-nonpersistent");
        MessageProducer p = session.createProducer(q);
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        p.send(session.createTextMessage("fast"));
        Message got = session.createConsumer(q).receive(5_000);
        assertThat(got.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
    }
}
