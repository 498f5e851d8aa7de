package dev.wharf.jms.message;

import jakarta.jms.JMSException;

/**
 * What {@link jakarta.jms.Message#acknowledge()} does for a received message: the consuming session supplies
 * it. In CLIENT_ACKNOWLEDGE mode it acknowledges every message the session has consumed so far; in the other
 * modes it does nothing (Jakarta Messaging 3.1, "Message acknowledgment"). It throws
 * {@link jakarta.jms.IllegalStateException} when the session is closed. A message that was never received has
 * no acknowledger and acknowledges as a no-op.
 */
@FunctionalInterface
public interface MessageAcknowledger {

    void acknowledge(WharfMessage message) throws JMSException;
}
