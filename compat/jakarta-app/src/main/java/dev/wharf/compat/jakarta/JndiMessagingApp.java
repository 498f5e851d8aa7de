package dev.wharf.compat.jakarta;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Sends and receives through a queue and a topic that it finds, with its connection factory, by JNDI names only:
 * {@code new InitialContext()} reads {@code jndi.properties} from the classpath, as an application in a Jakarta EE
 * container or on a plain JVM does. The code names no Wharf class; the provider comes in through the file.
 *
 * <p>Arguments: {@code [count]}, the number of messages sent to each destination (3 when absent). Exit codes: 0 when
 * every message came back, 2 for a bad JNDI configuration or lookup, 3 when messages did not arrive in time, 4 for
 * any other JMS failure; each failure prints one line on standard error saying what went wrong.
 */
public final class JndiMessagingApp {

    /** The JNDI names the application looks up, as in the README's JMS section. */
    public static final String FACTORY_NAME = "ConnectionFactory";
    public static final String QUEUE_NAME = "jms/orders";
    public static final String TOPIC_NAME = "jms/prices";

    static final int OK = 0;
    static final int BAD_CONFIGURATION = 2;
    static final int NOT_DELIVERED = 3;
    static final int JMS_FAILURE = 4;

    private static final long RECEIVE_BUDGET_MILLIS = 20_000;

    private JndiMessagingApp() {
    }

    public static void main(String[] args) {
        int count;
        try {
            count = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        } catch (NumberFormatException e) {
            System.err.println("The argument \"" + args[0] + "\" is not a message count; give a whole number.");
            System.exit(BAD_CONFIGURATION);
            return;
        }
        // exit explicitly: the client's I/O threads must not keep a finished application alive
        System.exit(run(count, System.out, System.err));
    }

    static int run(int count, PrintStream out, PrintStream err) {
        ConnectionFactory factory;
        Queue queue;
        Topic topic;
        try {
            Context jndi = new InitialContext();
            try {
                factory = lookup(jndi, FACTORY_NAME, ConnectionFactory.class);
                queue = lookup(jndi, QUEUE_NAME, Queue.class);
                topic = lookup(jndi, TOPIC_NAME, Topic.class);
            } finally {
                jndi.close();
            }
        } catch (NamingException | ClassCastException e) {
            err.println("JNDI configuration failed (check jndi.properties on the classpath): " + e.getMessage());
            return BAD_CONFIGURATION;
        }
        return exchange(factory, queue, topic, count, out, err);
    }

    private static <T> T lookup(Context jndi, String name, Class<T> type) throws NamingException {
        Object found = jndi.lookup(name);
        if (!type.isInstance(found)) {
            throw new ClassCastException("\"" + name + "\" is bound to a "
                    + (found == null ? "null" : found.getClass().getName()) + ", not to a " + type.getName()
                    + "; bind it with the right prefix (connectionFactory., queue. or topic.).");
        }
        return type.cast(found);
    }

    private static int exchange(ConnectionFactory factory, Queue queue, Topic topic, int count, PrintStream out,
                                PrintStream err) {
        try (Connection connection = factory.createConnection()) {
            out.println("looked up " + FACTORY_NAME + " (" + factory.getClass().getName() + "), queue "
                    + queue.getQueueName() + ", topic " + topic.getTopicName());
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            // a topic delivers only to subscribers that exist when a message is sent: subscribe first
            MessageConsumer prices = session.createConsumer(topic);
            MessageConsumer orders = session.createConsumer(queue);
            connection.start();
            MessageProducer producer = session.createProducer(null);
            List<String> sentOrders = new ArrayList<>();
            List<String> sentPrices = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                sentOrders.add(send(session, producer, queue, "order " + i));
                sentPrices.add(send(session, producer, topic, "price " + i));
            }
            out.println("sent " + count + " to queue " + queue.getQueueName() + " and " + count + " to topic "
                    + topic.getTopicName());
            long deadline = System.currentTimeMillis() + RECEIVE_BUDGET_MILLIS;
            List<String> gotOrders = receive(orders, count, deadline, "queue " + queue.getQueueName(), out);
            List<String> gotPrices = receive(prices, count, deadline, "topic " + topic.getTopicName(), out);
            if (!gotOrders.equals(sentOrders) || !gotPrices.equals(sentPrices)) {
                err.println("Not delivered within " + RECEIVE_BUDGET_MILLIS / 1000 + " s: queue "
                        + queue.getQueueName() + " sent " + sentOrders + ", received " + gotOrders + "; topic "
                        + topic.getTopicName() + " sent " + sentPrices + ", received " + gotPrices + ".");
                return NOT_DELIVERED;
            }
            out.println("OK: " + count + " messages each through queue " + queue.getQueueName() + " and topic "
                    + topic.getTopicName());
            return OK;
        } catch (JMSException e) {
            Exception linked = e.getLinkedException();
            String message = String.valueOf(e.getMessage());
            err.println("JMS failure: " + message
                    + (linked == null || message.contains(String.valueOf(linked.getMessage())) ? ""
                    : " (" + linked.getMessage() + ")"));
            return JMS_FAILURE;
        }
    }

    private static String send(Session session, MessageProducer producer, Destination to, String text)
            throws JMSException {
        producer.send(to, session.createTextMessage(text));
        return text;
    }

    private static List<String> receive(MessageConsumer consumer, int count, long deadline, String from,
                                        PrintStream out) throws JMSException {
        List<String> got = new ArrayList<>();
        while (got.size() < count) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                break;
            }
            Message m = consumer.receive(left);
            if (m == null) {
                break;
            }
            String text = m instanceof TextMessage t ? t.getText() : String.valueOf(m);
            out.println("received from " + from + ": " + text);
            got.add(text);
        }
        return got;
    }
}
