package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueRequestor;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicRequestor;
import jakarta.jms.TopicSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Request/reply over temporary destinations with QueueRequestor and TopicRequestor (6.2.2, 10.2). */
class RequestReplyTest {

    private static final VmNames VM = new VmNames("reqrep");
    private static String url;

    @BeforeAll
    static void broker() {
        url = VM.url();
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    /** Answers every request on {@code destination} with "re: " + its text, to its JMSReplyTo. */
    private static Connection responder(jakarta.jms.Destination destination) throws Exception {
        Connection c = new WharfConnectionFactory(url).createConnection();
        Session s = c.createSession();
        MessageProducer replies = s.createProducer(null);
        s.createConsumer(destination).setMessageListener(request -> {
            try {
                TextMessage reply = s.createTextMessage("re: " + ((TextMessage) request).getText());
                reply.setJMSCorrelationID(request.getJMSMessageID());
                replies.send(request.getJMSReplyTo(), reply);
            } catch (jakarta.jms.JMSException e) {
                throw new RuntimeException(e);
            }
        });
        c.start();
        return c;
    }

    @Test
    void aQueueRequestorGetsTheReplyOnItsTemporaryQueue() throws Exception {
        try (QueueConnection c = new WharfConnectionFactory(url).createQueueConnection()) {
            QueueSession s = c.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue service = s.createQueue("reqrep-service");
            try (Connection ignored = responder(service)) {
                c.start();
                QueueRequestor requestor = new QueueRequestor(s, service);
                for (int i = 0; i < 3; i++) {
                    TextMessage request = s.createTextMessage("ping " + i);
                    Message reply = requestor.request(request);
                    assertThat(((TextMessage) reply).getText()).isEqualTo("re: ping " + i);
                    assertThat(reply.getJMSCorrelationID()).isEqualTo(request.getJMSMessageID());
                }
                requestor.close();
            }
        }
    }

    @Test
    void aTopicRequestorGetsTheReplyOnItsTemporaryTopic() throws Exception {
        try (TopicConnection c = new WharfConnectionFactory(url).createTopicConnection()) {
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic service = s.createTopic("reqrep-topic-service");
            try (Connection ignored = responder(service)) {
                c.start();
                TopicRequestor requestor = new TopicRequestor(s, service);
                Message reply = requestor.request(s.createTextMessage("hello"));
                assertThat(((TextMessage) reply).getText()).isEqualTo("re: hello");
                requestor.close();
            }
        }
    }

    @Test
    void onlyTheCreatingConnectionConsumesATemporaryQueueAndActiveConsumersBlockItsDeletion() throws Exception {
        try (Connection owner = new WharfConnectionFactory(url).createConnection();
             Connection other = new WharfConnectionFactory(url).createConnection()) {
            Session s = owner.createSession();
            TemporaryQueue q = s.createTemporaryQueue();
            assertThatThrownBy(() -> other.createSession().createConsumer(q))
                    .isInstanceOf(InvalidDestinationException.class).hasMessageContaining("another connection");
            MessageConsumer consumer = s.createConsumer(q);
            assertThatThrownBy(q::delete).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("still has consumers");
            other.createSession().createProducer(q).send(s.createTextMessage("from the other connection"));
            owner.start();
            assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("from the other connection");
            consumer.close();
            q.delete();
            assertThatThrownBy(() -> s.createConsumer(q)).isInstanceOf(InvalidDestinationException.class);
        }
    }
}
