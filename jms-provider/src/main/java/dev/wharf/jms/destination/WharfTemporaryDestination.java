package dev.wharf.jms.destination;

import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import java.io.Serial;

/**
 * What temporary queues and topics share: the deleter of the connection that created them. A copy that reached
 * another process (in a message's {@code JMSReplyTo}, or serialized) has no deleter: it can be sent to, but only
 * the creating connection can delete it. Deleting twice is harmless.
 */
public abstract class WharfTemporaryDestination extends WharfDestination {

    @Serial
    private static final long serialVersionUID = 1L;

    private final transient TemporaryDestinationDeleter deleter;
    private transient volatile boolean deleted;

    WharfTemporaryDestination(String name, DestinationKind kind, TemporaryDestinationDeleter deleter) {
        super(name, kind);
        this.deleter = deleter;
    }

    /**
     * Deletes the destination through the creating connection.
     *
     * @throws IllegalStateException when this object was not created by a connection of this process
     * @throws JMSException          when the connection refuses, e.g. because consumers still use it
     */
    public void delete() throws JMSException {
        if (deleted) {
            return;
        }
        if (deleter == null) {
            throw new IllegalStateException("The " + kind().label() + " \"" + getName()
                    + "\" was not created by a connection of this process; only the connection that created it"
                    + " can delete it.");
        }
        deleter.delete(this);
        deleted = true;
    }

    /** Whether {@link #delete()} succeeded on this object. */
    public boolean isDeleted() {
        return deleted;
    }

    /**
     * Whether this object was created with {@code deleter}; the creating connection passes itself (or its
     * deleter) to decide whether it may consume from the destination.
     */
    public boolean isCreatedBy(TemporaryDestinationDeleter candidate) {
        return deleter != null && deleter == candidate;
    }
}
