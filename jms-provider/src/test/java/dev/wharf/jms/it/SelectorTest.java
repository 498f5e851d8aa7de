package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSContext;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Message selectors, evaluated by the broker (Jakarta Messaging 3.1, 3.8). */
class SelectorTest {

    private static final VmNames VM = new VmNames("selector");
    private static String url;

    @BeforeAll
    static void broker() {
        url = VM.url("?defaultTopicQueueNums=2");
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    private static List<String> texts(MessageConsumer consumer) throws Exception {
        List<String> out = new ArrayList<>();
        for (Message m = consumer.receive(3_000); m != null; m = consumer.receive(300)) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }

    private static void send(Session s, jakarta.jms.Destination d, String text, String color, int weight,
                             String type) throws Exception {
        MessageProducer p = s.createProducer(d);
        TextMessage m = s.createTextMessage(text);
        m.setStringProperty("color", color);
        m.setIntProperty("weight", weight);
        m.setJMSType(type);
        p.send(m, jakarta.jms.DeliveryMode.PERSISTENT, "heavy".equals(text) ? 9 : 4, 0);
        p.close();
    }

    @Test
    void consumersWithDifferentSelectorsShareAQueueAndUnmatchedMessagesStay() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = s.createQueue("selector-queue");
            send(s, q, "red light", "red", 1, "a");
            send(s, q, "blue heavy", "blue", 50, "b");
            send(s, q, "green", "green", 5, "c");
            send(s, q, "red heavy", "red", 60, "a");
            MessageConsumer red = c.createSession().createConsumer(q, "color = 'red'");
            MessageConsumer heavy = c.createSession().createConsumer(q, "weight > 10 AND color <> 'red'");
            assertThat(texts(red)).containsExactly("red light", "red heavy");
            assertThat(texts(heavy)).containsExactly("blue heavy");
            MessageConsumer rest = c.createSession().createConsumer(q);
            assertThat(texts(rest)).as("no selector matched it, so it stayed").containsExactly("green");
        }
    }

    @Test
    void headersCanBeSelectedOn() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession();
            Topic t = s.createTopic("selector-headers");
            MessageConsumer byType = s.createConsumer(t, "JMSType = 'b' OR JMSType = 'c'");
            MessageConsumer byPriority = c.createSession().createConsumer(t, "JMSPriority > 6");
            MessageConsumer byLike = c.createSession().createConsumer(t, "color LIKE 'gr%' OR weight BETWEEN 55 AND 70");
            send(s, t, "x", "red", 1, "a");
            send(s, t, "y", "blue", 5, "b");
            send(s, t, "heavy", "green", 60, "c");
            assertThat(texts(byType)).containsExactly("y", "heavy");
            assertThat(texts(byPriority)).containsExactly("heavy");
            assertThat(texts(byLike)).containsExactly("heavy");
        }
    }

    @Test
    void anInvalidSelectorIsRefusedWhenTheConsumerIsCreated() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            assertThatThrownBy(() -> s.createConsumer(s.createQueue("selector-bad"), "color = = 'red'"))
                    .isInstanceOf(InvalidSelectorException.class).hasMessageContaining("column");
            assertThatThrownBy(() -> s.createConsumer(s.createTopic("selector-bad"), "weight +"))
                    .isInstanceOf(InvalidSelectorException.class);
            assertThatThrownBy(() -> s.createBrowser(s.createQueue("selector-bad"), "AND"))
                    .isInstanceOf(InvalidSelectorException.class);
            assertThat(s.createConsumer(s.createQueue("selector-bad"), "  ").getMessageSelector()).isNull();
        }
        try (JMSContext ctx = new WharfConnectionFactory(url).createContext()) {
            assertThatThrownBy(() -> ctx.createConsumer(ctx.createQueue("selector-bad"), "x <"))
                    .isInstanceOf(InvalidSelectorRuntimeException.class);
        }
    }
}
