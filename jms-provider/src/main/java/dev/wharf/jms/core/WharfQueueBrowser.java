package dev.wharf.jms.core;

import dev.wharf.client.ClientException;
import dev.wharf.client.ack.AckConsumer;
import dev.wharf.client.ack.PeekCursor;
import dev.wharf.client.ack.PeekResult;
import dev.wharf.client.ack.PeekedMessage;
import dev.wharf.jms.error.JmsErrors;
import dev.wharf.protocol.ResponseCode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import java.util.ArrayDeque;
import java.util.Enumeration;
import java.util.NoSuchElementException;

/**
 * Browses a queue (Jakarta Messaging 3.1, 8.8): the messages still on it for the queue's group (not
 * acknowledged, including those a consumer holds right now; expired ones not), in queue order within each broker
 * queue, without consuming them or changing anything on the broker. Each enumeration is a new browse that reads
 * pages of up to 32 messages as it goes, so it reflects the queue as it is while being read. Browsed messages are
 * read-only, carry their previous deliveries in JMSXDeliveryCount (+1, as if delivered now) and cannot be
 * acknowledged. A browse first waits for the acknowledgements its own session sent, so it does not show
 * messages that session consumed.
 */
public class WharfQueueBrowser implements QueueBrowser {

    private static final int PAGE = AckConsumer.MAX_POP_NUMS;

    private final WharfSession session;
    private final ConsumerSpec spec;
    private final AckConsumer group;
    private volatile boolean closed;

    WharfQueueBrowser(WharfSession session, ConsumerSpec spec, AckConsumer group) {
        this.session = session;
        this.spec = spec;
        this.group = group;
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return (Queue) spec.destination();
    }

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return spec.selectorText();
    }

    /**
     * A new browse from the queue's start; reading its elements throws {@link JMSRuntimeException} (unchecked,
     * as {@link Enumeration} allows nothing else) when the broker cannot be read.
     */
    @Override
    public Enumeration<Message> getEnumeration() throws JMSException {
        checkOpen();
        session.settleAcknowledgements();
        return new Browse();
    }

    @Override
    public void close() throws JMSException {
        closed = true;
        session.browserClosed(this);
    }

    void closeQuietly() {
        closed = true;
    }

    private void checkOpen() throws IllegalStateException {
        if (closed) {
            throw JmsErrors.closed("queue browser");
        }
        session.checkOpen();
    }

    /** One pass over the queue, page by page. */
    private final class Browse implements Enumeration<Message> {

        private final ArrayDeque<PeekedMessage> page = new ArrayDeque<>();
        private PeekCursor cursor;
        private boolean end;

        @Override
        public boolean hasMoreElements() {
            while (page.isEmpty() && !end && !closed && !session.isClosed()) {
                fetch();
            }
            return !page.isEmpty() && !closed;
        }

        @Override
        public Message nextElement() {
            if (!hasMoreElements()) {
                throw new NoSuchElementException("The browse of " + spec.destination() + " has no more messages.");
            }
            PeekedMessage p = page.pollFirst();
            try {
                return session.connection().codec().fromWharf(p.message(), p.previousDeliveries() + 1,
                        spec.destination(), null);
            } catch (JMSException e) {
                throw JmsErrors.toRuntime(e);
            }
        }

        private void fetch() {
            try {
                PeekResult r = group.peek(spec.topic(), spec.selector(), cursor, PAGE);
                page.addAll(r.messages());
                cursor = r.next();
                end = cursor.isEnd();
            } catch (ClientException e) {
                if (e.responseCode() == ResponseCode.TOPIC_NOT_EXIST) {
                    end = true;
                    return;
                }
                throw JmsErrors.toRuntime(JmsErrors.fromClient(e, "browse " + spec.destination()));
            } catch (InterruptedException e) {
                throw JmsErrors.toRuntime(JmsErrors.translate("browse " + spec.destination(), e));
            } catch (RuntimeException e) {
                throw JmsErrors.toRuntime(JmsErrors.translate("browse " + spec.destination(), e));
            }
        }
    }
}
