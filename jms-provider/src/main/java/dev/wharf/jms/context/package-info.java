/**
 * The simplified Jakarta Messaging API: {@link dev.wharf.jms.context.WharfJMSContext} (a connection shared by
 * the contexts created from one another, plus one session), {@link dev.wharf.jms.context.WharfJMSProducer} and
 * {@link dev.wharf.jms.context.WharfJMSConsumer}. They delegate to the classic objects of
 * {@code dev.wharf.jms.core} and rethrow every {@link jakarta.jms.JMSException} as its unchecked twin.
 */
package dev.wharf.jms.context;
