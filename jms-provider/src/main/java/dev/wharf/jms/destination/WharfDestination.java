package dev.wharf.jms.destination;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import javax.naming.Reference;
import javax.naming.Referenceable;
import javax.naming.StringRefAddr;

/**
 * A destination: a broker topic name and a {@link DestinationKind}. Immutable apart from the deletion state of
 * temporary destinations; equal when class and name are equal. Serializable and {@link Referenceable} so that it
 * can be bound in any JNDI tree (the reference is resolved by {@code dev.wharf.jms.jndi.WharfObjectFactory}).
 */
public abstract class WharfDestination implements Destination, Serializable, Referenceable {

    @Serial
    private static final long serialVersionUID = 1L;

    /** Name of the JNDI reference address holding the destination name. */
    public static final String REFERENCE_NAME = "name";
    /** Class name of the JNDI object factory that turns references back into objects. */
    public static final String OBJECT_FACTORY = "dev.wharf.jms.jndi.WharfObjectFactory";

    private final String name;

    WharfDestination(String name, DestinationKind kind) {
        String problem = problem(kind, name);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        this.name = name;
    }

    /** The broker topic name. */
    public String getName() {
        return name;
    }

    public abstract DestinationKind kind();

    /** The URI this destination travels under in message properties, e.g. {@code queue://orders}. */
    public String toUri() {
        return kind().scheme() + "://" + name;
    }

    /**
     * Checks a name for a destination of the given kind.
     *
     * @throws InvalidDestinationException with a sentence naming the problem
     */
    public static void check(DestinationKind kind, String name) throws InvalidDestinationException {
        String problem = problem(kind, name);
        if (problem != null) {
            throw new InvalidDestinationException(problem);
        }
    }

    /** The reason {@code name} cannot name a destination of {@code kind}, or null when it can. */
    static String problem(DestinationKind kind, String name) {
        String label = capitalized(kind.label());
        if (name == null) {
            return label + " name is null; give a name of 1 to " + TopicValidator.MAX_TOPIC_LENGTH
                    + " characters from [A-Za-z0-9_%|.-].";
        }
        String error = TopicValidator.check(name);
        if (error != null) {
            return label + " \"" + name + "\" cannot be used: " + error;
        }
        if (SystemTopics.isInternal(name)) {
            return label + " \"" + name + "\" is an internal topic of the broker; choose another name.";
        }
        return null;
    }

    private static String capitalized(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    @Override
    public Reference getReference() {
        Reference ref = new Reference(getClass().getName(), OBJECT_FACTORY, null);
        ref.add(new StringRefAddr(REFERENCE_NAME, name));
        return ref;
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        String problem = problem(kind(), name);
        if (problem != null) {
            throw new InvalidObjectException(problem);
        }
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o != null && o.getClass() == getClass() && name.equals(((WharfDestination) o).name));
    }

    @Override
    public int hashCode() {
        return getClass().hashCode() * 31 + name.hashCode();
    }

    /** The URI form, e.g. {@code queue://orders}. */
    @Override
    public String toString() {
        return toUri();
    }
}
