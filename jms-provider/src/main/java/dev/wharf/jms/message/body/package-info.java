/**
 * The typed binary encoding of {@code MapMessage} and {@code StreamMessage} bodies: the layout in
 * {@link dev.wharf.jms.message.body.TypedBodyDescriptor}, written by
 * {@link dev.wharf.jms.message.body.TypedValueWriter} and read by {@link dev.wharf.jms.message.body.TypedValueReader}.
 * Pure JDK; values are the Java types a map or stream body may hold.
 */
package dev.wharf.jms.message.body;
