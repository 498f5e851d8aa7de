package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.Queue;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simplified API's rules the audit found untested (Jakarta Messaging 3.1, 7.3, 8.5 and the JMSProducer and
 * JMSConsumer javadoc): a JMSProducer copies its properties and headers onto every message it sends, over the
 * message's own; its property getters convert like a message's; format problems are
 * {@link MessageFormatRuntimeException}; a body that cannot be given as asked stays consumed in a transacted
 * context.
 */
@Timeout(60)
class SimplifiedApiRulesTest {

    private static final VmNames VM = new VmNames("simplified");
    private static WharfConnectionFactory factory;

    @BeforeAll
    static void broker() {
        factory = new WharfConnectionFactory(VM.url());
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    @Test
    void aProducersPropertiesAndHeadersAreCopiedOntoEveryMessageOverItsOwn() throws Exception {
        try (JMSContext ctx = factory.createContext()) {
            Queue q = ctx.createQueue("simplified-copy");
            JMSProducer p = ctx.createProducer().setProperty("shared", "from producer").setProperty("n", 1)
                    .setJMSCorrelationIDAsBytes(new byte[] {1, 2, 3}).setDeliveryMode(DeliveryMode.NON_PERSISTENT)
                    .setPriority(8).setTimeToLive(60_000).setDeliveryDelay(0);
            TextMessage m = ctx.createTextMessage("own");
            m.setStringProperty("shared", "from message");
            m.setStringProperty("mine", "kept");
            p.send(q, m);
            assertThat(m.getStringProperty("shared")).as("set on the message sent").isEqualTo("from producer");
            assertThat(m.getJMSExpiration()).isEqualTo(m.getJMSTimestamp() + 60_000);
            p.setProperty("n", 2);
            p.send(q, "second");
            p.clearProperties();
            assertThat(p.getPropertyNames()).isEmpty();
            assertThat(p.propertyExists("n")).isFalse();
            p.send(q, "third");

            JMSConsumer consumer = ctx.createConsumer(q);
            Message first = consumer.receive(5_000);
            assertThat(first.getStringProperty("shared")).isEqualTo("from producer");
            assertThat(first.getStringProperty("mine")).isEqualTo("kept");
            assertThat(first.getIntProperty("n")).isEqualTo(1);
            assertThat(first.getJMSCorrelationIDAsBytes()).containsExactly(1, 2, 3);
            assertThat(first.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
            assertThat(first.getJMSPriority()).isEqualTo(8);
            Message second = consumer.receive(5_000);
            assertThat(second.getIntProperty("n")).as("the value at the send").isEqualTo(2);
            Message third = consumer.receive(5_000);
            assertThat(third.propertyExists("n")).isFalse();
        }
    }

    @Test
    void aProducersPropertiesConvertLikeAMessagesAndRefuseWhatAMessageRefuses() {
        try (JMSContext ctx = factory.createContext()) {
            JMSProducer p = ctx.createProducer().setProperty("flag", true).setProperty("text", "12")
                    .setProperty("word", "x");
            assertThat(p.getIntProperty("text")).isEqualTo(12);
            assertThat(p.getStringProperty("flag")).isEqualTo("true");
            assertThatThrownBy(() -> p.getIntProperty("flag")).as("3.5.4: boolean to int is not a conversion")
                    .isInstanceOf(MessageFormatRuntimeException.class);
            assertThatThrownBy(() -> p.getIntProperty("word")).isInstanceOf(NumberFormatException.class);
            assertThatThrownBy(() -> p.setProperty("o", new Object()))
                    .isInstanceOf(MessageFormatRuntimeException.class);
            assertThatThrownBy(() -> p.setProperty("NOT", 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> p.setProperty("", 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> p.getPropertyNames().add("x")).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void formatProblemsAreMessageFormatRuntimeExceptions() throws Exception {
        try (JMSContext ctx = factory.createContext()) {
            Queue q = ctx.createQueue("simplified-format");
            JMSProducer p = ctx.createProducer();
            assertThatThrownBy(() -> p.send(q, (Message) null)).isInstanceOf(MessageFormatRuntimeException.class);
            Map<String, Object> bad = new HashMap<>();
            bad.put("o", new Object());
            assertThatThrownBy(() -> p.send(q, bad)).isInstanceOf(MessageFormatRuntimeException.class);
            StreamMessage stream = ctx.createStreamMessage();
            stream.writeInt(1);
            p.send(q, stream);
            JMSConsumer consumer = ctx.createConsumer(q);
            assertThatThrownBy(() -> consumer.receiveBody(Object.class, 5_000)).as("a stream has no body object")
                    .isInstanceOf(MessageFormatRuntimeException.class);
            Message again = consumer.receive(5_000);
            assertThat(again).as("AUTO_ACKNOWLEDGE: delivered again").isInstanceOf(StreamMessage.class);
            assertThatThrownBy(() -> again.getBody(Object.class))
                    .isInstanceOf(jakarta.jms.MessageFormatException.class);
        }
    }

    @Test
    void inATransactedContextABodyThatDoesNotFitIsStillConsumedByTheTransaction() {
        try (JMSContext ctx = factory.createContext(JMSContext.SESSION_TRANSACTED)) {
            Queue q = ctx.createQueue("simplified-tx-body");
            ctx.createProducer().send(q, "not a number");
            ctx.commit();
            JMSConsumer consumer = ctx.createConsumer(q);
            assertThatThrownBy(() -> consumer.receiveBody(Integer.class, 5_000))
                    .isInstanceOf(MessageFormatRuntimeException.class);
            assertThat(consumer.receiveBody(String.class, 300)).as("consumed by the transaction").isNull();
            ctx.rollback();
            assertThat(consumer.receiveBody(String.class, 5_000)).as("rolled back: delivered again")
                    .isEqualTo("not a number");
            ctx.commit();
            assertThat(consumer.receiveBodyNoWait(String.class)).isNull();
        }
    }

    @Test
    void inAClientAcknowledgeContextABodyThatDoesNotFitCountsAsReceivedUntilRecover() throws Exception {
        try (JMSContext ctx = factory.createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Queue q = ctx.createQueue("simplified-client-body");
            ctx.createProducer().send(q, "not a number");
            JMSConsumer consumer = ctx.createConsumer(q);
            assertThatThrownBy(() -> consumer.receiveBody(Integer.class, 5_000))
                    .isInstanceOf(MessageFormatRuntimeException.class);
            assertThat(consumer.receiveBody(String.class, 300)).as("not delivered again").isNull();
            ctx.recover();
            Message again = consumer.receive(5_000);
            assertThat(again).as("recover() delivers it again").isInstanceOf(TextMessage.class);
            assertThat(again.getJMSRedelivered()).isTrue();
            ctx.acknowledge();
        }
    }

    /** The destination exists before the transaction (the warm-up); the next test covers a new one. */
    @Test
    void aTransactedContextsMessagesArriveInSendOrder() {
        try (JMSContext ctx = factory.createContext(JMSContext.SESSION_TRANSACTED)) {
            Queue q = ctx.createQueue("simplified-tx-order");
            ctx.createProducer().send(q, "warm-up");
            ctx.commit();
            try (JMSConsumer warmUp = ctx.createConsumer(q)) {
                assertThat(warmUp.receiveBody(String.class, 5_000)).isEqualTo("warm-up");
            }
            ctx.commit();
            for (int i = 0; i < 5; i++) {
                ctx.createProducer().send(q, "m" + i);
            }
            ctx.commit();
            JMSConsumer consumer = ctx.createConsumer(q);
            java.util.List<String> got = new java.util.ArrayList<>();
            for (int i = 0; i < 5; i++) {
                got.add(consumer.receiveBody(String.class, 5_000));
            }
            ctx.commit();
            assertThat(got).as("6.2.9 message order").containsExactly("m0", "m1", "m2", "m3", "m4");
        }
    }

    /**
     * 6.2.9 for the first transaction to a destination that does not exist yet: the broker creates it with the first
     * message and chooses its queue, and the transaction's other messages must follow it into that queue.
     */
    @Test
    void theFirstTransactionToANewDestinationArrivesInSendOrder() {
        try (JMSContext ctx = factory.createContext(JMSContext.SESSION_TRANSACTED)) {
            for (int d = 0; d < 3; d++) {
                Queue q = ctx.createQueue("simplified-tx-new-" + d);
                java.util.List<String> sent = new java.util.ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    ctx.createProducer().send(q, "m" + i);
                    sent.add("m" + i);
                }
                ctx.commit();
                try (JMSConsumer consumer = ctx.createConsumer(q)) {
                    java.util.List<String> got = new java.util.ArrayList<>();
                    for (int i = 0; i < sent.size(); i++) {
                        got.add(consumer.receiveBody(String.class, 5_000));
                    }
                    ctx.commit();
                    assertThat(got).as("6.2.9 message order on new destination %s", q).isEqualTo(sent);
                }
            }
        }
    }
}
