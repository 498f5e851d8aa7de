package dev.wharf.samples.order;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Receives each order's {@link OrderTimeout} when its payment window has closed (the message was sent with that
 * delivery delay) and cancels the order if it is still unpaid, releasing the stock. For a paid order it does
 * nothing.
 */
@Component
public class OrderTimeoutListener {

    private static final Logger log = LoggerFactory.getLogger(OrderTimeoutListener.class);

    private final OrderRepository orders;
    private final SampleRun run;
    private final Settlements settlements;

    public OrderTimeoutListener(OrderRepository orders, SampleRun run, Settlements settlements) {
        this.orders = orders;
        this.run = run;
        this.settlements = settlements;
    }

    @JmsListener(destination = Queues.ORDER_TIMEOUTS)
    @Transactional
    public void onTimeout(OrderTimeout timeout) {
        Order order = orders.find(timeout.orderId()).orElse(null);
        if (order != null && orders.release(order, OrderStatus.CANCELLED, run.number())) {
            settlements.changedAfterCommit();
            log.info("Order #{}: not paid within the payment window; cancelled", order.id());
        }
    }
}
