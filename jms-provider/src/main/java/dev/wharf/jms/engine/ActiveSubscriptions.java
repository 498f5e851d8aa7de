package dev.wharf.jms.engine;

import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The topic subscriptions that have open consumers in this JVM, so that the rules of Jakarta Messaging 3.1, 8.3
 * can be enforced: an unshared durable subscription has one consumer at a time; a shared one is joined only with
 * the same topic and selector; a subscription with consumers is not unsubscribed. The broker keeps no record of
 * JMS consumers, so consumers in other JVMs are not seen (documented as a limit). Thread-safe.
 */
public final class ActiveSubscriptions {

    /** What an open subscription was created with. */
    public record Terms(String topic, String selector, boolean noLocal) {
    }

    private record Entry(Terms terms, boolean shared, int consumers) {
    }

    private static final Map<String, Entry> ACTIVE = new HashMap<>();

    private ActiveSubscriptions() {
    }

    /**
     * Registers a consumer on a subscription group.
     *
     * @param description names the subscription in errors ("durable subscription \"s\" of client id c")
     * @throws JMSException when an unshared subscription already has a consumer, or a shared one has consumers
     *                      with other terms
     */
    public static synchronized void open(String group, Terms terms, boolean shared, String description)
            throws JMSException {
        Entry e = ACTIVE.get(group);
        if (e == null) {
            ACTIVE.put(group, new Entry(terms, shared, 1));
            return;
        }
        if (!shared || !e.shared()) {
            throw new IllegalStateException("The " + description + " already has an active consumer; an unshared"
                    + " durable subscription has one consumer at a time. Close that consumer first, or use a shared"
                    + " durable subscription.");
        }
        if (!Objects.equals(e.terms(), terms)) {
            throw new JMSException("The " + description + " has active consumers on " + e.terms().topic()
                    + (e.terms().selector() == null ? "" : " with selector \"" + e.terms().selector() + "\"")
                    + "; a consumer with another topic or selector can join only once they are closed.");
        }
        ACTIVE.put(group, new Entry(e.terms(), true, e.consumers() + 1));
    }

    /** Unregisters a consumer. */
    public static synchronized void close(String group) {
        Entry e = ACTIVE.get(group);
        if (e == null) {
            return;
        }
        if (e.consumers() <= 1) {
            ACTIVE.remove(group);
        } else {
            ACTIVE.put(group, new Entry(e.terms(), e.shared(), e.consumers() - 1));
        }
    }

    /** Whether the group has open consumers in this JVM. */
    public static synchronized boolean isActive(String group) {
        return ACTIVE.containsKey(group);
    }
}
