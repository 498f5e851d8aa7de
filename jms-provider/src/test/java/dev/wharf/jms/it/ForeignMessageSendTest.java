package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.it.foreign.ForeignBytesMessage;
import dev.wharf.jms.it.foreign.ForeignMapMessage;
import dev.wharf.jms.it.foreign.ForeignMessage;
import dev.wharf.jms.it.foreign.ForeignObjectMessage;
import dev.wharf.jms.it.foreign.ForeignQueue;
import dev.wharf.jms.it.foreign.ForeignStreamMessage;
import dev.wharf.jms.it.foreign.ForeignTextMessage;
import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Messages of another provider (Jakarta Messaging 3.1, 3.12): every send path accepts them through the interfaces
 * only, copies headers, properties and all five body types, and sets the send's headers on the application's
 * object. The foreign classes are strict: reading a property they do not have is an error, so a provider that
 * reads an optional JMSX property it was not given fails here. Against vm:// and a standalone broker.
 */
@Timeout(60)
class ForeignMessageSendTest {

    private static final AtomicInteger QUEUES = new AtomicInteger();
    @TempDir
    static Path store;
    private static BothBrokers brokers;

    @BeforeAll
    static void start() throws Exception {
        brokers = new BothBrokers("foreign", store);
    }

    @AfterAll
    static void stop() {
        brokers.close();
    }

    static Stream<Named<String>> urls() {
        return brokers.urls();
    }

    private static Queue queue(Session s) throws Exception {
        return s.createQueue("foreign-" + QUEUES.incrementAndGet());
    }

    /** Headers and properties of every type; no JMSX property at all. */
    private static <M extends ForeignMessage> M decorate(M m) {
        m.setJMSCorrelationID("corr-7");
        m.setJMSType("order.created");
        m.setJMSReplyTo(new ForeignQueue("foreign-replies"));
        m.setBooleanProperty("flag", true);
        m.setByteProperty("b", (byte) -3);
        m.setShortProperty("s", (short) 300);
        m.setIntProperty("i", 7);
        m.setLongProperty("l", Long.MAX_VALUE);
        m.setFloatProperty("f", 1.5f);
        m.setDoubleProperty("d", -2.25);
        m.setStringProperty("str", "a=b;c");
        return m;
    }

    private static void assertDecorated(Message got) throws Exception {
        assertThat(got.getJMSCorrelationID()).isEqualTo("corr-7");
        assertThat(got.getJMSType()).isEqualTo("order.created");
        assertThat(((Queue) got.getJMSReplyTo()).getQueueName()).isEqualTo("foreign-replies");
        assertThat(got.getObjectProperty("flag")).isEqualTo(true);
        assertThat(got.getObjectProperty("b")).isEqualTo((byte) -3);
        assertThat(got.getObjectProperty("s")).isEqualTo((short) 300);
        assertThat(got.getObjectProperty("i")).isEqualTo(7);
        assertThat(got.getObjectProperty("l")).isEqualTo(Long.MAX_VALUE);
        assertThat(got.getObjectProperty("f")).isEqualTo(1.5f);
        assertThat(got.getObjectProperty("d")).isEqualTo(-2.25);
        assertThat(got.getStringProperty("str")).isEqualTo("a=b;c");
        assertThat(got.propertyExists("JMSXGroupID")).isFalse();
    }

