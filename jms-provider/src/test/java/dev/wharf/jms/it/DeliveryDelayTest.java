package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Delivery delay through the broker's scheduled delivery (Jakarta Messaging 3.1, 7.9). */
class DeliveryDelayTest {

    private static final VmNames VM = new VmNames("delay");
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
    void aDelayedMessageArrivesNoEarlierThanItsDeliveryTime() throws Exception {
        try (Connection c = factory.createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = s.createQueue("delay-queue");
            MessageProducer p = s.createProducer(q);
            p.setDeliveryDelay(1_500);
            TextMessage delayed = s.createTextMessage("delayed");
            p.send(delayed);
            assertThat(delayed.getJMSDeliveryTime()).isEqualTo(delayed.getJMSTimestamp() + 1_500);
            p.setDeliveryDelay(0);
            p.send(s.createTextMessage("at once"));
            MessageConsumer consumer = s.createConsumer(q);
            Message first = consumer.receive(5_000);
            assertThat(((TextMessage) first).getText()).isEqualTo("at once");
            Message second = consumer.receive(10_000);
            long arrived = System.currentTimeMillis();
            assertThat(((TextMessage) second).getText()).isEqualTo("delayed");
            assertThat(arrived).isGreaterThanOrEqualTo(delayed.getJMSDeliveryTime());
            assertThat(second.getJMSDeliveryTime()).isEqualTo(delayed.getJMSDeliveryTime());
            assertThat(second.getJMSRedelivered()).isFalse();
        }
    }

    @Test
    void aJmsProducerDelaysToo() {
        try (JMSContext ctx = factory.createContext()) {
            Queue q = ctx.createQueue("delay-context");
            long sent = System.currentTimeMillis();
            ctx.createProducer().setDeliveryDelay(1_000).send(q, "later");
            String body = ctx.createConsumer(q).receiveBody(String.class, 10_000);
            assertThat(body).isEqualTo("later");
            assertThat(System.currentTimeMillis() - sent).isGreaterThanOrEqualTo(1_000);
        }
    }
}
