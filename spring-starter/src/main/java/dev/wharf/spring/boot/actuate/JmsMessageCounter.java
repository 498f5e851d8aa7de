package dev.wharf.spring.boot.actuate;

import io.micrometer.common.KeyValue;
import io.micrometer.jakarta9.instrument.jms.JmsProcessObservationContext;
import io.micrometer.jakarta9.instrument.jms.JmsPublishObservationContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the messages Spring's JMS support observes, and those WharfTemplate and {@code @MessageListener} methods
 * observe alike: sent by JmsTemplate (or WharfTemplate), handed to listeners, and handed to a listener again
 * (JMSRedelivered, or a reconsumed message, after a listener failure or a rollback). Listener failures themselves are not
 * counted: Spring's listener observation does not carry them (the container handles the exception itself), but each
 * shows up as a redelivery, and the last as a dead letter. Spring Framework observes every JmsTemplate send and
 * listener call once an ObservationRegistry is configured (Boot does so with Actuator); this handler only adds up
 * what those observations carry. Thread-safe.
 */
public final class JmsMessageCounter implements ObservationHandler<Observation.Context> {

    private final LongAdder sent = new LongAdder();
    private final LongAdder received = new LongAdder();
    private final LongAdder redelivered = new LongAdder();

    /** WharfTemplate's send observation (counted as sent, like JmsTemplate's). */
    static final String WHARF_PUBLISH = "wharf.message.publish";
    /** A {@code @MessageListener} call's observation (counted as received, like a JMS listener's). */
    static final String WHARF_PROCESS = "wharf.message.process";

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof JmsPublishObservationContext || context instanceof JmsProcessObservationContext
                || WHARF_PUBLISH.equals(context.getName()) || WHARF_PROCESS.equals(context.getName());
    }

    @Override
    public void onStop(Observation.Context context) {
        if (WHARF_PUBLISH.equals(context.getName())) {
            if (context.getError() == null) {
                sent.increment();
            }
            return;
        }
        if (WHARF_PROCESS.equals(context.getName())) {
            received.increment();
            KeyValue again = context.getLowCardinalityKeyValue("wharf.redelivered");
            if (again != null && "true".equals(again.getValue())) {
                redelivered.increment();
            }
            return;
        }
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
