package dev.wharf.remoting.exception;

/** The request could not be written to the connection. */
public class RemotingSendRequestException extends RemotingException {

    private static final long serialVersionUID = 1L;

    public RemotingSendRequestException(String address, String codeName, Throwable cause) {
        super(address, "failed to send " + codeName + " to " + address
                + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage()), cause);
    }
}
