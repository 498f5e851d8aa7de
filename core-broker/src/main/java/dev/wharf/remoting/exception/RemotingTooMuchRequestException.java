package dev.wharf.remoting.exception;

/**
 * Too many asynchronous or one-way requests are in flight on this endpoint; the caller should slow down
 * (or raise the endpoint's semaphore value).
 */
public class RemotingTooMuchRequestException extends RemotingException {

    private static final long serialVersionUID = 1L;

    public RemotingTooMuchRequestException(String address, String message) {
        super(address, message);
    }
}
