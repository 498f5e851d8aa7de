package dev.wharf.remoting.exception;

/** No connection to the peer could be made, or the connection was lost before the response arrived. */
public class RemotingConnectException extends RemotingException {

    private static final long serialVersionUID = 1L;

    /** Whether the request had been written when the connection was lost (the peer may have acted on it). */
    private final boolean requestWritten;

    public RemotingConnectException(String address, String message, Throwable cause) {
        this(address, message, cause, false);
    }

    /**
     * @param requestWritten the request went out before the connection was lost, so the peer may have acted on
     *                       it (a send may be stored); false when it never left this side
     */
    public RemotingConnectException(String address, String message, Throwable cause, boolean requestWritten) {
        super(address, message, cause);
        this.requestWritten = requestWritten;
    }

    /** Whether the peer may have received the request (false: it certainly did not). */
    public boolean requestWritten() {
        return requestWritten;
    }

    /** A failed connection attempt, with the usual hint. */
    public static RemotingConnectException cannotConnect(String address, long timeoutMillis, Throwable cause) {
        String reason = cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage();
        return new RemotingConnectException(address, "cannot connect to " + address + " within " + timeoutMillis
                + " ms" + reason + "; is the server running and the address right?", cause);
    }
}
