package dev.wharf.jms.destination;

import jakarta.jms.TemporaryTopic;
import java.io.Serial;

/** A topic that lives as long as the connection that created it. */
public class WharfTemporaryTopic extends WharfTemporaryDestination implements TemporaryTopic {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * @param deleter the creating connection's deleter, or null for a copy received from elsewhere
     * @throws IllegalArgumentException with a sentence naming the problem when the name is not valid
     */
    public WharfTemporaryTopic(String name, TemporaryDestinationDeleter deleter) {
        super(name, DestinationKind.TEMPORARY_TOPIC, deleter);
    }

    @Override
    public String getTopicName() {
        return getName();
    }

    @Override
    public DestinationKind kind() {
        return DestinationKind.TEMPORARY_TOPIC;
    }
}
