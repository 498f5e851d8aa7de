package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The acknowledgement modes and recover (Jakarta Messaging 3.1, 6.2.10, 6.2.11, 8.7). */
class AckModeTest {

    private static final VmNames VM = new VmNames("ack");
    private static String url;

    @BeforeAll
    static void broker() {
        url = VM.url("?defaultTopicQueueNums=2");
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    private static Connection connect() throws Exception {
        Connection c = new WharfConnectionFactory(url).createConnection();
        c.start();
        return c;
    }

    private static void send(Session s, Queue q, String... texts) throws Exception {
        MessageProducer p = s.createProducer(q);
        for (String t : texts) {
            p.send(s.createTextMessage(t));
        }
        p.close();
    }

    private static String text(Message m) throws jakarta.jms.JMSException {
        return m == null ? null : ((TextMessage) m).getText();
    }

    /** What a fresh connection finds on the queue within a short wait. */
    private static List<String> drain(Queue q) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = connect()) {
            MessageConsumer consumer = c.createSession().createConsumer(q);
            for (Message m = consumer.receive(1_000); m != null; m = consumer.receive(500)) {
                out.add(text(m));
            }
        }
        return out;
    }

    @Test
    void clientAcknowledgeAcknowledgesEverythingTheSessionConsumed() throws Exception {
        Queue q;
        try (Connection c = connect()) {
            Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
            q = s.createQueue("ack-client");
            send(c.createSession(), q, "a", "b", "c", "d");
            MessageConsumer consumer = s.createConsumer(q);
            Message a = consumer.receive(5_000);
            Message b = consumer.receive(5_000);
            assertThat(text(a)).isEqualTo("a");
            a.acknowledge();
            Message cMsg = consumer.receive(5_000);
            assertThat(text(b)).isEqualTo("b");
            assertThat(text(cMsg)).isEqualTo("c");
        }
        List<String> left = drain(q);
        assertThat(left).as("a and b acknowledged; c received but not acknowledged; d never received")
                .containsExactlyInAnyOrder("c", "d");
    }

    @Test
    void recoverRedeliversTheUnacknowledgedMessagesInOrder() throws Exception {
        try (Connection c = connect()) {
            Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
            Queue q = s.createQueue("ack-recover");
            send(c.createSession(), q, "1", "2", "3");
            MessageConsumer consumer = s.createConsumer(q);
            Message one = consumer.receive(5_000);
            one.acknowledge();
            assertThat(text(consumer.receive(5_000))).isEqualTo("2");
            assertThat(text(consumer.receive(5_000))).isEqualTo("3");
            s.recover();
            Message again = consumer.receive(5_000);
            assertThat(text(again)).isEqualTo("2");
            assertThat(again.getJMSRedelivered()).isTrue();
            assertThat(again.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
            Message third = consumer.receive(5_000);
            assertThat(text(third)).isEqualTo("3");
            third.acknowledge();
            assertThat(consumer.receive(300)).isNull();
        }
    }

    @Test
    void autoAcknowledgeListenerThatThrowsGetsTheMessageAgainAtOnce() throws Exception {
        try (Connection c = connect()) {
            Session s = c.createSession();
            Queue q = s.createQueue("ack-auto-throw");
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            s.createConsumer(q).setMessageListener(m -> {
                try {
                    seen.add(text(m) + "#" + m.getIntProperty("JMSXDeliveryCount") + (m.getJMSRedelivered() ? "r" : ""));
                    if ("bad".equals(text(m)) && m.getIntProperty("JMSXDeliveryCount") < 3) {
                        throw new IllegalArgumentException("listener failure");
                    }
                } catch (jakarta.jms.JMSException e) {
                    throw new RuntimeException(e);
                }
            });
            send(c.createSession(), q, "bad", "good");
            await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 4);
            // redelivered messages need not keep their place among newer ones (Session.recover, 8.7); usually they do
            assertThat(seen).containsExactlyInAnyOrder("bad#1", "bad#2r", "bad#3r", "good#1");
            assertThat(seen.stream().filter(x -> x.startsWith("bad")).toList())
                    .containsExactly("bad#1", "bad#2r", "bad#3r");
        }
    }

    @Test
    void clientAcknowledgeListenerThatThrowsGoesOnWithTheNextMessage() throws Exception {
        try (Connection c = connect()) {
            Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
            Queue q = s.createQueue("ack-client-throw");
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            s.createConsumer(q).setMessageListener(m -> {
                try {
                    seen.add(text(m));
                    if ("bad".equals(text(m))) {
                        throw new IllegalArgumentException("listener failure");
                    }
                    m.acknowledge();
                } catch (jakarta.jms.JMSException e) {
                    throw new RuntimeException(e);
                }
            });
            send(c.createSession(), q, "bad", "good");
            await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 2);
            assertThat(seen).containsExactly("bad", "good");
        }
        assertThat(drain(new dev.wharf.jms.destination.WharfQueue("ack-client-throw")))
                .as("acknowledging 'good' acknowledged 'bad' too").isEmpty();
    }

    @Test
    void recoverInsideAnAutoAcknowledgeListenerRedeliversTheCurrentMessage() throws Exception {
        try (Connection c = connect()) {
            Session s = c.createSession();
            Queue q = s.createQueue("ack-auto-recover");
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            s.createConsumer(q).setMessageListener(m -> {
                try {
                    seen.add(text(m) + "#" + m.getIntProperty("JMSXDeliveryCount"));
                    if (!m.getJMSRedelivered()) {
                        s.recover();
                    }
                } catch (jakarta.jms.JMSException e) {
                    throw new RuntimeException(e);
                }
            });
            send(c.createSession(), q, "x");
            await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 2);
            assertThat(seen).containsExactly("x#1", "x#2");
        }
    }

    @Test
    void dupsOkAcknowledgesLazilyButSurely() throws Exception {
        Queue q;
        try (Connection c = connect()) {
            Session s = c.createSession(Session.DUPS_OK_ACKNOWLEDGE);
            q = s.createQueue("ack-dups");
            String[] texts = new String[40];
            for (int i = 0; i < texts.length; i++) {
                texts[i] = "d" + i;
            }
            send(c.createSession(), q, texts);
            MessageConsumer consumer = s.createConsumer(q);
            for (int i = 0; i < texts.length; i++) {
                assertThat(text(consumer.receive(5_000))).isEqualTo("d" + i);
            }
        }
        assertThat(drain(q)).as("closing the session sent the pending acknowledgements").isEmpty();
    }

    @Test
    void unacknowledgedMessagesOfAClosedSessionAreDeliveredAgain() throws Exception {
        Queue q;
        try (Connection c = connect()) {
            Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
            q = s.createQueue("ack-close");
            send(c.createSession(), q, "kept");
            assertThat(text(s.createConsumer(q).receive(5_000))).isEqualTo("kept");
        }
        try (Connection c = connect()) {
            Message m = c.createSession().createConsumer(q).receive(5_000);
            assertThat(text(m)).isEqualTo("kept");
            assertThat(m.getJMSRedelivered()).isTrue();
        }
    }

    @Test
    void acknowledgeOnAClosedSessionIsRefused() throws Exception {
        try (Connection c = connect()) {
            Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
            Queue q = s.createQueue("ack-closed");
            send(c.createSession(), q, "m");
            Message m = s.createConsumer(q).receive(5_000);
            s.close();
            assertThatThrownBy(m::acknowledge).isInstanceOf(IllegalStateException.class);
        }
    }
}
