package dev.wharf.jms.core;

import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.filter.SelectorParser;
import dev.wharf.jms.destination.WharfDestination;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import jakarta.jms.InvalidSelectorException;

/**
 * What a consumer reads: the destination, the broker topic and consumer group (see
 * {@code dev.wharf.jms.engine.SubscriptionNames}), the selector, where a new group starts, whether messages the
 * selector does not match are finished for the group (topic subscriptions) or stay for other consumers (queues),
 * and the kind of subscription.
 */
record ConsumerSpec(WharfDestination destination, String group, String subscription, String selectorText,
                    MessageSelector selector, InitMode initMode, boolean skipUnmatched, boolean noLocal, Kind kind) {

    /** The kinds of consumers of Jakarta Messaging 3.1, 8.3 ("Topic subscriptions") and queues. */
    enum Kind {
        QUEUE(false, false),
        SUBSCRIBER(false, false),
        DURABLE(true, false),
        SHARED_DURABLE(true, true),
        SHARED(false, true);

        final boolean durable;
        final boolean shared;

        Kind(boolean durable, boolean shared) {
            this.durable = durable;
            this.shared = shared;
        }
    }

    String topic() {
        return destination.getName();
    }

    /** A queue: its own group, from the first stored message, unmatched messages stay for other consumers. */
    static ConsumerSpec queue(WharfDestination queue, String selectorText) throws InvalidSelectorException {
        return new ConsumerSpec(queue, queue.getName(), queue.getName(), normalize(selectorText), selector(selectorText),
                InitMode.EARLIEST, false, false, Kind.QUEUE);
    }

    /**
     * A topic subscription: from now on, unmatched messages finished for the group at once.
     *
     * @param subscription names the subscription whatever its terms (one consumer of an unshared durable
     *                     subscription at a time is counted by it); the group for a private subscriber
     */
    static ConsumerSpec subscription(WharfDestination topic, String group, String subscription, String selectorText,
                                     boolean noLocal, Kind kind) throws InvalidSelectorException {
        return new ConsumerSpec(topic, group, subscription, normalize(selectorText), selector(selectorText),
                InitMode.LATEST,
                true, noLocal, kind);
    }

    /** null for "no selector" (null, empty or blank), else the text. */
    static String normalize(String selectorText) {
        return selectorText == null || selectorText.isBlank() ? null : selectorText;
    }

    /**
     * Checks a selector with the same parser the broker uses and makes the client's form of it; null for none.
     *
     * @throws InvalidSelectorException naming the column and what was wrong
     */
    static MessageSelector selector(String selectorText) throws InvalidSelectorException {
        String text = normalize(selectorText);
        if (text == null) {
            return null;
        }
        try {
            SelectorParser.parse(text);
            return MessageSelector.bySql(text);
        } catch (IllegalArgumentException e) {
            InvalidSelectorException jms = new InvalidSelectorException(e.getMessage()
                    + "; fix the message selector (SQL92 conditions over headers and properties).");
            jms.initCause(e);
            jms.setLinkedException(e);
            throw jms;
        }
    }
}
