package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Redelivery counts, redelivery delay and the dead-letter queue {@code %DLQ%group}. */
class RedeliveryTest {

    private static final VmNames VM = new VmNames("redelivery");
    private static String url;

    @BeforeAll
    static void broker() {
        url = VM.url("?defaultTopicQueueNums=1");
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    @Test
    void afterMaxReconsumeTimesTheMessageIsInTheDeadLetterQueue() throws Exception {
        WharfConnectionFactory f = new WharfConnectionFactory(url);
        f.setMaxReconsumeTimes(2);
        try (Connection c = f.createConnection()) {
            Session s = c.createSession();
            Queue q = s.createQueue("orders");
            List<Integer> counts = Collections.synchronizedList(new ArrayList<>());
            s.createConsumer(q).setMessageListener(m -> {
                try {
                    counts.add(m.getIntProperty("JMSXDeliveryCount"));
                } catch (jakarta.jms.JMSException e) {
                    throw new RuntimeException(e);
                }
                throw new IllegalStateException("poison");
            });
            Session sender = c.createSession();
            TextMessage poison = sender.createTextMessage("poison");
            poison.setStringProperty("orderId", "o-17");
            sender.createProducer(q).send(poison);
            c.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> counts.size() >= 3);

            Queue dlq = sender.createQueue("%DLQ%orders");
            QueueBrowser browser = sender.createBrowser(dlq);
            await().atMost(Duration.ofSeconds(10)).until(() -> browser.getEnumeration().hasMoreElements());
            Message dead = (Message) browser.getEnumeration().nextElement();
            assertThat(((TextMessage) dead).getText()).isEqualTo("poison");
            assertThat(dead.getStringProperty("orderId")).isEqualTo("o-17");

            MessageConsumer reader = sender.createConsumer(dlq);
            Message read = reader.receive(5_000);
            assertThat(((TextMessage) read).getText()).isEqualTo("poison");
            assertThat(counts).as("1 delivery + maxReconsumeTimes redeliveries").containsExactly(1, 2, 3);
        }
    }

    @Test
    void aRedeliveryDelayKeepsTheMessageAwayThatLong() throws Exception {
        WharfConnectionFactory f = new WharfConnectionFactory(url);
        f.setRedeliveryDelay(1_000);
        try (Connection c = f.createConnection()) {
            c.start();
            Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
            Queue q = s.createQueue("redelivery-delay");
            s.createProducer(q).send(s.createTextMessage("later"));
            MessageConsumer consumer = s.createConsumer(q);
            assertThat(consumer.receive(5_000)).isNotNull();
            long recovered = System.nanoTime();
            s.recover();
            Message again = consumer.receive(10_000);
            long waited = (System.nanoTime() - recovered) / 1_000_000;
            assertThat(again).isNotNull();
            assertThat(again.getJMSRedelivered()).isTrue();
            assertThat(waited).as("redelivered after the delay").isGreaterThanOrEqualTo(900);
            again.acknowledge();
        }
    }
}
