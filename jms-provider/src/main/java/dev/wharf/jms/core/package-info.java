/**
 * The classic Jakarta Messaging API on Wharf: {@link dev.wharf.jms.core.WharfConnection},
 * {@link dev.wharf.jms.core.WharfSession}, producers, consumers and browsers, one class per JMS interface, each
 * method starting with a closed-state check. The work below them (client, probes, queue choice) is in
 * {@code dev.wharf.jms.engine}; the simplified API ({@code JMSContext}) in {@code dev.wharf.jms.context} is
 * built on these classes.
 */
package dev.wharf.jms.core;
