package dev.wharf.remoting.exception;

/** No connection to the peer could be made, or the connection was lost before the response arrived. */
public class RemotingConnectException extends RemotingException {

    private static final long serialVersionUID = 1L;

    public RemotingConnectException(String address, String message, Throwable cause) {
        super(address, message, cause);
    }

    /** A failed connection attempt, with the usual hint. */
    public static RemotingConnectException cannotConnect(String address, long timeoutMillis, Throwable cause) {
        String reason = cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage();
        return new RemotingConnectException(address, "cannot connect to " + address + " within " + timeoutMillis
                + " ms" + reason + "; is the server running and the address right?", cause);
    }
}
