package dev.wharf.remoting.exception;

/** Base of every failed remote invocation; {@link #address()} names the peer. */
public class RemotingException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String address;

    public RemotingException(String address, String message, Throwable cause) {
        super(message, cause);
        this.address = address;
    }

    public RemotingException(String address, String message) {
        this(address, message, null);
    }

    /** The peer's "host:port", or null if the failure is not about one peer. */
    public String address() {
        return address;
    }
}
