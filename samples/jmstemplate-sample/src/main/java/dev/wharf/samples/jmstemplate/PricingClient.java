package dev.wharf.samples.jmstemplate;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Service;

/**
 * Asks the pricing desk for a quote and waits for the answer: JmsTemplate's {@code sendAndReceive} sends the request
 * with a temporary queue as its JMSReplyTo and receives the reply from it.
 */
@Service
public class PricingClient {

    static final String PRICE_REQUESTS = "price-requests";

    private final JmsTemplate jms;

    public PricingClient(JmsTemplate jms) {
        this.jms = jms;
    }

    /**
     * @throws IllegalStateException when no reply came within {@code spring.jms.template.receive-timeout}
     */
    public PriceQuote quote(PriceRequest request) throws JMSException {
        Message reply = jms.sendAndReceive(PRICE_REQUESTS,
                session -> jms.getMessageConverter().toMessage(request, session));
        if (reply == null) {
            throw new IllegalStateException("No price quote came back within spring.jms.template.receive-timeout;"
                    + " is the pricing desk listening on " + PRICE_REQUESTS + "?");
        }
        return (PriceQuote) jms.getMessageConverter().fromMessage(reply);
    }
}
