package dev.wharf.jms.it;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;

/** The README's "JMS in 20 lines", as written there (run by {@link ReadmeExampleTest}). */
public class JmsInTwentyLines {

    public static void main(String[] args) {
        // vm://local starts a broker inside this JVM; wharf://localhost:9876 talks to a running server
        ConnectionFactory factory = new WharfConnectionFactory(args.length > 0 ? args[0] : "vm://local");
        try (JMSContext context = factory.createContext()) {
            Queue orders = context.createQueue("orders");
            context.createProducer().setProperty("region", "eu").send(orders, "order #1");
            JMSConsumer consumer = context.createConsumer(orders, "region = 'eu'");
            String body = consumer.receiveBody(String.class, 5_000);
            System.out.println("received: " + body);
        }
    }
}
