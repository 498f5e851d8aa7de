package dev.wharf.samples.jmstemplate;

import java.util.Map;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;

/**
 * Answers price requests. The value a {@code @JmsListener} method returns is converted by the MessageConverter and
 * sent to the request's JMSReplyTo (the requester's temporary queue).
 */
@Component
public class PricingDesk {

    private static final Map<String, Long> UNIT_PRICE_CENTS = Map.of("kettle", 2_499L, "teapot", 1_899L,
            "mug", 699L);

    @JmsListener(destination = PricingClient.PRICE_REQUESTS)
    public PriceQuote quote(PriceRequest request) {
        long unit = UNIT_PRICE_CENTS.getOrDefault(request.item(), 0L);
        return new PriceQuote(request.item(), request.quantity(), unit * request.quantity());
    }
}
