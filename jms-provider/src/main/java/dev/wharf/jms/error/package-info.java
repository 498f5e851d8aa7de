/**
 * Failure translation for the provider: turns low-level failures and broker answers into the
 * {@code JMSException} subclass the Jakarta Messaging specification names, with the cause attached and a
 * sentence that tells the user what to do, and turns checked exceptions into their unchecked
 * {@code JMSRuntimeException} twins for the simplified API ({@code JMSContext}).
 */
package dev.wharf.jms.error;
