package dev.wharf.spring.boot.transaction;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps one connection open while the application runs, so that it is a member of its producer group from start-up
 * on: the broker sends check-backs only to live members, and after a crash the restarted application must answer
 * for the transactions it left behind even before it sends anything. If the broker cannot be reached at start-up the
 * application starts anyway and joins the group with its first connection.
 */
public final class CheckBackMembership implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CheckBackMembership.class);

    private final ConnectionFactory connectionFactory;
    private volatile Connection connection;
    private volatile boolean running;

    /** @param connectionFactory the Wharf factory itself (not a caching wrapper), whose hooks answer check-backs */
    public CheckBackMembership(ConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
    }

    @Override
    public synchronized void start() {
        running = true;
        try {
            connection = connectionFactory.createConnection();
        } catch (JMSException e) {
            log.warn("Could not join the producer group at start-up ({}); check-backs reach this application once it"
                    + " connects", e.getMessage());
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        Connection c = connection;
        connection = null;
        if (c != null) {
            try {
                c.close();
            } catch (JMSException e) {
                log.debug("Closing the check-back connection failed: {}", e.getMessage());
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Whether the connection that keeps the application in its producer group is open. */
    public boolean isMember() {
        return connection != null;
    }

    /** Stops after the listener containers (default phase) and starts before them. */
    @Override
    public int getPhase() {
        return DEFAULT_PHASE - 1;
    }
}
