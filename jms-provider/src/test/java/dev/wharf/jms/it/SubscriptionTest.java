package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.vm.VmBrokerRegistry;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Topic subscriptions: non-durable, durable, shared, shared durable, unsubscribe, noLocal (8.3). */
class SubscriptionTest {

    private static final VmNames VM = new VmNames("subscription");
    private static String url;

    @BeforeAll
    static void broker() {
        url = VM.url("?defaultTopicQueueNums=2");
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    private static Connection connect(String clientId) throws Exception {
        Connection c = new WharfConnectionFactory(url).createConnection();
        if (clientId != null) {
            c.setClientID(clientId);
        }
        c.start();
        return c;
    }

    /**
     * The in-JVM broker's NameServer. A subscription starts at the end of what the broker has dispatched, so tests
     * that publish right before subscribing wait with {@link Stored#read} until the broker dispatched it.
     */
    private static String namesrv() throws Exception {
        return VmBrokerRegistry.shared().acquire(new WharfConnectionFactory(url).getConfig()).namesrvAddr();
    }

    private static void publish(Connection c, Topic t, String... texts) throws Exception {
        Session s = c.createSession();
        MessageProducer p = s.createProducer(t);
        for (String text : texts) {
            p.send(s.createTextMessage(text));
        }
        s.close();
    }

    private static List<String> receiveAll(MessageConsumer consumer, int expected) throws Exception {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < expected; i++) {
            Message m = consumer.receive(5_000);
            assertThat(m).as("message " + i + " of " + expected).isNotNull();
            out.add(((TextMessage) m).getText());
        }
        assertThat(consumer.receive(200)).as("nothing more").isNull();
        return out;
    }

    @Test
    void everySubscriberGetsEveryMessagePublishedAfterItSubscribed() throws Exception {
        try (Connection c = connect(null)) {
            Session s = c.createSession();
            Topic t = s.createTopic("sub-fanout");
            publish(c, t, "before anyone subscribed");
            // a subscription starts at the end of what the broker has dispatched; wait until this message is
            Stored.read(namesrv(), "sub-fanout", 1);
            MessageConsumer a = s.createConsumer(t);
            MessageConsumer b = c.createSession().createConsumer(t);
            publish(c, t, "one", "two");
            assertThat(receiveAll(a, 2)).containsExactly("one", "two");
            assertThat(receiveAll(b, 2)).containsExactly("one", "two");
        }
    }

    @Test
    void aSubscriberOnATopicNobodyPublishedToYetGetsTheFirstMessage() throws Exception {
        try (Connection c = connect(null)) {
            Session s = c.createSession();
            Topic t = s.createTopic("sub-fresh-topic");
            MessageConsumer a = s.createConsumer(t);
            publish(c, t, "first ever");
            assertThat(receiveAll(a, 1)).containsExactly("first ever");
        }
    }

