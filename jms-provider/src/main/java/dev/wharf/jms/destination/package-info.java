/**
 * JMS destinations: {@link dev.wharf.jms.destination.WharfQueue}, {@link dev.wharf.jms.destination.WharfTopic}
 * and their temporary forms. A destination is a validated broker topic name plus its kind; on the wire a
 * destination travels as a URI ({@code queue://name}, {@code topic://name}, {@code temp-queue://name},
 * {@code temp-topic://name}), see {@link dev.wharf.jms.destination.Destinations}.
 */
package dev.wharf.jms.destination;
