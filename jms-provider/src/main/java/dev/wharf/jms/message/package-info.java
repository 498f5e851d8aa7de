/**
 * Jakarta Messaging message implementations and their wire form.
 *
 * <p>{@link dev.wharf.jms.message.WharfMessage} and its five body types implement the message model of the
 * specification (headers, typed properties with the 3.5.4 conversion table, read-only and write-only modes and
 * the exceptions the specification names). {@link dev.wharf.jms.message.JmsMessageCodec} converts between these
 * messages (or any provider's messages) and the broker's {@code dev.wharf.common.message.Message}; its class
 * comment is the reference for the wire mapping that the broker's selector evaluation relies on.
 */
package dev.wharf.jms.message;