    @Test
    void aDurableSubscriptionKeepsMessagesWhileItsConsumerIsAway() throws Exception {
        try (Connection c = connect("sub-durable-client")) {
            Session s = c.createSession();
            Topic t = s.createTopic("sub-durable");
            MessageConsumer d = s.createDurableConsumer(t, "audit");
            publish(c, t, "while connected");
            assertThat(receiveAll(d, 1)).containsExactly("while connected");
            d.close();
            publish(c, t, "while away 1", "while away 2");
        }
        try (Connection c = connect("sub-durable-client")) {
            Session s = c.createSession();
            Topic t = s.createTopic("sub-durable");
            MessageConsumer d = s.createDurableSubscriber(t, "audit");
            assertThat(receiveAll(d, 2)).containsExactly("while away 1", "while away 2");
            assertThatThrownBy(() -> c.createSession().createDurableConsumer(t, "audit"))
                    .as("one consumer at a time").isInstanceOf(JMSException.class)
                    .hasMessageContaining("already has an active consumer");
            assertThatThrownBy(() -> s.unsubscribe("audit")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("active consumer");
            d.close();
            s.unsubscribe("audit");
            assertThatThrownBy(() -> s.unsubscribe("audit")).isInstanceOf(InvalidDestinationException.class)
                    .hasMessageContaining("no durable subscription named \"audit\"");
            publish(c, t, "after unsubscribe");
            Stored.read(namesrv(), "sub-durable", 4); // dispatched before the new subscription starts
            MessageConsumer fresh = s.createDurableConsumer(t, "audit");
            publish(c, t, "new subscription");
            assertThat(receiveAll(fresh, 1)).containsExactly("new subscription");
        }
    }

    @Test
    void aDurableSubscriptionCreatedAgainWithOtherTermsStartsOver() throws Exception {
        try (Connection c = connect("sub-terms-client")) {
            Session s = c.createSession();
            Topic t = s.createTopic("sub-terms");
            MessageConsumer d = s.createDurableConsumer(t, "terms");
            d.close();
            publish(c, t, "kept for the old terms");
            // same name, same topic, another selector: "equivalent to unsubscribing the old one" (8.3.2)
            MessageConsumer changed = s.createDurableConsumer(t, "terms", "color = 'red'", false);
            assertThat(changed.receive(500)).as("the old subscription's message is gone with it").isNull();
            changed.close();
            publish(c, t, "no color while away 1", "no color while away 2");
            // the same terms again: the same subscription (neither message has the color it selects)
            MessageConsumer same = s.createDurableConsumer(t, "terms", "color = 'red'", false);
            assertThat(receiveAll(same, 0)).isEmpty();
            same.close();
            Session p = c.createSession();
            MessageProducer producer = p.createProducer(t);
            TextMessage red = p.createTextMessage("red");
            red.setStringProperty("color", "red");
            producer.send(red);
            MessageConsumer again = s.createDurableConsumer(t, "terms", "color = 'red'", false);
            assertThat(receiveAll(again, 1)).containsExactly("red");
            again.close();
            // noLocal changes the terms too; unsubscribe finds the subscription whatever its terms
            s.createDurableConsumer(t, "terms", "color = 'red'", true).close();
            s.unsubscribe("terms");
            assertThatThrownBy(() -> s.unsubscribe("terms")).isInstanceOf(InvalidDestinationException.class);
        }
    }

    @Test
    void anUnsharedDurableSubscriptionNeedsAClientId() throws Exception {
        try (Connection c = connect(null)) {
            Session s = c.createSession();
            assertThatThrownBy(() -> s.createDurableConsumer(s.createTopic("sub-noid"), "x"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("client id");
            assertThatThrownBy(() -> s.createDurableConsumer(s.createTemporaryTopic(), "x"))
                    .isInstanceOf(InvalidDestinationException.class);
        }
    }

    @Test
    void aSharedSubscriptionSplitsTheMessagesBetweenItsConsumers() throws Exception {
        try (Connection c = connect(null)) {
            Topic t = c.createSession().createTopic("sub-shared");
            List<String> one = Collections.synchronizedList(new ArrayList<>());
            List<String> two = Collections.synchronizedList(new ArrayList<>());
            MessageConsumer plain = c.createSession().createConsumer(t);
            c.createSession().createSharedConsumer(t, "workers").setMessageListener(m -> one.add("x"));
            c.createSession().createSharedConsumer(t, "workers").setMessageListener(m -> two.add("x"));
            String[] texts = new String[40];
            for (int i = 0; i < texts.length; i++) {
                texts[i] = "s" + i;
            }
            publish(c, t, texts);
            await().atMost(Duration.ofSeconds(10)).until(() -> one.size() + two.size() == 40);
            assertThat(receiveAll(plain, 40)).hasSize(40);
            assertThatThrownBy(() -> c.createSession().createSharedConsumer(t, "workers", "a = 1"))
                    .as("joining with another selector while consumers are active").isInstanceOf(JMSException.class);
        }
    }

    @Test
    void aSharedDurableSubscriptionOutlivesItsConsumers() throws Exception {
        try (Connection c = connect(null)) {
            Session s = c.createSession();
            Topic t = s.createTopic("sub-shared-durable");
            s.createSharedDurableConsumer(t, "ledger").close();
            publish(c, t, "kept for the ledger");
            MessageConsumer again = c.createSession().createSharedDurableConsumer(t, "ledger");
            assertThat(receiveAll(again, 1)).containsExactly("kept for the ledger");
            again.close();
            s.unsubscribe("ledger");
        }
    }

    @Test
    void noLocalSkipsTheConnectionsOwnMessages() throws Exception {
        try (Connection mine = connect(null); Connection other = connect(null)) {
            Session s = mine.createSession();
            Topic t = s.createTopic("sub-nolocal");
            MessageConsumer noLocal = s.createConsumer(t, null, true);
            MessageConsumer everything = mine.createSession().createConsumer(t);
            publish(mine, t, "mine");
            publish(other, t, "theirs");
            assertThat(receiveAll(noLocal, 1)).containsExactly("theirs");
            assertThat(receiveAll(everything, 2)).containsExactlyInAnyOrder("mine", "theirs");
        }
    }

    @Test
    void aClosedNonDurableSubscriberStopsCollecting() throws Exception {
        try (Connection c = connect(null)) {
            Session s = c.createSession();
            Topic t = s.createTopic("sub-closed");
            MessageConsumer first = s.createConsumer(t);
            publish(c, t, "for the first");
            assertThat(receiveAll(first, 1)).containsExactly("for the first");
            first.close();
            publish(c, t, "for nobody");
            Stored.read(namesrv(), "sub-closed", 2);
            MessageConsumer second = s.createConsumer(t);
            publish(c, t, "for the second");
            assertThat(receiveAll(second, 1)).containsExactly("for the second");
        }
    }
}
