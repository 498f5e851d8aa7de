package dev.wharf.jms.destination;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.Queue;
import java.io.Serial;

/**
 * A queue: broker topic of the same name, consumed by one consumer group shared by all its consumers.
 * The dead-letter queue of a group is the queue named {@code %DLQ%group}.
 */
public class WharfQueue extends WharfDestination implements Queue {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * @throws IllegalArgumentException with a sentence naming the problem when the name is not valid
     */
    public WharfQueue(String name) {
        super(name, DestinationKind.QUEUE);
    }

    /** Like the constructor, but reports a bad name as the {@link InvalidDestinationException} JMS expects. */
    public static WharfQueue of(String name) throws InvalidDestinationException {
        check(DestinationKind.QUEUE, name);
        return new WharfQueue(name);
    }

    @Override
    public String getQueueName() {
        return getName();
    }

    @Override
    public DestinationKind kind() {
        return DestinationKind.QUEUE;
    }
}
