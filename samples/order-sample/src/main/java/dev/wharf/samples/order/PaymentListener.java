package dev.wharf.samples.order;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Charges the customer of each reserved order. When the charge throws, so does the listener: its transacted
 * session rolls back and the request is delivered again, and after {@code wharf.max-reconsume-times} redeliveries
 * it goes to the dead-letter queue {@code %DLQ%payments} ({@link DeadLetterListener}).
 */
@Component
public class PaymentListener {

    private static final Logger log = LoggerFactory.getLogger(PaymentListener.class);

    private final OrderRepository orders;
    private final PaymentGateway gateway;
    private final SampleRun run;
    private final Settlements settlements;

    public PaymentListener(OrderRepository orders, PaymentGateway gateway, SampleRun run, Settlements settlements) {
        this.orders = orders;
        this.gateway = gateway;
        this.run = run;
        this.settlements = settlements;
    }

    @JmsListener(destination = Queues.PAYMENTS)
    @Transactional
    public void onPaymentRequested(PaymentRequested request, @Header("JMSXDeliveryCount") int delivery) {
        Order order = orders.find(request.orderId()).orElse(null);
        if (order == null || order.status() != OrderStatus.RESERVED) {
            return; // paid already, or cancelled meanwhile
        }
        PaymentGateway.Outcome outcome;
        try {
            outcome = gateway.charge(request);
        } catch (PaymentGateway.GatewayException e) {
            log.info("Order #{}: payment failed on delivery {} ({})", order.id(), delivery, e.getMessage());
            throw e;
        }
        if (outcome == PaymentGateway.Outcome.CHARGED && orders.pay(order, run.number())) {
            settlements.changedAfterCommit();
        }
        // AWAITING_CUSTOMER: nothing to do; the order's timeout cancels it when the payment window closes
    }
}
