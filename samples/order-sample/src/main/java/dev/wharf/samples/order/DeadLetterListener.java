package dev.wharf.samples.order;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Reads the payment requests that failed on every delivery, from the dead-letter queue Wharf keeps for the
 * "payments" queue, and marks their orders PAYMENT_FAILED (releasing the stock).
 */
@Component
public class DeadLetterListener {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterListener.class);

    private final OrderRepository orders;
    private final SampleRun run;
    private final Settlements settlements;

    public DeadLetterListener(OrderRepository orders, SampleRun run, Settlements settlements) {
        this.orders = orders;
        this.run = run;
        this.settlements = settlements;
    }

    @JmsListener(destination = Queues.PAYMENTS_DEAD_LETTERS)
    @Transactional
    public void onDeadLetter(PaymentRequested request) {
        Order order = orders.find(request.orderId()).orElse(null);
        if (order != null && orders.release(order, OrderStatus.PAYMENT_FAILED, run.number())) {
            settlements.changedAfterCommit();
            log.info("Order #{}: payment request dead-lettered after its retries; order marked PAYMENT_FAILED",
                    order.id());
        }
    }
}
