package dev.wharf.jms.core;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

/**
 * The send settings of one producer (a {@code MessageProducer} or a {@code JMSProducer}): delivery mode,
 * priority, time to live, delivery delay, and whether message ids and timestamps are skipped. Each setter checks
 * its value against Jakarta Messaging 3.1 (delivery modes 4.7, priorities 0 to 9 in 3.4.10) and says what a valid
 * value is. Not thread-safe, like the producer it belongs to.
 */
public final class ProducerSettings {

    private int deliveryMode = Message.DEFAULT_DELIVERY_MODE;
    private int priority = Message.DEFAULT_PRIORITY;
    private long timeToLive = Message.DEFAULT_TIME_TO_LIVE;
    private long deliveryDelay = Message.DEFAULT_DELIVERY_DELAY;
    private boolean disableMessageId;
    private boolean disableTimestamp;

    public int deliveryMode() {
        return deliveryMode;
    }

    public void deliveryMode(int mode) throws JMSException {
        checkDeliveryMode(mode);
        this.deliveryMode = mode;
    }

    public int priority() {
        return priority;
    }

    public void priority(int value) throws JMSException {
        checkPriority(value);
        this.priority = value;
    }

    public long timeToLive() {
        return timeToLive;
    }

    public void timeToLive(long millis) throws JMSException {
        checkTimeToLive(millis);
        this.timeToLive = millis;
    }

    public long deliveryDelay() {
        return deliveryDelay;
    }

    public void deliveryDelay(long millis) throws JMSException {
        if (millis < 0) {
            throw new JMSException("The delivery delay is " + millis + " ms; give 0 (deliver at once) or a positive"
                    + " number of milliseconds.");
        }
        this.deliveryDelay = millis;
    }

    public boolean disableMessageId() {
        return disableMessageId;
    }

    public void disableMessageId(boolean value) {
        this.disableMessageId = value;
    }

    public boolean disableTimestamp() {
        return disableTimestamp;
    }

    public void disableTimestamp(boolean value) {
        this.disableTimestamp = value;
    }

    static void checkDeliveryMode(int mode) throws JMSException {
        if (mode != DeliveryMode.PERSISTENT && mode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("Delivery mode " + mode + " is not valid; use DeliveryMode.PERSISTENT (2) or"
                    + " DeliveryMode.NON_PERSISTENT (1).");
        }
    }

    static void checkPriority(int priority) throws JMSException {
        if (priority < 0 || priority > 9) {
            throw new JMSException("Priority " + priority + " is not valid; use 0 (lowest) to 9 (highest), 4 being"
                    + " normal.");
        }
    }

    static void checkTimeToLive(long millis) throws JMSException {
        if (millis < 0) {
            throw new JMSException("The time to live is " + millis + " ms; give 0 (never expires) or a positive"
                    + " number of milliseconds.");
        }
    }
}
