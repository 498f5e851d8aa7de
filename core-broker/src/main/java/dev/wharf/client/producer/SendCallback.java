package dev.wharf.client.producer;

/**
 * Receives the outcome of an asynchronous send. Called once, on a client callback thread (or on the sending
 * thread when the message is refused before anything is sent). Do not block in it.
 */
public interface SendCallback {

    void onSuccess(SendResult result);

    /** The send failed after its retries; usually a {@link dev.wharf.client.ClientException}. */
    void onException(Throwable e);
}
