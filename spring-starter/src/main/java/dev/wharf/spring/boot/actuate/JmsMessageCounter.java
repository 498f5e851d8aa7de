package dev.wharf.spring.boot.actuate;

import io.micrometer.jakarta9.instrument.jms.JmsProcessObservationContext;
import io.micrometer.jakarta9.instrument.jms.JmsPublishObservationContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the messages Spring's JMS support observes: sent by JmsTemplate, handed to listeners, and handed to a
 * listener again (JMSRedelivered, after a listener failure or a rollback). Listener failures themselves are not
 * counted: Spring's listener observation does not carry them (the container handles the exception itself), but each
 * shows up as a redelivery, and the last as a dead letter. Spring Framework observes every JmsTemplate send and
 * listener call once an ObservationRegistry is configured (Boot does so with Actuator); this handler only adds up
 * what those observations carry. Thread-safe.
 */
public final class JmsMessageCounter implements ObservationHandler<Observation.Context> {

    private final LongAdder sent = new LongAdder();
    private final LongAdder received = new LongAdder();
    private final LongAdder redelivered = new LongAdder();

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof JmsPublishObservationContext || context instanceof JmsProcessObservationContext;
    }

    @Override
    public void onStop(Observation.Context context) {
        if (context instanceof JmsPublishObservationContext) {
            if (context.getError() == null) {
                sent.increment();
            }
            return;
        }
        if (context instanceof JmsProcessObservationContext process) {
            received.increment();
            if (isRedelivered(process.getCarrier())) {
                redelivered.increment();
            }
        }
    }

    private static boolean isRedelivered(Message message) {
        try {
            return message != null && message.getJMSRedelivered();
        } catch (JMSException e) {
            return false;
        }
    }

    /** Messages JmsTemplate sent without error. */
    public long sent() {
        return sent.sum();
    }

    /** Messages handed to listeners, redeliveries included. */
    public long received() {
        return received.sum();
    }

    /** Deliveries of a message a listener had received before. */
    public long redelivered() {
        return redelivered.sum();
    }
}
