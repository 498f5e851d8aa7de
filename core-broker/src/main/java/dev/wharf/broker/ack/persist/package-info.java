/**
 * Persistence of acknowledgement state: the ack log (compact binary records, one per request and queue, stored
 * as messages of an internal topic) and the JSON snapshot that replay starts from. Knows nothing of the live
 * state; {@code dev.wharf.broker.ack} applies what is read here.
 */
package dev.wharf.broker.ack.persist;
