package dev.wharf.remoting;

/**
 * Told of every response a server writes: which request code it answers, its response code, and how long it took
 * from the request's arrival on the I/O thread to the response being handed to the connection (responses a
 * processor writes later, such as stored sends and held pulls, included). One-way requests get no response and
 * are not told. Called on the thread writing the response: implementations must be quick, must not block and
 * should not allocate (metrics resolve their meters once per code pair).
 */
@FunctionalInterface
public interface RequestObserver {

    /** Observes nothing. */
    RequestObserver NONE = (requestCode, responseCode, nanos) -> { };

    /**
     * @param requestCode  the request's code
     * @param responseCode the response's code
     * @param nanos        time since the request arrived
     */
    void served(int requestCode, int responseCode, long nanos);
}
