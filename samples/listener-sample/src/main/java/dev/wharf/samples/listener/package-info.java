/**
 * The listener sample: {@code @JmsListener} consumers of each kind on Wharf ({@link
 * dev.wharf.samples.listener.SampleListeners}): a queue, a queue with a message selector, a durable topic
 * subscription, a shared topic subscription with three consumers, and the dead-letter queue of a listener that
 * fails. {@link dev.wharf.samples.listener.ListenerSampleApplication} sends to each, waits until each got what it
 * should and prints what it got.
 */
package dev.wharf.samples.listener;
