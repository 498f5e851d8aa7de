package dev.wharf.samples.order;

import org.springframework.stereotype.Component;

/**
 * A simulated card processor with fixed, easy-to-follow failures: every 7th order of a run is refused with an error
 * (its listener fails on every delivery, so the request ends in the dead-letter queue), every 5th customer never
 * confirms the payment (the order is cancelled when its payment window closes), the others are charged.
 */
@Component
public class PaymentGateway {

    /** What happened to a charge that did not fail. */
    public enum Outcome {
        CHARGED,
        /** The customer has not confirmed the payment (and will not). */
        AWAITING_CUSTOMER
    }

    /** The processor refused the charge with an error; a later attempt fails the same way. */
    public static final class GatewayException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        GatewayException(String message) {
            super(message);
        }
    }

    Outcome charge(PaymentRequested request) {
        if (request.seq() % 7 == 0) {
            throw new GatewayException("card processor error for order #" + request.orderId());
        }
        return request.seq() % 5 == 0 ? Outcome.AWAITING_CUSTOMER : Outcome.CHARGED;
    }
}