    /** What the send set on the application's own (foreign) object (3.4.1 to 3.4.12). */
    private static void assertSendHeadersSet(Message sent, Queue q, Message got) throws Exception {
        assertThat(sent.getJMSMessageID()).startsWith("ID:").isEqualTo(got.getJMSMessageID());
        assertThat(((Queue) sent.getJMSDestination()).getQueueName()).isEqualTo(q.getQueueName());
        assertThat(sent.getJMSTimestamp()).isPositive().isEqualTo(got.getJMSTimestamp());
        assertThat(sent.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(sent.getJMSPriority()).isEqualTo(Message.DEFAULT_PRIORITY);
        assertThat(sent.getJMSExpiration()).isZero();
        assertThat(sent.getJMSDeliveryTime()).isEqualTo(sent.getJMSTimestamp());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void allFiveBodyTypesAndAPlainMessageAreCopiedOnSend(String url) throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = queue(s);
            MessageConsumer consumer = s.createConsumer(q);

            ForeignTextMessage text = decorate(new ForeignTextMessage("grüße"));
            ForeignBytesMessage bytes = decorate(new ForeignBytesMessage());
            bytes.writeInt(42);
            bytes.writeUTF("utf");
            bytes.writeBytes(new byte[] {1, 2, 3});
            ForeignMapMessage map = decorate(new ForeignMapMessage());
            map.setInt("count", 3);
            map.setString("name", "wharf");
            map.setBytes("raw", new byte[] {9, 8});
            map.setChar("c", 'x');
            ForeignStreamMessage stream = decorate(new ForeignStreamMessage());
            stream.writeString("first");
            stream.writeLong(5L);
            stream.writeBytes(new byte[] {7});
            stream.writeObject(null);
            ForeignObjectMessage object = decorate(new ForeignObjectMessage(new ArrayList<>(List.of(1, "two"))));
            ForeignMessage plain = decorate(new ForeignMessage());
            List<Message> sent = List.of(text, bytes, map, stream, object, plain);
            for (Message m : sent) {
                s.createProducer(q).send(m);
            }

            TextMessage gotText = (TextMessage) consumer.receive(5_000);
            assertThat(gotText.getText()).isEqualTo("grüße");
            BytesMessage gotBytes = (BytesMessage) consumer.receive(5_000);
            assertThat(gotBytes.getBodyLength()).isEqualTo(4 + 2 + 3 + 3);
            assertThat(gotBytes.readInt()).isEqualTo(42);
            assertThat(gotBytes.readUTF()).isEqualTo("utf");
            MapMessage gotMap = (MapMessage) consumer.receive(5_000);
            assertThat(gotMap.getInt("count")).isEqualTo(3);
            assertThat(gotMap.getString("name")).isEqualTo("wharf");
            assertThat(gotMap.getBytes("raw")).containsExactly(9, 8);
            assertThat(gotMap.getChar("c")).isEqualTo('x');
            StreamMessage gotStream = (StreamMessage) consumer.receive(5_000);
            assertThat(gotStream.readString()).isEqualTo("first");
            assertThat(gotStream.readLong()).isEqualTo(5L);
            assertThat((byte[]) gotStream.readObject()).containsExactly(7);
            assertThat(gotStream.readObject()).isNull();
            ObjectMessage gotObject = (ObjectMessage) consumer.receive(5_000);
            assertThat(gotObject.getObject()).isEqualTo(List.of(1, "two"));
            Message gotPlain = consumer.receive(5_000);
            assertThat(gotPlain.getBody(Object.class)).isNull();
            List<Message> got = List.of(gotText, gotBytes, gotMap, gotStream, gotObject, gotPlain);
            for (int i = 0; i < sent.size(); i++) {
                assertDecorated(got.get(i));
                assertSendHeadersSet(sent.get(i), q, got.get(i));
            }
            assertThat(bytes.resets()).as("the bytes were read from the start and left reset").isEqualTo(2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void aBytesMessageIsSentFromItsStartWhateverTheApplicationReadBefore(String url) throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = queue(s);
            ForeignBytesMessage bytes = new ForeignBytesMessage();
            bytes.writeLong(1L);
            bytes.writeLong(2L);
            bytes.reset();
            assertThat(bytes.readLong()).isEqualTo(1L);
            s.createProducer(q).send(bytes);
            s.createProducer(q).send(bytes);
            MessageConsumer consumer = s.createConsumer(q);
            for (int i = 0; i < 2; i++) {
                BytesMessage got = (BytesMessage) consumer.receive(5_000);
                assertThat(got.getBodyLength()).isEqualTo(16);
                assertThat(got.readLong()).isEqualTo(1L);
                assertThat(got.readLong()).isEqualTo(2L);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void anOptionalJmsxPropertyIsUsedWhenTheForeignMessageHasIt(String url) throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = queue(s);
            ForeignTextMessage grouped = new ForeignTextMessage("grouped");
            grouped.setStringProperty("JMSXGroupID", "g-1");
            grouped.setIntProperty("JMSXGroupSeq", 1);
            s.createProducer(q).send(grouped);
            Message got = s.createConsumer(q).receive(5_000);
            assertThat(got.getStringProperty("JMSXGroupID")).isEqualTo("g-1");
            assertThat(got.getIntProperty("JMSXGroupSeq")).isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void asynchronousAndTransactedSendsAndTheClassicDomainsTakeForeignMessages(String url) throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = queue(s);
            ForeignTextMessage async = new ForeignTextMessage("async");
            CompletableFuture<Message> completed = new CompletableFuture<>();
            s.createProducer(q).send(async, new CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                    completed.complete(message);
                }

                @Override
                public void onException(Message message, Exception exception) {
                    completed.completeExceptionally(exception);
                }
            });
            assertThat(completed.get(10, TimeUnit.SECONDS)).as("the listener gets the application's object")
                    .isSameAs(async);
            assertThat(async.getJMSMessageID()).startsWith("ID:");

            Session transacted = c.createSession(Session.SESSION_TRANSACTED);
            transacted.createProducer(q).send(new ForeignTextMessage("in a transaction"));
            transacted.commit();

            jakarta.jms.QueueSession queueSession = ((jakarta.jms.QueueConnection) c).createQueueSession(false,
                    Session.AUTO_ACKNOWLEDGE);
            queueSession.createSender(q).send(new ForeignTextMessage("queue sender"));

            MessageConsumer consumer = s.createConsumer(q);
            List<String> texts = new ArrayList<>();
            for (Message m = consumer.receive(5_000); m != null; m = consumer.receive(300)) {
                texts.add(((TextMessage) m).getText());
            }
            assertThat(texts).as("order holds per session only (4.4.10)")
                    .containsExactlyInAnyOrder("async", "in a transaction", "queue sender");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void theSimplifiedApiSendsForeignMessagesWithTheProducersPropertiesAndHeaders(String url) throws Exception {
        try (JMSContext ctx = new WharfConnectionFactory(url).createContext()) {
            Queue q = ctx.createQueue("foreign-ctx-" + QUEUES.incrementAndGet());
            ForeignMapMessage map = new ForeignMapMessage();
            map.setString("k", "v");
            ctx.createProducer().setProperty("added", 5).setJMSType("typed").setJMSCorrelationID("c-1")
                    .send(q, map);
            MapMessage got = (MapMessage) ctx.createConsumer(q).receive(5_000);
            assertThat(got.getBody(Map.class)).containsEntry("k", "v");
            assertThat(got.getIntProperty("added")).isEqualTo(5);
            assertThat(got.getJMSType()).isEqualTo("typed");
            assertThat(got.getJMSCorrelationID()).isEqualTo("c-1");
            assertThat(map.getIntProperty("added")).as("JMSProducer sets its properties on the message it sends")
                    .isEqualTo(5);
        }
    }
}
