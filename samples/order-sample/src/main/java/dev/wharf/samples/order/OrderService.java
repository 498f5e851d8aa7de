package dev.wharf.samples.order;

import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Places orders: the order row and its {@link OrderCreated} message in one database transaction. Spring Boot's
 * JmsTemplate sends through a transacted session bound to that transaction (the Wharf starter makes it so): the
 * message is a half message, invisible until the database has committed, dropped if it rolls back, and settled by
 * the broker's check-back (answered from the database) if the process dies in between.
 */
@Service
public class OrderService {

    private final OrderRepository orders;
    private final JmsTemplate jms;
    private final CrashSwitch crashSwitch;

    public OrderService(OrderRepository orders, JmsTemplate jms, CrashSwitch crashSwitch) {
        this.orders = orders;
        this.jms = jms;
        this.crashSwitch = crashSwitch;
    }

    @Transactional
    public Order placeOrder(SampleRun run, int seq) {
        Order order = Order.place(run.orderId(seq), run.number(), seq);
        orders.insert(order);
        jms.convertAndSend(Queues.ORDERS, new OrderCreated(order.id(), order.item(), order.quantity(),
                order.amountCents()));
        crashSwitch.armIfChosen(order);
        return order;
    }
}
