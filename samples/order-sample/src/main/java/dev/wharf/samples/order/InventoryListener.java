package dev.wharf.samples.order;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.jms.core.JmsClient;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Reserves the stock of each new order and asks for its payment: in one database transaction it updates the stock
 * and the order, sends {@link PaymentRequested} and sends {@link OrderTimeout} with a delivery delay of the payment
 * window. The listener's session is transacted, so the received OrderCreated is acknowledged with the messages it
 * sends, after the database commit; if this JVM dies in between, the check-back settles the sent messages from the
 * database and the unacknowledged OrderCreated comes again (the reservation is then already done: nothing changes).
 */
@Component
public class InventoryListener {

    private static final Logger log = LoggerFactory.getLogger(InventoryListener.class);

    private final OrderRepository orders;
    private final JmsTemplate jms;
    private final JmsClient jmsClient;
    private final SampleRun run;
    private final Settlements settlements;
    private final long paymentWindowMillis;

    public InventoryListener(OrderRepository orders, JmsTemplate jms, JmsClient jmsClient, SampleRun run,
                             Settlements settlements, OrderSampleProperties properties) {
        this.orders = orders;
        this.jms = jms;
        this.jmsClient = jmsClient;
        this.run = run;
        this.settlements = settlements;
        this.paymentWindowMillis = properties.getPaymentWindow().toMillis();
    }

    @JmsListener(destination = Queues.ORDERS)
    @Transactional
    public void onOrderCreated(OrderCreated event) {
        Order order = orders.find(event.orderId()).orElse(null);
        if (order == null) {
            // cannot happen: the message is committed only with its row
            log.warn("OrderCreated for unknown order #{}; ignored", event.orderId());
            return;
        }
        if (order.killedAfterCommit() && orders.markRecovered(order.id(), run.number())) {
            log.info("Order #{}: OrderCreated delivered by the check-back (its run was killed right after the"
                    + " database commit)", order.id());
        }
        if (order.status() != OrderStatus.PLACED) {
            return; // delivered again: already handled
        }
        if (!orders.reserve(order)) {
            orders.reject(order, run.number());
            settlements.changedAfterCommit();
            log.info("Order #{}: rejected, not enough {} in stock", order.id(), order.item());
            return;
        }
        jms.convertAndSend(Queues.PAYMENTS, new PaymentRequested(order.id(), order.seq(), order.amountCents()));
        jmsClient.destination(Queues.ORDER_TIMEOUTS).withDeliveryDelay(paymentWindowMillis)
                .send(new OrderTimeout(order.id()));
    }
}
