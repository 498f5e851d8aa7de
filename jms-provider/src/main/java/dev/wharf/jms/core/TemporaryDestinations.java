package dev.wharf.jms.core;

import dev.wharf.client.ClientException;
import dev.wharf.jms.destination.Destinations;
import dev.wharf.jms.destination.TemporaryDestinationDeleter;
import dev.wharf.jms.destination.WharfDestination;
import dev.wharf.jms.destination.WharfTemporaryDestination;
import dev.wharf.jms.destination.WharfTemporaryQueue;
import dev.wharf.jms.destination.WharfTemporaryTopic;
import dev.wharf.jms.engine.BrokerLink;
import dev.wharf.jms.error.JmsErrors;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The temporary queues and topics of one connection (Jakarta Messaging 3.1, 6.2.2): broker topics with one queue
 * per master broker, created through the admin client and deleted with {@code delete()} (refused while the
 * connection has consumers on them) or when the connection closes. Only this connection may consume from them,
 * which {@link #createdHere} tells. A JVM that dies leaves its temporary topics on the broker (nothing deletes
 * them then). Thread-safe.
 */
final class TemporaryDestinations implements TemporaryDestinationDeleter {

    private static final Logger LOG = LoggerFactory.getLogger(TemporaryDestinations.class);
    /** Queues of a temporary destination on each master broker: one keeps its order trivially. */
    static final int QUEUES = 1;

    private final WharfConnection connection;
    private final BrokerLink link;
    private final Set<WharfTemporaryDestination> created = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    TemporaryDestinations(WharfConnection connection, BrokerLink link) {
        this.connection = connection;
        this.link = link;
    }

    WharfTemporaryQueue createQueue() throws JMSException {
        WharfTemporaryQueue queue = new WharfTemporaryQueue(Destinations.newTemporaryName(), this);
        create(queue);
        return queue;
    }

    WharfTemporaryTopic createTopic() throws JMSException {
        WharfTemporaryTopic topic = new WharfTemporaryTopic(Destinations.newTemporaryName(), this);
        create(topic);
        return topic;
    }

    private void create(WharfTemporaryDestination destination) throws JMSException {
        try {
            link.admin().createTopic(destination.getName(), QUEUES);
        } catch (ClientException e) {
            throw JmsErrors.fromClient(e, "create the " + destination.kind().label() + " " + destination.getName());
        } catch (InterruptedException e) {
            throw JmsErrors.translate("create a temporary destination", e);
        }
        created.add(destination);
    }

    /** Whether this connection created the temporary destination (and so may consume from it). */
    boolean createdHere(WharfTemporaryDestination destination) {
        return destination.isCreatedBy(this);
    }

    /**
     * Deletes a temporary destination of this connection.
     *
     * @throws IllegalStateException when the connection has consumers on it, or is closed
     */
    @Override
    public void delete(WharfDestination destination) throws JMSException {
        if (closed) {
            throw JmsErrors.closed("connection");
        }
        if (connection.hasConsumerOn(destination)) {
            throw new IllegalStateException("The " + destination.kind().label() + " " + destination.getName()
                    + " still has consumers; close them before deleting it.");
        }
        try {
            link.admin().deleteTopic(destination.getName());
        } catch (ClientException e) {
            throw JmsErrors.fromClient(e, "delete the " + destination.kind().label() + " " + destination.getName());
        } catch (InterruptedException e) {
            throw JmsErrors.translate("delete a temporary destination", e);
        }
        link.dropGroup(destination.getName());
        created.remove(destination);
    }

    /** Deletes every temporary destination left (the connection closes, after its sessions). */
    void deleteAll() {
        for (WharfTemporaryDestination t : created) {
            try {
                t.delete();
            } catch (JMSException e) {
                LOG.warn("Could not delete the temporary destination {}: {}", t, e.getMessage());
            }
        }
        closed = true;
    }
}
