package dev.wharf.remoting;

/**
 * Told of every request a server answered: which request code, which response code, and how long it took from
 * arrival on the I/O thread to the response being handed to the connection. Called on the processor's executor
 * thread (or the I/O thread for refusals), once per request: implementations must be quick, must not block and
 * should not allocate (metrics resolve their meters once per code pair).
 */
@FunctionalInterface
public interface RequestObserver {

    /** The response code reported for a request whose answer the processor sends later (a held pull). */
    int ANSWERED_LATER = -1;

    /** Observes nothing. */
    RequestObserver NONE = (requestCode, responseCode, nanos) -> { };

    /**
     * @param requestCode  the request's code
     * @param responseCode the response's code, or {@link #ANSWERED_LATER} when the processor answers later on its
     *                     own (long polling), in which case {@code nanos} is the time until it was parked
     * @param nanos        time since the request arrived
     */
    void served(int requestCode, int responseCode, long nanos);
}
