package dev.wharf.broker.ha;

/** The peer broke the HA protocol or was refused; carries the REFUSED reason to send or that was received. */
final class HaProtocolException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int reason;

    HaProtocolException(int reason, String message) {
        super(message);
        this.reason = reason;
    }

    int reason() {
        return reason;
    }
}
