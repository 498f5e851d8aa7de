package dev.wharf.spring.boot.it;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;

/** Listeners that record what they receive; the one on {@code always-fails} throws every time. */
@Component
public class ShopListeners {

    /** One delivery: where, what, whether redelivered, when. */
    public record Delivery(String queue, String body, boolean redelivered, long at) {
    }

    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

    @JmsListener(destination = "orders")
    void onOrder(Message message) throws JMSException {
        record("orders", message);
    }

    @JmsListener(destination = "always-fails")
    void onFailing(Message message) throws JMSException {
        record("always-fails", message);
        throw new IllegalStateException("this listener always fails");
    }

    @JmsListener(destination = "%DLQ%always-fails")
    void onDeadLetter(Message message) throws JMSException {
        record("%DLQ%always-fails", message);
    }

    @JmsListener(destination = "later")
    void onLater(Message message) throws JMSException {
        record("later", message);
    }

    private void record(String queue, Message message) throws JMSException {
        deliveries.add(new Delivery(queue, ((TextMessage) message).getText(), message.getJMSRedelivered(),
                System.currentTimeMillis()));
    }

    public List<Delivery> on(String queue) {
        return deliveries.stream().filter(d -> d.queue().equals(queue)).toList();
    }

    public List<String> bodies(String queue) {
        return on(queue).stream().map(Delivery::body).toList();
    }
}
