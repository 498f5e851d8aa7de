package dev.wharf.jms.core;

import dev.wharf.client.ClientException;
import dev.wharf.client.ack.AckConsumer;
import dev.wharf.client.ack.PoppedMessage;
import dev.wharf.jms.destination.DestinationKind;
import dev.wharf.jms.destination.Destinations;
import dev.wharf.jms.destination.WharfDestination;
import dev.wharf.jms.destination.WharfTemporaryDestination;
import dev.wharf.jms.engine.ActiveSubscriptions;
import dev.wharf.jms.engine.BrokerLink;
import dev.wharf.jms.engine.SubscriptionNames;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a session's consumers map onto broker subscriptions (the ARCHITECTURE "JMS mapping", Jakarta Messaging
 * 3.1, 8.3): a queue consumer joins the queue's group; a topic consumer gets a private group anchored at the
 * topic's end and deleted when it closes; named subscriptions (durable, shared, shared durable) get groups derived
 * from the client id and the name ({@link SubscriptionNames}), whose rules are enforced here: one consumer at a
 * time on an unshared durable subscription, the same topic and selector to join a shared one, a client id for an
 * unshared durable one, no shared and unshared durable subscription of the same name, and unsubscribe only without
 * open consumers or pending messages. A durable subscription named again with another topic starts over on it.
 * A new selector or noLocal value for an existing durable subscription applies from then on; the broker keeps no
 * record of a subscription's terms, so its unconsumed messages are not discarded as the specification's "delete
 * and re-create" would (a documented difference).
 */
final class SessionSubscriptions {

    private static final Logger LOG = LoggerFactory.getLogger(SessionSubscriptions.class);

    private final WharfSession session;
    private final WharfConnection connection;

    SessionSubscriptions(WharfSession session, WharfConnection connection) {
        this.session = session;
        this.connection = connection;
    }

    private BrokerLink link() {
        return connection.link();
    }

    /**
     * A consumer of a queue (the queue's group: each message to one consumer) or a topic (a private subscription
     * that starts now and ends when the consumer closes; {@code noLocal} skips the connection's own messages).
     */
    WharfMessageConsumer consumer(Destination destination, String messageSelector, boolean noLocal)
            throws JMSException {
        WharfDestination d = consumable(destination);
        if (d.kind().isQueue()) {
            return open(ConsumerSpec.queue(d, messageSelector));
        }
        String privateGroup = SubscriptionNames.privateGroup();
        ConsumerSpec spec = ConsumerSpec.subscription(d, privateGroup, privateGroup, messageSelector, noLocal,
                ConsumerSpec.Kind.SUBSCRIBER);
        link().anchorGroup(spec.group(), spec.topic());
        return open(spec);
    }

    /**
     * A consumer on a named subscription (8.3). An unshared durable subscription needs the client id and has one
     * consumer at a time; a shared one is joined with the same topic and selector. A durable subscription named
     * again with another topic, selector or noLocal flag starts over (the old one is deleted, 8.3.2); its state on
     * the broker survives disconnects and restarts until {@link #unsubscribe}.
     */
    WharfMessageConsumer subscribe(Topic topic, String name, String messageSelector, boolean noLocal,
                                           ConsumerSpec.Kind kind) throws JMSException {
        WharfDestination d = consumable(topic);
        if (d.kind() != DestinationKind.TOPIC) {
            throw new InvalidDestinationException("A " + (kind.durable ? "durable" : "shared") + " subscription needs"
                    + " a topic that is not temporary; " + d + " is a " + d.kind().label() + ".");
        }
        if (name == null || name.isEmpty()) {
            throw new InvalidDestinationException("The subscription name is " + (name == null ? "null" : "empty")
                    + "; give the subscription a name.");
        }
        String clientId = connection.clientIdOrNull();
        String base;
        String description;
        String other = null;
        switch (kind) {
            case DURABLE -> {
                if (clientId == null) {
                    throw new IllegalStateException("The durable subscription \"" + name + "\" needs a client id;"
                            + " set one on the connection (or the factory) first, or use a shared durable"
                            + " subscription.");
                }
                base = SubscriptionNames.durable(clientId, name);
                other = SubscriptionNames.sharedDurable(clientId, name);
                description = "durable subscription \"" + name + "\" of client id " + clientId;
            }
            case SHARED_DURABLE -> {
                base = SubscriptionNames.sharedDurable(clientId, name);
                other = clientId == null ? null : SubscriptionNames.durable(clientId, name);
                description = "shared durable subscription \"" + name + "\"";
            }
            default -> {
                base = SubscriptionNames.shared(clientId, name);
                description = "shared subscription \"" + name + "\"";
            }
        }
        String selectorText = ConsumerSpec.normalize(messageSelector);
        String group = kind.durable ? SubscriptionNames.withTerms(base, d.getName(), selectorText, noLocal) : base;
        ConsumerSpec spec = ConsumerSpec.subscription(d, group, base, messageSelector, noLocal, kind);
        ActiveSubscriptions.open(base, new ActiveSubscriptions.Terms(d.getName(), spec.selectorText(), noLocal),
                kind.shared, description);
        try {
            if (other != null && (ActiveSubscriptions.isActive(other)
                    || !link().groupsWithPrefix(SubscriptionNames.termsPrefix(other)).isEmpty())) {
                throw new JMSException("A " + (kind.shared ? "durable" : "shared durable") + " subscription with"
                        + " the name \"" + name + "\"" + (clientId == null ? "" : " and client id " + clientId)
                        + " exists; shared and unshared durable subscriptions cannot share a name. Unsubscribe it"
                        + " or choose another name.");
            }
            if (kind.durable) {
                // the same subscription with another topic, selector or noLocal starts over (8.3.2): its other
                // groups, and this group's state on other topics, are deleted
                Map<String, Map<String, Set<String>>> existing =
                        link().groupsWithPrefix(SubscriptionNames.termsPrefix(base));
                for (Map.Entry<String, Map<String, Set<String>>> e : existing.entrySet()) {
                    if (e.getKey().equals(group)) {
                        e.getValue().values().forEach(topics -> topics.remove(d.getName()));
                    }
                    link().deleteGroupState(e.getKey(), e.getValue());
                }
            }
            link().anchorGroup(group, d.getName());
            return open(spec);
        } catch (JMSException | RuntimeException e) {
            ActiveSubscriptions.close(base);
            throw e;
        }
    }


