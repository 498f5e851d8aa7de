package dev.wharf.jms.destination;

import jakarta.jms.TemporaryQueue;
import java.io.Serial;

/** A queue that lives as long as the connection that created it. */
public class WharfTemporaryQueue extends WharfTemporaryDestination implements TemporaryQueue {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * @param deleter the creating connection's deleter, or null for a copy received from elsewhere
     * @throws IllegalArgumentException with a sentence naming the problem when the name is not valid
     */
    public WharfTemporaryQueue(String name, TemporaryDestinationDeleter deleter) {
        super(name, DestinationKind.TEMPORARY_QUEUE, deleter);
    }

    @Override
    public String getQueueName() {
        return getName();
    }

    @Override
    public DestinationKind kind() {
        return DestinationKind.TEMPORARY_QUEUE;
    }
}
