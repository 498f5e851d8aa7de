package dev.wharf.samples.listener;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;

/** One {@code @JmsListener} of each kind; each records what it receives in {@link Deliveries}. */
@Component
public class SampleListeners {

    static final String TASKS = "tasks";
    static final String TASKS_DEAD_LETTERS = "%DLQ%tasks";
    static final String ALERTS = "alerts";
    static final String HIGH_SEVERITY = "severity = 'HIGH'";
    static final String PRICES = "prices";
    static final String PRICE_ARCHIVE = "price-archive";
    static final String ORDER_EVENTS = "order-events";
    static final String AUDIT = "audit";
    static final int AUDIT_CONSUMERS = 3;

    private static final Logger log = LoggerFactory.getLogger(SampleListeners.class);

    private final Deliveries deliveries;

    public SampleListeners(Deliveries deliveries) {
        this.deliveries = deliveries;
    }

    /**
     * A queue: each message to one consumer of the queue. A task it cannot do makes it throw; the transacted session
     * rolls back and the broker delivers the task again, up to wharf.max-reconsume-times redeliveries.
     */
    @JmsListener(destination = TASKS)
    public void onTask(TextMessage message) throws JMSException {
        deliveries.record(TASKS, message);
        if (message.getText().startsWith("poison")) {
            log.info("Task \"{}\" failed on delivery {}", message.getText(),
                    message.getIntProperty("JMSXDeliveryCount"));
            throw new IllegalArgumentException("cannot do the task \"" + message.getText() + "\"");
        }
    }

    /** The dead-letter queue of the "tasks" queue: tasks whose listener failed on every delivery. */
    @JmsListener(destination = TASKS_DEAD_LETTERS)
    public void onDeadTask(Message message) throws JMSException {
        deliveries.record(TASKS_DEAD_LETTERS, message);
    }

    /** A message selector: only the queue's HIGH alerts reach this listener (the broker filters them). */
    @JmsListener(destination = ALERTS, selector = HIGH_SEVERITY)
    public void onHighAlert(Message message) throws JMSException {
        deliveries.record(ALERTS, message);
    }

    /**
     * A durable subscription: the broker keeps the topic's messages for it while its listener is away, and hands
     * them over when it comes back.
     */
    @JmsListener(id = PRICE_ARCHIVE, destination = PRICES, subscription = PRICE_ARCHIVE,
            containerFactory = "durableTopicListenerFactory")
    public void onPrice(Message message) throws JMSException {
        deliveries.record(PRICE_ARCHIVE, message);
    }

    /**
     * A shared subscription with three consumers (three sessions of the container): each of the topic's messages
     * goes to one of them. More consumers, in this application or another, join by using the same subscription
     * name.
     */
    @JmsListener(id = AUDIT, destination = ORDER_EVENTS, subscription = AUDIT,
            containerFactory = "sharedTopicListenerFactory", concurrency = "" + AUDIT_CONSUMERS)
    public void onOrderEvent(Message message) throws JMSException {
        deliveries.record(AUDIT, message);
    }
}
