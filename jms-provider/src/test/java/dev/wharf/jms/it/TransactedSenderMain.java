package dev.wharf.jms.it;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A JMS client in its own process for the "dies before commit" test: sends messages in a transacted session,
 * prints "SENT", and waits to be killed without committing. Arguments: brokerURL queue count.
 */
public final class TransactedSenderMain {

    private TransactedSenderMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Connection c = new WharfConnectionFactory(args[0]).createConnection();
        Session s = c.createSession(Session.SESSION_TRANSACTED);
        MessageProducer p = s.createProducer(s.createQueue(args[1]));
        int count = Integer.parseInt(args[2]);
        for (int i = 0; i < count; i++) {
            p.send(s.createTextMessage("uncommitted " + i));
        }
        out.println("SENT");
        Thread.currentThread().join();
    }
}
