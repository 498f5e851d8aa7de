package dev.wharf.client;

/**
 * A client call failed. The message says what went wrong and what to do about it.
 *
 * <p>{@link #responseCode()} is the broker's or NameServer's response code ({@code dev.wharf.protocol.ResponseCode})
 * when a server refused the request, the code a broker would have answered when the client caught the fault
 * first (for example {@code MESSAGE_ILLEGAL} for an oversized message), or {@link #NO_RESPONSE} when no server
 * answered at all (unreachable, timed out, connection lost) - the case in which the request may or may not have
 * taken effect.
 */
public class ClientException extends Exception {

    private static final long serialVersionUID = 1L;

    /** No server answered: the request may or may not have been processed. */
    public static final int NO_RESPONSE = -1;

    private final int responseCode;
    private final boolean storedNothing;

    public ClientException(String message) {
        this(NO_RESPONSE, message, null);
    }

    public ClientException(String message, Throwable cause) {
        this(NO_RESPONSE, message, cause);
    }

    public ClientException(int responseCode, String message) {
        this(responseCode, message, null);
    }

    public ClientException(int responseCode, String message, Throwable cause) {
        this(responseCode, message, cause, false);
    }

    /**
     * @param storedNothing the request certainly had no effect (it never reached a server, or the server said it
     *                      refused it before acting), so sending it again cannot make it take effect twice
     */
    public ClientException(int responseCode, String message, Throwable cause, boolean storedNothing) {
        super(message, cause);
        this.responseCode = responseCode;
        this.storedNothing = storedNothing;
    }

    /**
     * Whether the request certainly had no effect: it never reached a server (no connection, no master known), or
     * the server refused it before acting on it. False when it may have taken effect (a timeout, a lost answer).
     */
    public boolean storedNothing() {
        return storedNothing;
    }

    /** The server's response code, or {@link #NO_RESPONSE}. */
    public int responseCode() {
        return responseCode;
    }

    /** Whether no server answered (network failure or timeout). */
    public boolean isNoResponse() {
        return responseCode == NO_RESPONSE;
    }
}
