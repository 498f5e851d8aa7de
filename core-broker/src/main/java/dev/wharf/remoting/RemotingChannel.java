package dev.wharf.remoting;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.remoting.exception.RemotingException;
import java.util.concurrent.CompletableFuture;

/**
 * One connection, seen from either end. Requests can go both ways over it: the client calls the server,
 * and the server calls processors registered on the client (the broker's transaction check-back).
 *
 * <p>Identity is the underlying connection: two instances are equal exactly when they stand for the same
 * connection, so brokers can key maps by it. Thread-safe.
 */
public interface RemotingChannel {

    /** The peer's "ip:port". */
    String remoteAddress();

    /** This end's "ip:port". */
    String localAddress();

    /** Whether the connection is open. */
    boolean isActive();

    /**
     * Whether the connection's outbound buffer is below its high-water mark; a processor streaming many
     * responses to one peer can use it to slow down.
     */
    boolean isWritable();

    /**
     * Sends a response (the response flag is set here) and returns at once. The response's opaque must be
     * the request's (see {@link RemotingCommand#newResponse}). Failures are logged, not thrown: the peer may
     * have gone away meanwhile, which is routine for long polling. Body buffers are released in any case.
     */
    void writeResponse(RemotingCommand response);

    /**
     * Sends a request and waits for its response. Must not be called on an I/O thread.
     *
     * @throws dev.wharf.remoting.exception.RemotingTimeoutException no response within the timeout
     * @throws dev.wharf.remoting.exception.RemotingConnectException the connection is or became closed
     * @throws dev.wharf.remoting.exception.RemotingSendRequestException the request could not be written
     */
    RemotingCommand invokeSync(RemotingCommand request, long timeoutMillis)
            throws RemotingException, InterruptedException;

    /**
     * Sends a request; the future completes with the response, or fails with a {@link RemotingException}
     * (timeout, closed connection, send failure, too many requests in flight). Futures complete on the
     * endpoint's callback executor, never on an I/O thread.
     */
    CompletableFuture<RemotingCommand> invokeAsync(RemotingCommand request, long timeoutMillis);

    /**
     * Sends a request marked one-way (the peer sends no response) and returns at once; a write failure is
     * logged.
     *
     * @throws dev.wharf.remoting.exception.RemotingConnectException the connection is closed
     * @throws dev.wharf.remoting.exception.RemotingTooMuchRequestException too many one-way writes pending
     */
    void invokeOneway(RemotingCommand request) throws RemotingException;

    /** Closes the connection; requests waiting on it fail at once. */
    void close();

    /**
     * Whether the connection runs inside TLS (the peer's frames cannot be read, injected or changed on the way).
     * In permissive mode each connection decides with its first bytes; before they arrive this is false.
     */
    boolean isEncrypted();

    /**
     * What the server's {@link RequestGuard} keeps about this connection (the user it authenticated, see
     * {@code dev.wharf.remoting.auth}), or null; the state lives and dies with the connection.
     */
    Object guardState();

    /** Replaces {@link #guardState()}; null forgets it. */
    void setGuardState(Object state);
}
