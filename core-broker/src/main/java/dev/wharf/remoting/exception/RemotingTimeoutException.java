package dev.wharf.remoting.exception;

/** No response arrived within the invocation's timeout. */
public class RemotingTimeoutException extends RemotingException {

    private static final long serialVersionUID = 1L;

    private final long timeoutMillis;

    public RemotingTimeoutException(String address, String codeName, long timeoutMillis) {
        super(address, "no response to " + codeName + " from " + address + " within " + timeoutMillis
                + " ms; the server may be overloaded or the timeout too short");
        this.timeoutMillis = timeoutMillis;
    }

    public long timeoutMillis() {
        return timeoutMillis;
    }
}
