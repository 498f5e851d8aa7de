package dev.wharf.jms.it;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A JMS client in its own process that holds a client id: connects with it, prints "HOLDING", and waits to be
 * killed. Arguments: brokerURL clientId.
 */
public final class ClientIdHolderMain {

    private ClientIdHolderMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Connection c = new WharfConnectionFactory(args[0]).createConnection();
        c.setClientID(args[1]);
        c.start();
        out.println("HOLDING");
        Thread.currentThread().join();
    }
}
