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
        super(message, cause);
        this.responseCode = responseCode;
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
