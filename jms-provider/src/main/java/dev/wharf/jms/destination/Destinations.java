package dev.wharf.jms.destination;

import dev.wharf.common.message.UniqueIdGenerator;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;

/** Conversions between destinations, foreign destinations and their URI form. */
public final class Destinations {

    private static final String SEPARATOR = "://";

    private Destinations() {
    }

    /**
     * Parses a destination URI ({@code queue://name}, {@code topic://name}, {@code temp-queue://name},
     * {@code temp-topic://name}). Temporary destinations come back without a deleter.
     *
     * @throws InvalidDestinationException when the URI has an unknown scheme or an invalid name
     */
    public static WharfDestination fromUri(String uri) throws InvalidDestinationException {
        int at = uri == null ? -1 : uri.indexOf(SEPARATOR);
        DestinationKind kind = at < 0 ? null : DestinationKind.ofScheme(uri.substring(0, at));
        if (kind == null) {
            throw new InvalidDestinationException("\"" + uri + "\" is not a destination URI; write queue://name,"
                    + " topic://name, temp-queue://name or temp-topic://name.");
        }
        String name = uri.substring(at + SEPARATOR.length());
        WharfDestination.check(kind, name);
        return create(kind, name);
    }

    /** A destination of {@code kind}; temporary ones without a deleter. The name must be valid. */
    public static WharfDestination create(DestinationKind kind, String name) {
        return switch (kind) {
            case QUEUE -> new WharfQueue(name);
            case TOPIC -> new WharfTopic(name);
            case TEMPORARY_QUEUE -> new WharfTemporaryQueue(name, null);
            case TEMPORARY_TOPIC -> new WharfTemporaryTopic(name, null);
        };
    }

    /**
     * Turns any provider's destination into a Wharf destination by its queue or topic name. Wharf destinations
     * are returned as they are; {@code null} stays {@code null}.
     *
     * @throws InvalidDestinationException when the destination is neither a queue nor a topic, or its name is
     *                                     not a valid Wharf name
     * @throws JMSException                when the foreign destination cannot tell its name
     */
    public static WharfDestination toWharf(Destination destination) throws JMSException {
        if (destination == null || destination instanceof WharfDestination) {
            return (WharfDestination) destination;
        }
        DestinationKind kind;
        String name;
        // Temporary interfaces extend Queue/Topic, so they are tested first.
        if (destination instanceof TemporaryQueue q) {
            kind = DestinationKind.TEMPORARY_QUEUE;
            name = q.getQueueName();
        } else if (destination instanceof TemporaryTopic t) {
            kind = DestinationKind.TEMPORARY_TOPIC;
            name = t.getTopicName();
        } else if (destination instanceof Queue q) {
            kind = DestinationKind.QUEUE;
            name = q.getQueueName();
        } else if (destination instanceof Topic t) {
            kind = DestinationKind.TOPIC;
            name = t.getTopicName();
        } else {
            throw new InvalidDestinationException("The destination " + destination + " ("
                    + destination.getClass().getName() + ") is neither a Queue nor a Topic; use a queue or topic.");
        }
        WharfDestination.check(kind, name);
        return create(kind, name);
    }

    /** The URI of any destination, or null for null. */
    public static String toUri(Destination destination) throws JMSException {
        WharfDestination d = toWharf(destination);
        return d == null ? null : d.toUri();
    }

    /** A fresh, unique name for a temporary destination. */
    public static String newTemporaryName() {
        return "TMP_" + UniqueIdGenerator.next();
    }
}
