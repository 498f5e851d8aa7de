package dev.wharf.jms.destination;

import jakarta.jms.JMSException;

/**
 * Deletes a temporary destination on behalf of the connection that created it. The connection supplies it
 * when it creates the destination; it refuses while the connection still has consumers on the destination
 * (Jakarta Messaging 3.1, "Temporary destinations").
 */
@FunctionalInterface
public interface TemporaryDestinationDeleter {

    /**
     * @throws JMSException when the destination cannot be deleted, e.g. because consumers still use it
     */
    void delete(WharfDestination temporary) throws JMSException;
}