    /**
     * Deletes a durable subscription (8.3.4): the one of the connection's client id with that name, or the shared
     * durable one with that name.
     *
     * @param acks the session's pending acknowledgements (messages of the subscription must not wait there)
     * @throws IllegalStateException       when the subscription has an open consumer in this JVM, or messages of
     *                                     it wait for acknowledgement in the session
     * @throws InvalidDestinationException when no durable subscription has that name
     */
    void unsubscribe(String name, SessionAcks acks) throws JMSException {
        if (name == null || name.isEmpty()) {
            throw new InvalidDestinationException("The subscription name is " + (name == null ? "null" : "empty")
                    + "; give the name of the durable subscription to delete.");
        }
        String clientId = connection.clientIdOrNull();
        List<String> bases = new ArrayList<>();
        if (clientId != null) {
            bases.add(SubscriptionNames.durable(clientId, name));
        }
        bases.add(SubscriptionNames.sharedDurable(clientId, name));
        for (String base : bases) {
            if (ActiveSubscriptions.isActive(base)) {
                throw new IllegalStateException("The durable subscription \"" + name + "\" has an active consumer;"
                        + " close it before unsubscribing.");
            }
            if (acks.holds(SubscriptionNames.termsPrefix(base))) {
                throw new IllegalStateException("Messages of the durable subscription \"" + name + "\" wait for"
                        + " acknowledgement or commit in this session; finish them before unsubscribing.");
            }
        }
        boolean found = false;
        for (String base : bases) {
            for (Map.Entry<String, Map<String, Set<String>>> e
                    : link().groupsWithPrefix(SubscriptionNames.termsPrefix(base)).entrySet()) {
                link().deleteGroupState(e.getKey(), e.getValue());
                found = true;
            }
        }
        if (!found) {
            throw new InvalidDestinationException("There is no durable subscription named \"" + name + "\""
                    + (clientId == null ? " without a client id" : " for client id " + clientId) + "; check the"
                    + " name and the client id.");
        }
    }

    private WharfMessageConsumer open(ConsumerSpec spec) throws JMSException {
        int prefetch = Math.min(AckConsumer.MAX_POP_NUMS, link().options().getPullBatchSize());
        WharfMessageConsumer c = new WharfMessageConsumer(session, spec, link().ackConsumer(spec.group()), prefetch);
        session.consumerOpened(c);
        return c;
    }

    /**
     * The destination a consumer may read.
     *
     * @throws InvalidDestinationException for null, a deleted temporary destination, or a temporary destination
     *                                     another connection created
     */
    WharfDestination consumable(Destination destination) throws JMSException {
        if (destination == null) {
            throw new InvalidDestinationException("The destination is null; give the queue or topic to consume from.");
        }
        WharfDestination d = Destinations.toWharf(destination);
        if (d instanceof WharfTemporaryDestination t) {
            if (!connection.created(t)) {
                throw new InvalidDestinationException("The " + t.kind().label() + " " + t.getName() + " was created"
                        + " by another connection; only the connection that created a temporary destination may"
                        + " consume from it.");
            }
            if (t.isDeleted()) {
                throw new InvalidDestinationException("The " + t.kind().label() + " " + t.getName() + " was"
                        + " deleted; create a new one.");
            }
        }
        return d;
    }

    /**
     * Closes a consumer (from {@link WharfMessageConsumer#close()}): waits for its running listener unless that
     * listener is the caller, gives its buffer back, and ends a non-durable subscription.
     */
    void closeConsumer(WharfMessageConsumer consumer) throws JMSException {
        List<PoppedMessage> buffered = session.consumerClosing(consumer);
        if (buffered == null) {
            return;
        }
        SessionAcks.release(consumer.group(), buffered, 0, false);
        endSubscription(consumer);
    }

    /** After a consumer closed: a private subscription is deleted, a named one loses a consumer. */
    void endSubscription(WharfMessageConsumer consumer) {
        ConsumerSpec spec = consumer.spec();
        switch (spec.kind()) {
            case SUBSCRIBER -> deleteState(spec);
            case SHARED -> {
                ActiveSubscriptions.close(spec.subscription());
                if (!ActiveSubscriptions.isActive(spec.subscription())) {
                    deleteState(spec);
                }
            }
            case DURABLE, SHARED_DURABLE -> ActiveSubscriptions.close(spec.subscription());
            default -> {
            }
        }
    }

    private void deleteState(ConsumerSpec spec) {
        try {
            link().ackConsumer(spec.group()).deleteGroup(spec.topic());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (JMSException | ClientException | RuntimeException e) {
            LOG.debug("Could not delete the state of subscription group {}: {}", spec.group(), e.toString());
        } finally {
            link().dropGroup(spec.group());
        }
    }
}
