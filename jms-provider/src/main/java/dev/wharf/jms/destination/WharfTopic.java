package dev.wharf.jms.destination;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.Topic;
import java.io.Serial;

/** A topic: broker topic of the same name; each subscription is its own consumer group. */
public class WharfTopic extends WharfDestination implements Topic {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * @throws IllegalArgumentException with a sentence naming the problem when the name is not valid
     */
    public WharfTopic(String name) {
        super(name, DestinationKind.TOPIC);
    }

    /** Like the constructor, but reports a bad name as the {@link InvalidDestinationException} JMS expects. */
    public static WharfTopic of(String name) throws InvalidDestinationException {
        check(DestinationKind.TOPIC, name);
        return new WharfTopic(name);
    }

    @Override
    public String getTopicName() {
        return getName();
    }

    @Override
    public DestinationKind kind() {
        return DestinationKind.TOPIC;
    }
}
