package dev.wharf.namesrv;

/** A registration or unregistration that would take a live broker's name, id or address away from it. */
public final class BrokerTakeoverException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public BrokerTakeoverException(String message) {
        super(message);
    }
}
