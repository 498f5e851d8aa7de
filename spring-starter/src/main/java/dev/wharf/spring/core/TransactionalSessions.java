package dev.wharf.spring.core;

import dev.wharf.jms.core.WharfSession;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import org.springframework.jms.connection.ConnectionFactoryUtils;
import org.springframework.jms.connection.JmsResourceHolder;
import org.springframework.jms.connection.SessionProxy;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Finds the transacted JMS session bound to the current Spring-managed transaction, the very one a transacted
 * JmsTemplate of the same connection factory sends through (creating and binding it when this is the
 * transaction's first send): so the template's messages become half messages of the same Wharf transaction,
 * recorded once in the transaction log, and commit or roll back with the database and with JmsTemplate's messages.
 * Any number of templates share that one mechanism. Thread-safe.
 */
final class TransactionalSessions {

    private final ConnectionFactory connectionFactory;
    private final ConnectionFactoryUtils.ResourceFactory resources = new Resources();

    TransactionalSessions(ConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
    }

    /**
     * The Wharf session of the current transaction, or null outside a Spring-managed transaction.
     *
     * @throws IllegalStateException when the connection factory is not Wharf's
     */
    WharfSession current() throws JMSException {
        if (connectionFactory == null || !TransactionSynchronizationManager.isSynchronizationActive()) {
            return null;
        }
        Session session = ConnectionFactoryUtils.doGetTransactionalSession(connectionFactory, resources, false);
        if (session == null) {
            return null;
        }
        Session target = session instanceof SessionProxy proxy ? proxy.getTargetSession() : session;
        if (!(target instanceof WharfSession wharf)) {
            throw new IllegalStateException("The transaction's JMS session is a " + target.getClass().getName()
                    + ", not a Wharf session; WharfTemplate joins transactions through Wharf's ConnectionFactory.");
        }
        return wharf;
    }

    /** Creates the transaction's connection and transacted session as JmsTemplate would. */
    private final class Resources implements ConnectionFactoryUtils.ResourceFactory {

        @Override
        public Session getSession(JmsResourceHolder holder) {
            return holder.getSession(Session.class);
        }

        @Override
        public Connection getConnection(JmsResourceHolder holder) {
            return holder.getConnection();
        }

        @Override
        public Connection createConnection() throws JMSException {
            return connectionFactory.createConnection();
        }

        @Override
        public Session createSession(Connection con) throws JMSException {
            return con.createSession(true, Session.SESSION_TRANSACTED);
        }

        @Override
        public boolean isSynchedLocalTransactionAllowed() {
            return true;
        }
    }
}
