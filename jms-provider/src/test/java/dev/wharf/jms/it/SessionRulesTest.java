package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.vm.VmBrokerRegistry;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Session and connection rules the audit found untested (Jakarta Messaging 3.1, 6.1.5, 6.2.7, 6.2.15, 8.3):
 * closing a transacted session or its connection with a transaction in progress rolls it back, and the consumed
 * messages come back in order marked redelivered; a closed browser refuses everything; unsubscribing a durable
 * subscription with unacknowledged messages is refused; noLocal on durable and shared subscriptions.
 */
@Timeout(60)
class SessionRulesTest {

    private static final VmNames VM = new VmNames("session-rules");
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

    private static void send(Connection c, jakarta.jms.Destination d, String... texts) throws Exception {
        Session s = c.createSession();
        MessageProducer p = s.createProducer(d);
        for (String text : texts) {
            p.send(s.createTextMessage(text));
        }
        s.close();
    }

    private static List<String> receiveRedelivered(Connection c, Queue q, int n) throws Exception {
        MessageConsumer consumer = c.createSession().createConsumer(q);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Message m = consumer.receive(5_000);
            assertThat(m).as("message " + i).isNotNull();
            assertThat(m.getJMSRedelivered()).as("6.2.7: marked redelivered").isTrue();
            assertThat(m.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
            out.add(((TextMessage) m).getText());
        }
        assertThat(consumer.receive(300)).isNull();
        return out;
    }

    @Test
    void closingATransactedSessionGivesItsConsumedMessagesBackInOrderMarkedRedelivered() throws Exception {
        try (Connection c = connect(null)) {
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("rules-tx-session-close");
            send(c, q, "1", "2", "3");
            MessageConsumer consumer = tx.createConsumer(q);
            for (int i = 0; i < 3; i++) {
                assertThat(consumer.receive(5_000)).isNotNull();
            }
            tx.createProducer(q).send(tx.createTextMessage("sent in the transaction"));
            tx.close();
            assertThat(receiveRedelivered(c, q, 3)).containsExactly("1", "2", "3");
        }
    }

    @Test
    void closingTheConnectionRollsBackItsSessionsTransactions() throws Exception {
        Queue q;
        try (Connection c = connect(null)) {
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            q = tx.createQueue("rules-tx-connection-close");
            send(c, q, "a", "b");
            MessageConsumer consumer = tx.createConsumer(q);
            assertThat(consumer.receive(5_000)).isNotNull();
            assertThat(consumer.receive(5_000)).isNotNull();
            tx.createProducer(q).send(tx.createTextMessage("never"));
        }
        try (Connection c = connect(null)) {
            assertThat(receiveRedelivered(c, q, 2)).as("6.1.5").containsExactly("a", "b");
        }
    }

    @Test
    void aClosedBrowserRefusesEverythingAndItsBrowseEnds() throws Exception {
        try (Connection c = connect(null)) {
            Session s = c.createSession();
            Queue q = s.createQueue("rules-browser-close");
            send(c, q, "x", "y");
            QueueBrowser browser = s.createBrowser(q, "JMSType IS NULL");
            await().atMost(Duration.ofSeconds(10)).until(() -> browser.getEnumeration().hasMoreElements());
            Enumeration<?> browse = browser.getEnumeration();
            browser.close();
            browser.close();
            assertThat(browse.hasMoreElements()).as("a browse of a closed browser ends").isFalse();
            assertThatThrownBy(browser::getEnumeration).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(browser::getQueue).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(browser::getMessageSelector).isInstanceOf(IllegalStateException.class);
            assertThat(s.createConsumer(q).receive(5_000)).as("browsing consumed nothing").isNotNull();
        }
    }

    @Test
    void aDurableSubscriptionWithUnacknowledgedMessagesCannotBeUnsubscribed() throws Exception {
        try (Connection c = connect("rules-unsub")) {
            Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
            Topic t = s.createTopic("rules-unsub");
            MessageConsumer consumer = s.createDurableConsumer(t, "held");
            send(c, t, "held");
            Message m = consumer.receive(5_000);
            assertThat(m).isNotNull();
            assertThatThrownBy(() -> s.unsubscribe("held")).as("an active consumer")
                    .isInstanceOf(IllegalStateException.class);
            consumer.close();
            assertThatThrownBy(() -> s.unsubscribe("held")).as("a consumed message not yet acknowledged (8.3.4)")
                    .isInstanceOf(IllegalStateException.class);
            m.acknowledge();
            s.unsubscribe("held");
        }
        try (JMSContext ctx = new WharfConnectionFactory(url).createContext()) {
            ctx.setClientID("rules-unsub-ctx");
            Topic t = ctx.createTopic("rules-unsub");
            ctx.createDurableConsumer(t, "busy");
            assertThatThrownBy(() -> ctx.unsubscribe("busy")).isInstanceOf(JMSRuntimeException.class);
        }
    }

    @Test
    void aNoLocalDurableSubscriptionSkipsWhatItsClientIdPublishedWhileItWasAway() throws Exception {
        Topic t;
        try (Connection c = connect("rules-nolocal")) {
            Session s = c.createSession();
            t = s.createTopic("rules-nolocal");
            s.createDurableConsumer(t, "mine", null, true).close();
        }
        try (Connection sameId = connect("rules-nolocal"); Connection other = connect(null)) {
            send(sameId, t, "published by the same client id");
            send(other, t, "published by another connection");
            String namesrv = VmBrokerRegistry.shared().acquire(new WharfConnectionFactory(url).getConfig())
                    .namesrvAddr();
            Stored.read(namesrv, "rules-nolocal", 2);
        }
        try (Connection c = connect("rules-nolocal")) {
            Session s = c.createSession();
            MessageConsumer consumer = s.createDurableConsumer(t, "mine", null, true);
            List<String> got = new ArrayList<>();
            for (Message m = consumer.receive(5_000); m != null; m = consumer.receive(500)) {
                got.add(((TextMessage) m).getText());
            }
            assertThat(got).as("8.3.3").containsExactly("published by another connection");
            consumer.close();
            s.unsubscribe("mine");
        }
    }

    @Test
    void aSharedSubscriptionHasNoNoLocalAndGetsItsOwnConnectionsMessages() throws Exception {
        try (Connection c = connect(null)) {
            Session s = c.createSession();
            Topic t = s.createTopic("rules-shared-own");
            MessageConsumer shared = s.createSharedConsumer(t, "own");
            MessageConsumer sharedDurable = s.createSharedDurableConsumer(t, "own-durable");
            send(c, t, "own");
            assertThat(((TextMessage) shared.receive(5_000)).getText()).isEqualTo("own");
            assertThat(((TextMessage) sharedDurable.receive(5_000)).getText()).isEqualTo("own");
            sharedDurable.close();
            s.unsubscribe("own-durable");
        }
    }

    @Test
    void transactionAndRecoveryMethodsNeedTheRightKindOfSession() throws Exception {
        try (Connection c = connect(null)) {
            Session plain = c.createSession();
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            assertThatThrownBy(plain::commit).as("6.2.7").isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(plain::rollback).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(tx::recover).as("6.2.11").isInstanceOf(IllegalStateException.class);
            assertThat(tx.getTransacted()).isTrue();
            assertThat(tx.getAcknowledgeMode()).isEqualTo(Session.SESSION_TRANSACTED);
            plain.close();
            plain.close();
            assertThatThrownBy(plain::recover).as("a closed session").isInstanceOf(IllegalStateException.class);
        }
    }
}
