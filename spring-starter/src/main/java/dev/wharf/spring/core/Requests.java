package dev.wharf.spring.core;

import dev.wharf.jms.destination.Destinations;
import dev.wharf.spring.support.WharfHeaders;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.springframework.messaging.MessagingException;
import org.springframework.messaging.converter.MessageConverter;
import org.springframework.messaging.support.GenericMessage;

/**
 * One request and its reply: a temporary queue on Wharf's JMS connection receives the reply, whose address travels
 * in the request's {@code JMSReplyTo} property, so a {@code @MessageListener} or a JMS consumer may answer.
 */
final class Requests {

    /** Sends the request with the given reply address. */
    @FunctionalInterface
    interface RequestSender {
        void send(String replyTo);
    }

    private final ConnectionFactory connectionFactory;
    private final MessageConverter converter;

    Requests(ConnectionFactory connectionFactory, MessageConverter converter) {
        this.connectionFactory = connectionFactory;
        this.converter = converter;
    }

    <T> T sendAndReceive(Duration timeout, RequestSender sender, Class<T> replyType) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("The reply timeout is " + timeout + "; give a positive duration.");
        }
        Connection connection = null;
        Session session = null;
        TemporaryQueue replies = null;
        try {
            connection = connectionFactory.createConnection();
            session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            replies = session.createTemporaryQueue();
            try (MessageConsumer consumer = session.createConsumer(replies)) {
                connection.start();
                sender.send(Destinations.toUri(replies));
                jakarta.jms.Message reply = consumer.receive(Math.max(1, timeout.toMillis()));
                if (reply == null) {
                    return null;
                }
                Object converted = converter.fromMessage(new GenericMessage<>(body(reply), headers(reply)), replyType);
                if (converted == null) {
                    throw new MessagingException("The reply cannot be converted to " + replyType.getName()
                            + " by " + converter.getClass().getSimpleName() + ".");
                }
                return replyType.cast(converted);
            }
        } catch (JMSException e) {
            MessagingException failure = new MessagingException("The request/reply failed: " + e.getMessage());
            failure.initCause(e);
            throw failure;
        } finally {
            closeQuietly(replies, session, connection);
        }
    }

    private static byte[] body(jakarta.jms.Message reply) throws JMSException {
        if (reply instanceof TextMessage text) {
            String s = text.getText();
            return s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8);
        }
        if (reply instanceof BytesMessage bytes) {
            byte[] body = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(body);
            return body;
        }
        byte[] body = reply.getBody(byte[].class);
        return body == null ? new byte[0] : body;
    }

    private static Map<String, Object> headers(jakarta.jms.Message reply) throws JMSException {
        Map<String, Object> headers = new HashMap<>();
        if (reply.getJMSCorrelationID() != null) {
            headers.put(WharfHeaders.CORRELATION_ID, reply.getJMSCorrelationID());
        }
        return headers;
    }

    private static void closeQuietly(TemporaryQueue replies, Session session, Connection connection) {
        try {
            if (replies != null) {
                replies.delete();
            }
        } catch (JMSException e) {
            // the queue goes with the connection
        }
        try {
            if (session != null) {
                session.close();
            }
        } catch (JMSException e) {
            // closing is best effort
        }
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (JMSException e) {
            // closing is best effort
        }
    }
}
